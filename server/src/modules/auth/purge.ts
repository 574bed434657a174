import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { FAILURE_MEMORY_SECONDS } from './repository.js';

/** How long an ended session or refresh token is kept (so a late reuse of a spent token still ends its session). */
const ENDED_KEPT_SECONDS = 24 * 60 * 60;
export const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Deletes what sign-in leaves behind once it can no longer matter: failure counters a day after their last failure,
 * refresh tokens and sessions a day after they expired or were revoked, single sign-ons and their codes, second steps
 * of sign-ins and WebAuthn challenges once expired.
 */
export async function purgeAuthRecords(
  knex: Knex,
): Promise<{ loginAttempts: number; refreshTokens: number; sessions: number; ssoLeftovers: number }> {
  // Counted in SQL: knex-pglite answers a plain delete with the raw result, not the affected count.
  const deleted = async (table: string, where: string, bindings: number[]) => {
    const res = await knex.raw<{ rows: Array<{ n: number }> }>(
      `with gone as (delete from ?? where ${where} returning 1) select count(*)::int as n from gone`,
      [table, ...bindings],
    );
    return Number(res.rows[0]?.n ?? 0);
  };
  const ended = 'expires_at < now() - make_interval(secs => ?) or revoked_at < now() - make_interval(secs => ?)';
  const loginAttempts = await deleted('login_attempts', 'last_failed_at < now() - make_interval(secs => ?)', [
    FAILURE_MEMORY_SECONDS,
  ]);
  // A session's refresh tokens go with it (on delete cascade); spent tokens of live sessions go on their own.
  const sessions = await deleted('sessions', ended, [ENDED_KEPT_SECONDS, ENDED_KEPT_SECONDS]);
  const refreshTokens = await deleted('refresh_tokens', ended, [ENDED_KEPT_SECONDS, ENDED_KEPT_SECONDS]);
  // Single sign-ons never finished, and one-time codes never exchanged, are no use once expired.
  // So are second steps of sign-ins and WebAuthn challenges: each is good for five minutes.
  const ssoLeftovers =
    (await deleted('sso_sign_ins', 'expires_at < now()', [])) +
    (await deleted('sso_handoffs', 'expires_at < now()', [])) +
    (await deleted('sign_in_challenges', 'expires_at < now()', [])) +
    (await deleted('webauthn_challenges', 'expires_at < now()', []));
  return { loginAttempts, refreshTokens, sessions, ssoLeftovers };
}

/** Runs the purge every 10 minutes until stopped; the timer never keeps the process alive. */
export function startAuthPurge({
  knex,
  logger,
  everyMs = PURGE_INTERVAL_MS,
}: {
  knex: Knex;
  logger: Logger;
  everyMs?: number;
}): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeAuthRecords(knex)
      .then((n) => {
        if (n.loginAttempts + n.refreshTokens + n.sessions + n.ssoLeftovers > 0)
          logger.debug(n, 'purged ended sign-in records');
      })
      .catch((err: unknown) =>
        logger.warn({ err }, 'purging ended sign-in records failed; retrying at the next interval'),
      )
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
