// The second factor: an authenticator app (TOTP) and recovery codes at sign-in, the 202 of a password that was right,
// a code that cannot be used twice, failed codes throttled like failed sign-ins, and an account that must enrol
// refused everything else until it has.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aUser, FACTORY_PASSWORD, type Problem } from '../support/factory.js';
import { softAuthenticator, type CreationOptions, type RequestOptions } from '../support/soft-authenticator.js';
import { purgeAuthRecords } from '../../server/src/modules/auth/purge.js';
import { changeHeard, engines, startTestServer, type TestServer } from './support/index.js';

const PERIOD_MS = 30_000;
const RP_ID = 'admin.example.test';
const ORIGIN = `https://${RP_ID}`;

/** The code an authenticator app shows for the secret at `at` (ms). */
function codeOf(secret: string, at = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: at,
  });
}

/** A code that is wrong for the secret now and in the steps around it (never a valid one by chance). */
function wrongCodeOf(secret: string): string {
  const near = new Set([-1, 0, 1].map((d) => codeOf(secret, Date.now() + d * PERIOD_MS)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!near.has(candidate)) return candidate;
  }
}

interface Browser {
  /** The device cookie the sign-in set: the next requests of this "browser" send it back. */
  cookie: string | null;
}

interface Challenge {
  second_factor_token: string;
  methods: string[];
  expires_in: number;
}

const typeOf = async (res: Response) => ((await res.json()) as Problem).type;

describe.each(engines())('the second factor on %s', (engine) => {
  let t: TestServer;
  /** Every line the server logs while these tests run, at its most verbose level. */
  const logLines: string[] = [];

  beforeAll(async () => {
    // Many sign-ins from one address: its quota is not what these tests are about.
    t = await startTestServer(engine, {
      env: { AUTH_RATE_PER_IP: '10000/60s', WEBAUTHN_RP_ID: RP_ID, WEBAUTHN_ORIGINS: ORIGIN },
      logSink: (line) => logLines.push(line),
    });
  });
  afterAll(() => t?.close());

  const fetchAs = (browser: Browser, path: string, init: RequestInit & { token?: string; json?: unknown } = {}) =>
    t.fetch(path, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...(browser.cookie ? { Cookie: browser.cookie } : {}) },
    });

  async function passwordStep(username: string, browser: Browser = { cookie: null }): Promise<Response> {
    const res = await fetchAs(browser, '/api/auth/login', {
      method: 'POST',
      json: { username, password: FACTORY_PASSWORD },
    });
    const set = res.headers.get('set-cookie');
    if (set) browser.cookie = set.split(';')[0]!;
    return res;
  }

  async function challengeOf(username: string, browser: Browser): Promise<Challenge> {
    const res = await passwordStep(username, browser);
    expect(res.status).toBe(202);
    return (await res.json()) as Challenge;
  }

  async function secondStep(
    browser: Browser,
    token: string,
    method: 'totp' | 'recovery_code',
    code: string,
  ): Promise<Response> {
    return fetchAs(browser, '/api/auth/second-factor', {
      method: 'POST',
      json: { second_factor_token: token, method, code },
    });
  }

  /**
   * A new account with a confirmed authenticator app: its secret, its recovery codes, a token of its session, and
   * `nextCode`: the code of the step after the confirmation's, which the server takes (one step of drift) for the next
   * thirty seconds at least, wherever the clock turns meanwhile. A code of `Date.now()` plus one step would not be, once
   * the clock has moved into the step after the confirmation's.
   */
  async function anAccountWithTotp(grants: Parameters<typeof aUser>[2] = []) {
    const user = await aUser(t, { password: FACTORY_PASSWORD }, grants);
    const token = await t.tokenFor(user.id);
    const started = await t.fetch('/api-system/me/second-factors/totp', { method: 'POST', token });
    expect(started.status).toBe(200);
    const enrolment = (await started.json()) as { secret: string; otpauth_uri: string; qr_svg: string };
    const confirmedAt = Date.now();
    const confirmed = await t.fetch('/api-system/me/second-factors/totp/confirm', {
      method: 'POST',
      token,
      json: { code: codeOf(enrolment.secret, confirmedAt) },
    });
    expect(confirmed.status).toBe(200);
    const body = (await confirmed.json()) as { recovery_codes: string[] | null; factors: { totp: unknown } };
    const confirmationCode = codeOf(enrolment.secret, confirmedAt);
    const nextCode = () => codeOf(enrolment.secret, confirmedAt + PERIOD_MS);
    const secret = enrolment.secret;
    return { ...user, token, secret, recoveryCodes: body.recovery_codes!, enrolment, body, confirmationCode, nextCode };
  }

  it('when an account without a factor signs in, then it gets tokens at once, and its session says it used its password', async () => {
    const user = await aUser(t, { password: FACTORY_PASSWORD });
    const res = await passwordStep(user.username);
    expect(res.status).toBe(200);
    const pair = (await res.json()) as { access_token: string };
    const sessions = (await (await t.fetch('/api-system/me/sessions', { token: pair.access_token })).json()) as {
      data: Array<{ methods: string[]; second_factor_at: string | null; current: boolean }>;
    };
    expect(sessions.data).toEqual([
      expect.objectContaining({ methods: ['password'], second_factor_at: null, current: true }),
    ]);
  });

  it('when an account sets up an authenticator app, then it gets a QR code of its key and, confirmed, ten recovery codes shown once, and the secret is stored encrypted', async () => {
    const a = await anAccountWithTotp();
    expect(a.enrolment.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Platform%20Admin:/);
    expect(a.enrolment.otpauth_uri).toContain(`secret=${a.secret}`);
    expect(a.enrolment.qr_svg).toMatch(/^<svg /);
    expect(a.recoveryCodes).toHaveLength(10);
    expect(new Set(a.recoveryCodes).size).toBe(10);
    for (const c of a.recoveryCodes) expect(c).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const stored = (await t.knex('user_totp').where({ user_id: a.id }).first()) as { secret_encrypted: string };
    expect(stored.secret_encrypted).not.toContain(a.secret);
    const hashes = (await t.knex('user_recovery_codes').where({ user_id: a.id }).pluck('code_hash')) as string[];
    expect(hashes).toHaveLength(10);
    for (const c of a.recoveryCodes) expect(hashes.join(' ')).not.toContain(c.replace(/-/g, ''));
    const mine = (await (await t.fetch('/api-system/me/second-factors', { token: a.token })).json()) as {
      totp: { confirmed_at: string } | null;
      recovery_codes: { remaining: number };
      required: boolean;
    };
    expect(mine).toMatchObject({ required: false, recovery_codes: { remaining: 10 } });
    expect(mine.totp?.confirmed_at).toBeTruthy();
    // A second app replaces nothing while one is confirmed.
    const again = await t.fetch('/api-system/me/second-factors/totp', { method: 'POST', token: a.token });
    expect(again.status).toBe(409);
  });

  it('when an account with an authenticator app signs in, then the password answers 202 with a single-use token and no session, and the right code opens a session that used both', async () => {
    const a = await anAccountWithTotp();
    const sessionsBefore = await t.knex('sessions').where({ user_id: a.id }).count<[{ count: string }]>('* as count');
    const browser: Browser = { cookie: null };
    const challenge = await challengeOf(a.username, browser);
    expect(challenge.second_factor_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge.methods).toEqual(['totp', 'recovery_code']);
    expect(challenge.expires_in).toBe(300);
    expect(browser.cookie).toMatch(/^pa_device=/);
    const sessionsAfter = await t.knex('sessions').where({ user_id: a.id }).count<[{ count: string }]>('* as count');
    expect(Number(sessionsAfter[0]!.count)).toBe(Number(sessionsBefore[0]!.count));

    // The code the app shows one step later (accepted: one step of drift), not the one the confirmation used.
    const res = await secondStep(browser, challenge.second_factor_token, 'totp', a.nextCode());
    expect(res.status).toBe(200);
    const pair = (await res.json()) as { access_token: string };
    const sessions = (await (await t.fetch('/api-system/me/sessions', { token: pair.access_token })).json()) as {
      data: Array<{ methods: string[]; second_factor_at: string | null; current: boolean }>;
    };
    const current = sessions.data.find((s) => s.current)!;
    expect(current.methods).toEqual(['password', 'totp']);
    expect(current.second_factor_at).not.toBeNull();

    // The token worked once.
    const reused = await secondStep(browser, challenge.second_factor_token, 'totp', codeOf(a.secret));
    expect(reused.status).toBe(401);
    expect(await typeOf(reused)).toMatch(/\/problems\/second-factor-token-invalid$/);
  });

  it('when a TOTP code is replayed, then it is refused: the step the confirmation used, and the step a sign-in used, never sign in again', async () => {
    const a = await anAccountWithTotp();
    const browser: Browser = { cookie: null };
    // The code the confirmation just used.
    const first = await challengeOf(a.username, browser);
    const replayOfConfirmation = await secondStep(browser, first.second_factor_token, 'totp', a.confirmationCode);
    expect(replayOfConfirmation.status).toBe(401);
    expect(await typeOf(replayOfConfirmation)).toMatch(/\/problems\/second-factor-invalid$/);

    const next = a.nextCode();
    expect((await secondStep(browser, first.second_factor_token, 'totp', next)).status).toBe(200);
    // The same code again, in a new sign-in, whoever sends it.
    const second = await challengeOf(a.username, browser);
    const replay = await secondStep(browser, second.second_factor_token, 'totp', next);
    expect(replay.status).toBe(401);
    expect(await typeOf(replay)).toMatch(/\/problems\/second-factor-invalid$/);
    // And an earlier step too.
    const earlier = await secondStep(
      browser,
      second.second_factor_token,
      'totp',
      codeOf(a.secret, Date.now() - PERIOD_MS),
    );
    expect(earlier.status).toBe(401);
  });

  it('when a recovery code is used, then it signs in once, any case and dashes aside, and is refused the second time', async () => {
    const a = await anAccountWithTotp();
    const browser: Browser = { cookie: null };
    const code = a.recoveryCodes[3]!;
    const first = await challengeOf(a.username, browser);
    const typed = code.toUpperCase().replace(/-/g, ' ');
    const ok = await secondStep(browser, first.second_factor_token, 'recovery_code', typed);
    expect(ok.status).toBe(200);
    const pair = (await ok.json()) as { access_token: string };
    const sessions = (await (await t.fetch('/api-system/me/sessions', { token: pair.access_token })).json()) as {
      data: Array<{ methods: string[]; current: boolean }>;
    };
    expect(sessions.data.find((s) => s.current)?.methods).toEqual(['password', 'recovery_code']);

    const second = await challengeOf(a.username, browser);
    const used = await secondStep(browser, second.second_factor_token, 'recovery_code', code);
    expect(used.status).toBe(401);
    expect(await typeOf(used)).toMatch(/\/problems\/second-factor-invalid$/);
    const mine = (await (await t.fetch('/api-system/me/second-factors', { token: a.token })).json()) as {
      recovery_codes: { remaining: number };
    };
    expect(mine.recovery_codes.remaining).toBe(9);
    // Another account's code is no code of this one.
    const other = await anAccountWithTotp();
    const third = await challengeOf(a.username, browser);
    expect(
      (await secondStep(browser, third.second_factor_token, 'recovery_code', other.recoveryCodes[0]!)).status,
    ).toBe(401);
  });

  it('when wrong codes are sent, then after five this client waits (429 with Retry-After), counted per account and client, and the code is never recorded', async () => {
    const a = await anAccountWithTotp();
    const browser: Browser = { cookie: null };
    const challenge = await challengeOf(a.username, browser);
    const wrong = wrongCodeOf(a.secret);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) {
      last = await secondStep(browser, challenge.second_factor_token, 'totp', wrong);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.slice(4)).toEqual([429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Even the right code waits now: the delay is the client's.
    const right = await secondStep(browser, challenge.second_factor_token, 'totp', a.nextCode());
    expect(right.status).toBe(429);
    // Counted under the account's second factor and this browser (its device cookie), not the address.
    const attempts = await t
      .knex('login_attempts')
      .where({ account_key: `second-factor:${a.id}` })
      .select<Array<{ client: string; failed_count: number }>>('client', 'failed_count');
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.client).toMatch(/^device:/);
    expect(attempts[0]!.failed_count).toBe(5);
    const events = await t
      .knex('audit_events')
      .where({ actor_id: a.id, action: 'secondFactor.failed' })
      .select<Array<{ changes: unknown }>>('changes');
    expect(events.length).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(events)).not.toContain(wrong);
  });

  it('when the second step is sent with a token that is unknown, then the answer says to sign in again, whatever the code', async () => {
    const res = await t.fetch('/api/auth/second-factor', {
      method: 'POST',
      json: { second_factor_token: 'A'.repeat(43), method: 'totp', code: '123456' },
    });
    expect(res.status).toBe(401);
    expect(await typeOf(res)).toMatch(/\/problems\/second-factor-token-invalid$/);
  });

  it('when an expired sign-in token is sent, then it is refused even with the right code', async () => {
    const a = await anAccountWithTotp();
    const browser: Browser = { cookie: null };
    const challenge = await challengeOf(a.username, browser);
    await t
      .knex('sign_in_challenges')
      .where({ user_id: a.id })
      .update({ expires_at: t.knex.raw("now() - interval '1 second'") });
    const res = await secondStep(browser, challenge.second_factor_token, 'totp', a.nextCode());
    expect(res.status).toBe(401);
    expect(await typeOf(res)).toMatch(/\/problems\/second-factor-token-invalid$/);
  });

  it('when an account must enrol, then every operation of the contract that is not exempt answers 403 second-factor-enrolment-required, and the exempt ones answer', async () => {
    const user = await aUser(t, { password: FACTORY_PASSWORD, must_enrol_second_factor: true } as never, ['user.read']);
    const token = await t.tokenFor(user.id);
    const perms = (await (await t.fetch('/api/user/permission/platform', { token })).json()) as {
      must_enrol_second_factor: boolean;
    };
    expect(perms.must_enrol_second_factor).toBe(true);

    const spec = JSON.parse(readFileSync('openapi/generated/openapi.bundled.json', 'utf8')) as {
      paths: Record<
        string,
        Record<string, { operationId?: string; security?: unknown[]; 'x-second-factor-enrolment-exempt'?: boolean }>
      >;
    };
    const refused: string[] = [];
    const answered: string[] = [];
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op?.operationId || !['get', 'put', 'post', 'patch', 'delete'].includes(method)) continue;
        if (Array.isArray(op.security) && op.security.length === 0) continue;
        const url = path.replace(/\{[^}]+\}/g, '3b0f5a52-6f0e-4d8e-9a3c-1b7e2c4d5f60');
        const res = await t.fetch(url, {
          method: method.toUpperCase(),
          token,
          ...(method === 'get' ? {} : { json: {} }),
        });
        const body = res.status === 204 ? null : ((await res.json().catch(() => null)) as Problem | null);
        const enrolment = res.status === 403 && /\/problems\/second-factor-enrolment-required$/.test(body?.type ?? '');
        if (op['x-second-factor-enrolment-exempt']) {
          if (enrolment) refused.push(`${op.operationId} (exempt)`);
          else answered.push(op.operationId);
        } else if (!enrolment) refused.push(`${op.operationId}: ${res.status}`);
      }
    }
    // Every non-exempt operation was refused for enrolment; none of the exempt ones was.
    expect(refused).toEqual([]);
    expect(answered.sort()).toEqual(
      [
        'changeMyPassword',
        'confirmTotpEnrolment',
        'getMySecondFactors',
        'getPlatformPermissions',
        'listMySessions',
        'passkeyRegistrationOptions',
        'registerPasskey',
        'startTotpEnrolment',
      ].sort(),
    );
    const detail = await t.fetch('/api-system/clusters', { token });
    expect(((await detail.json()) as Problem).detail).toBe(
      'Set up a second factor (an authenticator app or a passkey) under My account before anything else.',
    );
  });

  it('when an account that must enrol confirms an authenticator app, then the flag clears and it may do what its grants allow at once', async () => {
    const user = await aUser(t, { password: FACTORY_PASSWORD, must_enrol_second_factor: true } as never, [
      'cluster.read',
    ]);
    const token = await t.tokenFor(user.id);
    expect((await t.fetch('/api-system/clusters', { token })).status).toBe(403);
    const mine = (await (await t.fetch('/api-system/me/second-factors', { token })).json()) as {
      required: boolean;
      required_reason: string | null;
    };
    expect(mine).toMatchObject({ required: true, required_reason: 'reset' });
    const started = (await (await t.fetch('/api-system/me/second-factors/totp', { method: 'POST', token })).json()) as {
      secret: string;
    };
    const wrong = await t.fetch('/api-system/me/second-factors/totp/confirm', {
      method: 'POST',
      token,
      json: { code: wrongCodeOf(started.secret) },
    });
    expect(wrong.status).toBe(400);
    expect((await t.fetch('/api-system/clusters', { token })).status).toBe(403);
    const ok = await t.fetch('/api-system/me/second-factors/totp/confirm', {
      method: 'POST',
      token,
      json: { code: codeOf(started.secret) },
    });
    expect(ok.status).toBe(200);
    const flag = await t
      .knex('users')
      .where({ id: user.id })
      .first<{ must_enrol_second_factor: boolean }>('must_enrol_second_factor');
    expect(flag.must_enrol_second_factor).toBe(false);
    expect((await t.fetch('/api-system/clusters', { token })).status).toBe(200);
  });

  it('when the policy covers the privileged, then a holder of a platform-wide key must enrol and one holding keys on a cluster only need not', async () => {
    await t.knex('second_factor_policy').insert({ id: true, required_for: 'privileged', sso_sign_ins: 'trusted' });
    try {
      const platform = await aUser(t, { password: FACTORY_PASSWORD }, ['cluster.read']);
      const cluster = await aUser(t, { password: FACTORY_PASSWORD });
      const platformToken = await t.tokenFor(platform.id);
      const clusterToken = await t.tokenFor(cluster.id);
      const enrolOf = async (token: string) =>
        (
          (await (await t.fetch('/api/user/permission/platform', { token })).json()) as {
            must_enrol_second_factor: boolean;
          }
        ).must_enrol_second_factor;
      expect(await enrolOf(platformToken)).toBe(true);
      expect(await enrolOf(clusterToken)).toBe(false);
      const mine = (await (await t.fetch('/api-system/me/second-factors', { token: platformToken })).json()) as {
        required_reason: string | null;
      };
      expect(mine.required_reason).toBe('policy');
    } finally {
      await t.knex('second_factor_policy').delete();
    }
    // The policy's change reaches the cached standing at once.
    const again = await aUser(t, { password: FACTORY_PASSWORD }, ['cluster.read']);
    const token = await t.tokenFor(again.id);
    expect((await t.fetch('/api-system/clusters', { token })).status).toBe(200);
  });

  interface PasskeyChallenge<O> {
    challenge_id: string;
    options: O;
  }

  /** Registers a passkey of the authenticator on the account (first factor: no step-up needed). */
  async function addPasskey(token: string, authenticator = softAuthenticator(), name = 'Office laptop') {
    const opts = await t.fetch('/api-system/me/second-factors/passkeys/options', { method: 'POST', token });
    expect(opts.status).toBe(200);
    const challenge = (await opts.json()) as PasskeyChallenge<CreationOptions & { excludeCredentials: unknown[] }>;
    const res = await t.fetch('/api-system/me/second-factors/passkeys', {
      method: 'POST',
      token,
      json: { challenge_id: challenge.challenge_id, name, response: authenticator.register(challenge.options, ORIGIN) },
    });
    return { res, authenticator, challenge };
  }

  async function passkeySignIn(
    authenticator: ReturnType<typeof softAuthenticator>,
    token?: string,
    use?: { credentialId: string },
  ) {
    const opts = await t.fetch('/api/auth/passkey/options', {
      method: 'POST',
      json: token ? { second_factor_token: token } : {},
    });
    expect(opts.status).toBe(200);
    const challenge = (await opts.json()) as PasskeyChallenge<
      RequestOptions & { allowCredentials: Array<{ id: string }> }
    >;
    const response = authenticator.authenticate(challenge.options, ORIGIN, use);
    const res = await t.fetch('/api/auth/passkey', {
      method: 'POST',
      json: { challenge_id: challenge.challenge_id, response, ...(token ? { second_factor_token: token } : {}) },
    });
    return { res, challenge, response };
  }

  const currentMethods = async (accessToken: string) =>
    (
      (await (await t.fetch('/api-system/me/sessions', { token: accessToken })).json()) as {
        data: Array<{ methods: string[]; current: boolean }>;
      }
    ).data.find((s) => s.current)?.methods;

  it('when an account adds a passkey as its first factor, then it gets recovery codes, and the passkey finishes its password sign-in and signs in alone without a password', async () => {
    const user = await aUser(t, { password: FACTORY_PASSWORD });
    const token = await t.tokenFor(user.id);
    const { res, authenticator, challenge } = await addPasskey(token);
    expect(challenge.options).toMatchObject({
      rp: { name: 'Platform Admin', id: RP_ID },
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      excludeCredentials: [],
    });
    expect(res.status).toBe(201);
    const enrolled = (await res.json()) as {
      recovery_codes: string[] | null;
      factors: { passkeys: Array<Record<string, unknown>> };
    };
    expect(enrolled.recovery_codes).toHaveLength(10);
    expect(enrolled.factors.passkeys).toHaveLength(1);
    expect(Object.keys(enrolled.factors.passkeys[0]!).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name']);
    expect(enrolled.factors.passkeys[0]).toMatchObject({ name: 'Office laptop', last_used_at: null });
    const credentialId = authenticator.passkeys[0]!.credentialId.toString('base64url');
    expect(JSON.stringify(enrolled)).not.toContain(credentialId);

    // With the password: the 202 offers the passkey, and only this account's passkeys are asked for.
    const browser: Browser = { cookie: null };
    const second = await challengeOf(user.username, browser);
    expect(second.methods).toEqual(['recovery_code', 'passkey']);
    const withPassword = await passkeySignIn(authenticator, second.second_factor_token);
    expect(withPassword.challenge.options.allowCredentials.map((c) => c.id)).toEqual([credentialId]);
    expect(withPassword.res.status).toBe(200);
    expect(await currentMethods(((await withPassword.res.json()) as { access_token: string }).access_token)).toEqual([
      'password',
      'passkey',
    ]);

    // Alone: a discoverable sign-in names no account, and the passkey signs its own in.
    const alone = await passkeySignIn(authenticator);
    expect(alone.challenge.options.allowCredentials ?? []).toEqual([]);
    expect(alone.res.status).toBe(200);
    expect(await currentMethods(((await alone.res.json()) as { access_token: string }).access_token)).toEqual([
      'passkey',
    ]);
    const mine = (await (await t.fetch('/api-system/me/second-factors', { token })).json()) as {
      passkeys: Array<{ last_used_at: string | null }>;
    };
    expect(mine.passkeys[0]!.last_used_at).not.toBeNull();

    // An answer is good for its challenge once.
    const replay = await t.fetch('/api/auth/passkey', {
      method: 'POST',
      json: { challenge_id: alone.challenge.challenge_id, response: alone.response },
    });
    expect(replay.status).toBe(401);
    expect(await typeOf(replay)).toMatch(/\/problems\/second-factor-invalid$/);
  });

  it("when one account's passkey answers another account's sign-in, then it is refused: a passkey never finishes someone else's sign-in", async () => {
    const owner = await aUser(t, { password: FACTORY_PASSWORD });
    const { authenticator } = await addPasskey(await t.tokenFor(owner.id));
    const credentialId = authenticator.passkeys[0]!.credentialId.toString('base64url');
    const victim = await anAccountWithTotp();
    const browser: Browser = { cookie: null };
    const second = await challengeOf(victim.username, browser);
    const crossed = await passkeySignIn(authenticator, second.second_factor_token, { credentialId });
    expect(crossed.res.status).toBe(401);
    expect(await typeOf(crossed.res)).toMatch(/\/problems\/second-factor-invalid$/);
    // The victim's sign-in is still pending for its own factor.
    expect((await secondStep(browser, second.second_factor_token, 'totp', victim.nextCode())).status).toBe(200);
  });

  it('when a sensitive operation is asked without a recent second factor, then 403 step-up-required names the methods; a step-up opens it for 10 minutes, and once that is past it is asked again', async () => {
    const a = await anAccountWithTotp();
    // A session of this account that has not used its second factor.
    const refused = await t.fetch('/api-system/me/second-factors/recovery-codes', { method: 'POST', token: a.token });
    expect(refused.status).toBe(403);
    const problem = (await refused.json()) as Problem & { methods: string[] };
    expect(problem.type).toMatch(/\/problems\/step-up-required$/);
    expect(problem.methods).toEqual(['totp', 'recovery_code']);

    const wrong = await t.fetch('/api-system/me/step-up', {
      method: 'POST',
      token: a.token,
      json: { method: 'totp', code: wrongCodeOf(a.secret) },
    });
    expect(wrong.status).toBe(401);
    expect(await typeOf(wrong)).toMatch(/\/problems\/second-factor-invalid$/);
    const up = await t.fetch('/api-system/me/step-up', {
      method: 'POST',
      token: a.token,
      json: { method: 'totp', code: a.nextCode() },
    });
    expect(up.status).toBe(200);
    const stepUp = (await up.json()) as { second_factor_at: string; expires_at: string };
    expect(Date.parse(stepUp.expires_at) - Date.parse(stepUp.second_factor_at)).toBe(600_000);
    const fresh = await t.fetch('/api-system/me/second-factors/recovery-codes', { method: 'POST', token: a.token });
    expect(fresh.status).toBe(200);
    const codes = ((await fresh.json()) as { recovery_codes: string[] }).recovery_codes;
    expect(codes).toHaveLength(10);
    expect(codes.some((c) => a.recoveryCodes.includes(c))).toBe(false);

    // Eleven minutes later, as far as the session knows (once the server's cached session has heard of it).
    const heard = changeHeard(t, 'sessions', a.id);
    await t
      .knex('sessions')
      .where({ user_id: a.id })
      .whereNotNull('second_factor_at')
      .update({ second_factor_at: t.knex.raw("now() - interval '11 minutes'") });
    await heard;
    const expired = await t.fetch('/api-system/me/second-factors/recovery-codes', { method: 'POST', token: a.token });
    expect(expired.status).toBe(403);
    expect(await typeOf(expired)).toMatch(/\/problems\/step-up-required$/);
    // The old set is void: a code of it no longer signs in.
    const browser: Browser = { cookie: null };
    const second = await challengeOf(a.username, browser);
    expect((await secondStep(browser, second.second_factor_token, 'recovery_code', a.recoveryCodes[0]!)).status).toBe(
      401,
    );
    expect((await secondStep(browser, second.second_factor_token, 'recovery_code', codes[0]!)).status).toBe(200);
  });

  it('when an account steps up with a factor it does not have, then 409 says what it can use, and counts no failure', async () => {
    const none = await aUser(t, { password: FACTORY_PASSWORD });
    const noneToken = await t.tokenFor(none.id);
    const stepUp = (token: string, json: unknown) => t.fetch('/api-system/me/step-up', { method: 'POST', token, json });
    for (let i = 0; i < 6; i++) {
      const res = await stepUp(noneToken, { method: 'totp', code: '123456' });
      expect(res.status).toBe(409);
      expect(((await res.json()) as Problem).detail).toBe(
        'You have no second factor to confirm with: set one up under My account first',
      );
    }
    const a = await anAccountWithTotp();
    // An answer of the right shape, from no authenticator: the account has no passkey to check it against anyway.
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    const passkey = await stepUp(a.token, {
      method: 'passkey',
      challenge_id: randomUUID(),
      response: {
        id: b64('credential'),
        rawId: b64('credential'),
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: b64('{}'), authenticatorData: b64('data'), signature: b64('signature') },
      },
    });
    expect(passkey.status).toBe(409);
    expect(((await passkey.json()) as Problem).detail).toBe(
      'You cannot confirm with a passkey: use your authenticator app or a recovery code',
    );
    // None of those counted: the right code still steps up at once.
    const up = await stepUp(a.token, { method: 'totp', code: a.nextCode() });
    expect(up.status).toBe(200);
  });

  it('when a passkey is removed, then it needs a step-up (here with the passkey itself), and the last factor gone takes the recovery codes with it', async () => {
    const user = await aUser(t, { password: FACTORY_PASSWORD });
    const token = await t.tokenFor(user.id);
    const { res, authenticator } = await addPasskey(token);
    const passkeyId = ((await res.json()) as { factors: { passkeys: Array<{ id: string }> } }).factors.passkeys[0]!.id;
    const refused = await t.fetch(`/api-system/me/second-factors/passkeys/${passkeyId}`, { method: 'DELETE', token });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { methods: string[] }).methods).toEqual(['recovery_code', 'passkey']);
    const opts = (await (
      await t.fetch('/api-system/me/step-up/options', { method: 'POST', token })
    ).json()) as PasskeyChallenge<RequestOptions>;
    const up = await t.fetch('/api-system/me/step-up', {
      method: 'POST',
      token,
      json: {
        method: 'passkey',
        challenge_id: opts.challenge_id,
        response: authenticator.authenticate(opts.options, ORIGIN),
      },
    });
    expect(up.status).toBe(200);
    const removed = await t.fetch(`/api-system/me/second-factors/passkeys/${passkeyId}`, { method: 'DELETE', token });
    expect(removed.status).toBe(204);
    const mine = (await (await t.fetch('/api-system/me/second-factors', { token })).json()) as {
      passkeys: unknown[];
      recovery_codes: unknown;
    };
    expect(mine).toMatchObject({ passkeys: [], recovery_codes: null });
    // Without a factor, the password signs in alone again.
    expect((await passwordStep(user.username)).status).toBe(200);
  });

  it("when an administrator resets a person's second factors, then they are gone, every session of the person ends, the person must enrol, and the trail says so; the delegation rule applies", async () => {
    const a = await anAccountWithTotp(['cluster.read']);
    const admin = await t.login('admin');
    const reset = await t.fetch(`/api-system/users/${a.id}/second-factors`, { method: 'DELETE', token: admin });
    expect(reset.status).toBe(204);
    const ended = await t.fetch('/api-system/me/sessions', { token: a.token });
    expect(ended.status).toBe(401);
    expect(await typeOf(ended)).toMatch(/\/problems\/session-ended$/);
    const factors = (await (await t.fetch(`/api-system/users/${a.id}/second-factors`, { token: admin })).json()) as {
      required: boolean;
      required_reason: string | null;
      totp: unknown;
      recovery_codes: unknown;
    };
    expect(factors).toMatchObject({ required: true, required_reason: 'reset', totp: null, recovery_codes: null });
    // The password signs in (no factor is left), and the session is led to enrolment.
    const res = await passwordStep(a.username);
    expect(res.status).toBe(200);
    const token = ((await res.json()) as { access_token: string }).access_token;
    expect(await typeOf(await t.fetch('/api-system/clusters', { token }))).toMatch(/second-factor-enrolment-required$/);
    const event = await t
      .knex('audit_events')
      .where({ action: 'resetSecondFactors', target_id: a.id })
      .first<{ actor_id: string; labels: { user?: string } }>('actor_id', 'labels');
    expect(event.labels.user).toBe(a.username);

    // A user.manage holder without super admin may not reset a super admin's factors.
    const helpdesk = await aUser(t, { password: FACTORY_PASSWORD }, ['user.manage']);
    const adminRow = await t.knex('users').where({ username: 'admin' }).first<{ id: string }>('id');
    const refused = await t.fetch(`/api-system/users/${adminRow.id}/second-factors`, {
      method: 'DELETE',
      token: await t.tokenFor(helpdesk.id),
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Problem).detail).toBe(
      'Only a super admin may reset the second factors of a super admin',
    );
  });

  it('when an account goes through every second-factor step, then no secret, code, recovery code, sign-in token or passkey credential id reaches the log or the audit trail', async () => {
    const a = await anAccountWithTotp();
    const leaks: string[] = [a.secret, a.confirmationCode];
    const wrong = wrongCodeOf(a.secret);
    leaks.push(wrong);

    // The second step: a wrong code, then the right one; another sign-in with a recovery code.
    const browser: Browser = { cookie: null };
    const first = await challengeOf(a.username, browser);
    leaks.push(first.second_factor_token);
    expect((await secondStep(browser, first.second_factor_token, 'totp', wrong)).status).toBe(401);
    const code = a.nextCode();
    leaks.push(code);
    const signedIn = await secondStep(browser, first.second_factor_token, 'totp', code);
    expect(signedIn.status).toBe(200);
    const token = ((await signedIn.json()) as { access_token: string }).access_token;
    const second = await challengeOf(a.username, browser);
    leaks.push(second.second_factor_token);
    expect((await secondStep(browser, second.second_factor_token, 'recovery_code', a.recoveryCodes[0]!)).status).toBe(
      200,
    );

    // A session with a fresh second factor regenerates the recovery codes and adds a passkey, which then signs in.
    const renewed = await t.fetch('/api-system/me/second-factors/recovery-codes', { method: 'POST', token });
    expect(renewed.status).toBe(200);
    const recoveryCodes = [
      ...a.recoveryCodes,
      ...((await renewed.json()) as { recovery_codes: string[] }).recovery_codes,
    ];
    // As shown, and as a person may type them (lower case, no dashes).
    leaks.push(...recoveryCodes, ...recoveryCodes.map((c) => c.toLowerCase().replace(/-/g, '')));
    const { res: added, authenticator } = await addPasskey(token);
    expect(added.status).toBe(201);
    const credentialId = authenticator.passkeys[0]!.credentialId;
    leaks.push(credentialId.toString('base64url'), credentialId.toString('base64'), credentialId.toString('hex'));
    expect((await passkeySignIn(authenticator)).res.status).toBe(200);
    const third = await challengeOf(a.username, browser);
    leaks.push(third.second_factor_token);
    expect((await passkeySignIn(authenticator, third.second_factor_token)).res.status).toBe(200);

    const trail = JSON.stringify(await t.knex('audit_events').where({ actor_id: a.id }).orWhere({ target_id: a.id }));
    expect(trail).toMatch(/confirmTotpEnrolment/);
    await expect.poll(() => logLines.some((l) => l.includes('"operationId":"signInWithPasskey"'))).toBe(true);
    const log = logLines.join('\n');
    // Bounded on both sides: a six-digit code may occur by chance inside a longer number or id.
    const found = (text: string) =>
      leaks.filter((leak) =>
        new RegExp(`(?<![0-9A-Za-z_+/-])${leak.replace(/[+/]/g, '\\$&')}(?![0-9A-Za-z_+/=-])`).test(text),
      );
    expect(found(log), 'in the log').toEqual([]);
    expect(found(trail), 'in the audit trail').toEqual([]);
  });

  it('when the policy is read and changed, then anyone signed in reads it, only a super admin changes it, and the stored choice overrides the configuration', async () => {
    const admin = await t.login('admin');
    const read = (await (await t.fetch('/api-system/second-factor-policy', { token: admin })).json()) as Record<
      string,
      string
    >;
    expect(read).toEqual({
      required_for: 'none',
      sso_sign_ins: 'trusted',
      source: 'configuration',
      configured: 'none',
    });
    const granter = await aUser(t, { password: FACTORY_PASSWORD }, ['grant.manage']);
    const refused = await t.fetch('/api-system/second-factor-policy', {
      method: 'PUT',
      token: await t.tokenFor(granter.id),
      json: { required_for: 'everyone', sso_sign_ins: 'trusted' },
    });
    expect(refused.status).toBe(403);
    try {
      const changed = await t.fetch('/api-system/second-factor-policy', {
        method: 'PUT',
        token: admin,
        json: { required_for: 'none', sso_sign_ins: 'second-factor' },
      });
      expect(changed.status).toBe(200);
      expect(await changed.json()).toEqual({
        required_for: 'none',
        sso_sign_ins: 'second-factor',
        source: 'console',
        configured: 'none',
      });
      expect(await t.knex('audit_events').where({ action: 'updateSecondFactorPolicy' }).first()).toBeTruthy();
    } finally {
      await t.knex('second_factor_policy').delete();
    }
  });

  it('when sign-in challenges and WebAuthn challenges expire, then the purge removes them and keeps the live ones', async () => {
    const user = await aUser(t, { password: FACTORY_PASSWORD });
    const past = t.knex.raw("now() - interval '1 minute'");
    const future = t.knex.raw("now() + interval '5 minutes'");
    await t.knex('sign_in_challenges').insert([
      { user_id: user.id, token_hash: `expired-${user.id}`, expires_at: past },
      { user_id: user.id, token_hash: `live-${user.id}`, expires_at: future },
    ]);
    await t.knex('webauthn_challenges').insert([
      { user_id: user.id, challenge: 'old', purpose: 'sign-in', expires_at: past },
      { user_id: user.id, challenge: 'new', purpose: 'register', expires_at: future },
    ]);
    await purgeAuthRecords(t.knex);
    expect(await t.knex('sign_in_challenges').where({ user_id: user.id }).pluck('token_hash')).toEqual([
      `live-${user.id}`,
    ]);
    expect(await t.knex('webauthn_challenges').where({ user_id: user.id }).pluck('challenge')).toEqual(['new']);
  });
});
