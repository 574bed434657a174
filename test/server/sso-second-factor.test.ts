// A single sign-on and this product's second factor: trusted by default; when a super admin's policy says
// `sso_sign_ins: second-factor`, the code exchange of an account with a factor answers the second step instead of
// tokens (unless the provider said it asked for one itself), and that step completes the session the callback opened.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtIdp, startTestIdp, type TestIdp } from '../support/oidc-idp.js';
import { bodyOf, type Problem } from '../support/factory.js';
import { Authenticator } from '../support/totp.js';
import { stringMatching } from '../support/matchers.js';
import type { AuditEventRecord, UserRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

interface Challenge {
  second_factor_token: string;
  methods: string[];
  expires_in: number;
}

interface Tokens {
  access_token: string;
  refresh_token: string;
}

const sessionOf = (accessToken: string) =>
  (JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

describe.each(engines())('a single sign-on and the second factor on %s', (engine) => {
  let t: TestServer;
  let idp: TestIdp;
  let admin: string;

  beforeAll(async () => {
    idp = await startTestIdp({}, { providerIds: ['test-idp'] });
    const provider = idp.providerConfig({
      id: 'test-idp',
      jit_provisioning: true,
      allowed_email_domains: ['andaman.example'],
    });
    t = await startTestServer(engine, {
      env: { OIDC_PROVIDERS: JSON.stringify([provider]), AUTH_RATE_PER_IP: '10000/60s' },
    });
    idp.serve([t.baseUrl]);
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t?.knex('second_factor_policy').delete();
    await t?.close();
    await idp?.close();
  });

  const setSsoSignIns = async (ssoSignIns: 'trusted' | 'second-factor') => {
    const res = await t.fetch('/api-system/second-factor-policy', {
      method: 'PUT',
      token: admin,
      json: { required_for: 'none', sso_sign_ins: ssoSignIns },
    });
    expect(res.status).toBe(200);
  };

  /** Signs `sub` in at the provider and visits the callback as the browser that began it: the one-time code. */
  const ssoCode = async (sub: string): Promise<string> => {
    const started = await t.fetch('/api/auth/sso/test-idp/start?return_to=/clusters', { redirect: 'manual' });
    expect(started.status).toBe(302);
    const cookie = started.headers
      .getSetCookie()
      .find((c) => c.startsWith('sso_state='))!
      .split(';')[0]!;
    const callbackUrl = await signInAtIdp(
      started.headers.get('location')!,
      sub,
      `${t.baseUrl}/api/auth/sso/test-idp/callback`,
    );
    const landed = await fetch(callbackUrl, { redirect: 'manual', headers: { cookie } });
    expect(landed.status).toBe(302);
    const location = landed.headers.get('location')!;
    const code = new URLSearchParams(location.slice(location.indexOf('?') + 1)).get('sso_code');
    expect(code, location).toBeTruthy();
    return code!;
  };
  const exchange = (code: string) => t.fetch('/api/auth/sso/exchange', { method: 'POST', json: { code } });

  /** A provider account signed in once (trusted), with an authenticator app set up on its product account. */
  const aPersonWithTotp = async (amr?: string[]) => {
    const sub = `sub-${randomUUID().slice(0, 8)}`;
    idp.accounts.set(sub, { email: `${sub}@andaman.example`, email_verified: true, given_name: 'Malee', amr });
    await bodyOf<Tokens>(await exchange(await ssoCode(sub)), 200);
    const account = (await t
      .knex<UserRecord>('users')
      .where({ email: `${sub}@andaman.example` })
      .first())!;
    const token = await t.tokenFor(account.id);
    const enrolment = await bodyOf<{ secret: string }>(
      await t.fetch('/api-system/me/second-factors/totp', { method: 'POST', token }),
      200,
    );
    const authenticator = new Authenticator(enrolment.secret);
    const confirmed = await t.fetch('/api-system/me/second-factors/totp/confirm', {
      method: 'POST',
      token,
      json: { code: await authenticator.nextCode() },
    });
    expect(confirmed.status).toBe(200);
    return { sub, account, authenticator };
  };
  /** The account's second step still to be taken, as stored. */
  const pendingStepOf = async (userId: string) =>
    (await t.knex('sign_in_challenges').where({ user_id: userId }).whereNull('used_at').first()) as {
      sso_session_id: string;
      sso_provider: string;
      token_hash: string;
    };
  const refreshTokensOf = async (sessionId: string) =>
    Number((await t.knex('refresh_tokens').where({ family_id: sessionId }).count({ n: '*' }))[0]!.n);
  const verify = (token: string, code: string) =>
    t.fetch('/api/auth/second-factor', {
      method: 'POST',
      json: { second_factor_token: token, method: 'totp', code },
    });

  it('when the policy trusts the provider (the default), then an account with an authenticator app signs in with the code exchange alone', async () => {
    const { sub } = await aPersonWithTotp();
    await bodyOf<Tokens>(await exchange(await ssoCode(sub)), 200);
  });

  describe('when a super admin has single sign-ons take the second factor too', () => {
    beforeAll(() => setSsoSignIns('second-factor'));
    afterAll(() => setSsoSignIns('trusted'));

    it('then the exchange answers the second step, not tokens, and the session the callback opened gets none until the right code', async () => {
      const { sub, account, authenticator } = await aPersonWithTotp();
      const res = await exchange(await ssoCode(sub));
      expect(res.status).toBe(202);
      const challenge = (await res.json()) as Challenge;
      expect(challenge).toEqual({
        second_factor_token: stringMatching(/^[A-Za-z0-9_-]{20,}$/),
        methods: ['totp', 'recovery_code'],
        expires_in: 300,
      });
      const pending = await pendingStepOf(account.id);
      expect(pending).toMatchObject({ sso_provider: 'test-idp' });
      expect(pending.token_hash).not.toContain(challenge.second_factor_token);
      expect(await refreshTokensOf(pending.sso_session_id)).toBe(0);

      const right = await authenticator.nextCode();
      const wrong = await verify(challenge.second_factor_token, right === '000000' ? '000001' : '000000');
      expect(wrong.status).toBe(401);
      expect(((await wrong.json()) as Problem).type).toMatch(/second-factor-invalid$/);

      const tokens = await bodyOf<Tokens>(await verify(challenge.second_factor_token, right), 200);
      // The same session the provider's callback opened, now with both methods and a second factor.
      expect(sessionOf(tokens.access_token)).toBe(pending.sso_session_id);
      const session = (await t.knex('sessions').where({ id: pending.sso_session_id }).first()) as {
        methods: string[];
        second_factor_at: Date | null;
        sso_provider: string;
      };
      expect(session).toMatchObject({ methods: ['sso', 'totp'], sso_provider: 'test-idp' });
      expect(session.second_factor_at).not.toBeNull();
      const me = await t.fetch('/api/user/permission/platform', { token: tokens.access_token });
      expect(me.status).toBe(200);
      const signIn = await t
        .knex<AuditEventRecord>('audit_events')
        .where({ action: 'login', target_id: pending.sso_session_id })
        .first();
      expect(signIn?.changes).toEqual({
        provider: { before: null, after: 'test-idp' },
        subject: { before: null, after: sub },
      });

      // The step's token is spent: a second try cannot open anything (the token is refused before any code is read).
      const again = await verify(challenge.second_factor_token, right);
      expect(again.status).toBe(401);
      expect(((await again.json()) as Problem).type).toMatch(/second-factor-token-invalid$/);
    });

    it('then a provider that says it asked for a second factor itself (amr otp) is trusted, and an account without one signs in as before', async () => {
      const { sub } = await aPersonWithTotp(['pwd', 'otp']);
      await bodyOf<Tokens>(await exchange(await ssoCode(sub)), 200);

      const plain = `sub-${randomUUID().slice(0, 8)}`;
      idp.accounts.set(plain, { email: `${plain}@andaman.example`, email_verified: true, given_name: 'Niran' });
      await bodyOf<Tokens>(await exchange(await ssoCode(plain)), 200);
    });

    it('then a session ended while its second step waits cannot be completed by that step', async () => {
      const { sub, account, authenticator } = await aPersonWithTotp();
      const challenge = await bodyOf<Challenge>(await exchange(await ssoCode(sub)), 202);
      const pending = await pendingStepOf(account.id);
      await t.knex('sessions').where({ id: pending.sso_session_id }).update({ revoked_at: t.knex.fn.now() });
      const res = await verify(challenge.second_factor_token, await authenticator.nextCode());
      expect(res.status).toBe(401);
      expect(((await res.json()) as Problem).type).toMatch(/second-factor-token-invalid$/);
      expect(await refreshTokensOf(pending.sso_session_id)).toBe(0);
    });
  });
});
