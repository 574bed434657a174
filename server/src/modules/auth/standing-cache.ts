import type { ChangeFeed } from '../../db/changes.js';
import { cacheLookup } from '../../observability/cache-events.js';
import type { CallerStanding } from './repository.js';

/** How long a caller's standing is reused without a change notification; the notifications make it exact sooner. */
export const STANDING_TTL_MS = 5_000;

/** Tables whose changes alter a caller's standing (the change carries the user id). */
const STANDING_TABLES = new Set([
  'users',
  'permission_grants',
  'sessions',
  // Whether the account must enrol, and which second factors it can step up with (migration 0015).
  'user_totp',
  'user_passkeys',
  'second_factor_policy',
]);

/** Bounded, so a flood of distinct sessions cannot grow the process. */
const MAX_ENTRIES = 10_000;

interface Entry {
  standing: CallerStanding;
  expiresAt: number;
}

/** Requests share a cached standing: freeze it, so no request can change what the next one is allowed. */
function frozen(standing: CallerStanding): CallerStanding {
  if (standing.status !== 'ok') return Object.freeze(standing);
  const { platform, clusters } = standing.permissions;
  Object.freeze(platform);
  for (const keys of Object.values(clusters)) Object.freeze(keys);
  Object.freeze(clusters);
  Object.freeze(standing.permissions);
  Object.freeze(standing.secondFactors.methods);
  Object.freeze(standing.secondFactors);
  return Object.freeze(standing);
}

export type StandingLoader = (userId: string, sessionId: string | null) => Promise<CallerStanding>;

/**
 * Every authenticated request needs the caller's account, session and grants. Reading them is one round trip, yet
 * they change rarely: this keeps each (user, session) standing for a few seconds and forgets a user's entries as soon
 * as the change feed reports a change to that user's account, grants or sessions — on any replica, within one round
 * trip. While the feed is not live (its connection dropped), nothing is cached and every request reads through.
 */
export function standingCache({
  changes,
  load,
  now = Date.now,
}: {
  changes: ChangeFeed;
  load: StandingLoader;
  now?: () => number;
}) {
  const byUser = new Map<string, Map<string, Entry>>();
  let size = 0;
  /** Bumped by every change and reset; a load that started before one may hold stale data and is not kept. */
  let generation = 0;

  const forgetUser = (userId: string) => {
    size -= byUser.get(userId)?.size ?? 0;
    byUser.delete(userId);
  };
  const forgetAll = () => {
    byUser.clear();
    size = 0;
  };

  changes.subscribe({
    onChange({ table, id }) {
      if (!STANDING_TABLES.has(table)) return;
      generation++;
      if (id === null) forgetAll();
      else forgetUser(id);
    },
    onReset() {
      generation++;
      forgetAll();
    },
  });

  return {
    async standingOf(userId: string, sessionId: string | null): Promise<CallerStanding> {
      if (!changes.live) return load(userId, sessionId);
      const key = sessionId ?? '';
      const hit = byUser.get(userId)?.get(key);
      if (hit && hit.expiresAt > now()) {
        cacheLookup('standing', 'hit');
        return hit.standing;
      }
      cacheLookup('standing', 'miss');
      const startedAt = generation;
      const standing = frozen(await load(userId, sessionId));
      if (startedAt === generation && changes.live) {
        if (size >= MAX_ENTRIES) forgetAll();
        let sessions = byUser.get(userId);
        if (!sessions) byUser.set(userId, (sessions = new Map<string, Entry>()));
        if (!sessions.has(key)) size++;
        sessions.set(key, { standing, expiresAt: now() + STANDING_TTL_MS });
      }
      return standing;
    },
  };
}
