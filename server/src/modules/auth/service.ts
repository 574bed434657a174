import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import { displayName } from '../../core/display-name.js';
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  SecondFactorInvalidError,
  SecondFactorTokenInvalidError,
  TooManyRequestsError,
  UnauthorizedError,
  waitPhrase,
} from '../../core/errors.js';
import type { SecondFactorMethod, SecondFactorRequirement } from '../../core/second-factor.js';
import { STEP_UP_SECONDS } from '../../http/auth.js';
import { passwordProblem } from '../../core/password-policy.js';
import type { AuthContext, RequestOrigin } from '../../core/permissions.js';
import type { CallerRefusal } from '../../http/auth.js';
import type { AuditTrail } from '../audit/service.js';
import type { ChangeFeed } from '../../db/changes.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import {
  FAILURE_MEMORY_SECONDS,
  authRepository,
  type FailurePolicy,
  type PendingSignIn,
  type SessionSso,
  type SsoSecondStep,
} from './repository.js';
import { passwordHashGate, type HashLane } from './throttle.js';
import { deviceCookies, type Device } from './device-cookie.js';
import { standingCache } from './standing-cache.js';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  MAX_SESSION_AGE_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
  hashRefreshToken,
  newRefreshToken,
  newSignInToken,
  signAccessToken,
  signInTokenHash,
  verifyAccessTokenClaims,
} from './tokens.js';

/**
 * A sign-in refused for a wrong password or a delayed client, as the request's log line names it: the login as typed
 * only when it names an account (a password typed into the login field is never repeated), and that account.
 */
export interface RefusedSignIn {
  login: string | null;
  accountId: string | null;
}

/** After five failures of one client on one account, that client waits 30 s, then twice as long per failure, at most 15 minutes. */
export const FAILURE_POLICY: FailurePolicy = { threshold: 5, firstDelaySeconds: 30, maxDelaySeconds: 15 * 60 };
const BAD_CREDENTIALS = 'invalid username or password';
const BAD_REFRESH = 'invalid or expired refresh token';
/** Why a service account is refused at sign-in, refresh and single sign-on: it calls with API tokens only. */
export const SERVICE_ACCOUNT_SIGN_IN =
  'This is a service account: it cannot sign in. Call the API with one of its tokens (Authorization: Bearer pa_…), ' +
  'which an administrator creates under Service accounts.';
/** The refusal of a single sign-on code that cannot be exchanged (the SSO module refuses with it too). */
export const BAD_SSO_CODE = 'The sign-in code is invalid, used or expired: sign in again';

type TokenPair = Schemas['TokenPair'];
type SessionMethod = Schemas['SessionMethod'];
const SESSION_METHODS: readonly string[] = ['password', 'totp', 'recovery_code', 'passkey', 'sso'];

/** A session's methods as stored (a text array; the migration's check keeps it to the contract's list). */
export function sessionMethods(stored: unknown): SessionMethod[] {
  const list = Array.isArray(stored) ? stored : [];
  return list.filter((m): m is SessionMethod => typeof m === 'string' && SESSION_METHODS.includes(m)).slice(0, 5);
}

/** Retry-After and the RateLimit fields of a delayed client: five failures, remembered a day after the last one. */
function delayedError(seconds: number): TooManyRequestsError {
  return new TooManyRequestsError(
    `Too many failed sign-ins from this device; try again in ${waitPhrase(seconds)}.`,
    seconds,
    { limit: FAILURE_POLICY.threshold, windowSeconds: FAILURE_MEMORY_SECONDS },
  );
}

/**
 * Whom a failure is counted for: the device, when the request presents the device cookie of this very account, else
 * the address (a request without one, a unix socket, shares one counter).
 */
function clientOf(origin: RequestOrigin | undefined, device: Device | null, userId: string | undefined): string {
  if (device && userId && device.userId === userId) return `device:${device.id}`;
  return origin?.ip ?? 'unknown';
}

/** A single sign-on: the provider and the provider's subject (recorded with the sign-in). */
export interface SsoSignIn {
  provider: string;
  subject: string;
}

/** Per provider, how many hours its sign-ins last before the provider must be asked again (null: no limit). */
export type ReauthPolicy = (provider: string) => { hours: number | null; displayName: string } | undefined;

/** How long the second step of a sign-in can be taken after the password. */
export const SECOND_STEP_SECONDS = 300;

type PasskeyAnswer = Schemas['PasskeyAuthenticationResponse'];

/**
 * What sign-in asks of the second factor (the second-factor module answers): which factors an account has, whether
 * a code is right (spending it), and the WebAuthn ceremony of a passkey. `origin` is the console's origin a request
 * came from, which passkeys are bound to unless configured.
 */
export interface SecondFactorCheck {
  methodsOf(userId: string, db?: Knex | Knex.Transaction): Promise<SecondFactorMethod[]>;
  verifyCode(
    db: Knex | Knex.Transaction,
    userId: string,
    method: 'totp' | 'recovery_code',
    code: string,
  ): Promise<boolean>;
  passkeyChallenge(
    db: Knex | Knex.Transaction,
    at: { userId: string | null; sessionId: string | null; purpose: 'sign-in' | 'step-up'; origin: string | null },
  ): Promise<Schemas['PasskeyChallenge']>;
  verifyPasskey(
    db: Knex | Knex.Transaction,
    at: {
      challengeId: string;
      response: PasskeyAnswer;
      purpose: 'sign-in' | 'step-up';
      expectedUserId: string | null;
      sessionId: string | null;
      origin: string | null;
    },
  ): Promise<{ userId: string; passkeyId: string } | null>;
  /** Whether a single sign-on also takes this product's second factor (the policy's `sso_sign_ins`). */
  asksSsoSignIns(db?: Knex | Knex.Transaction): Promise<boolean>;
}

/** A sign-in with a second factor answers this instead of tokens: the second step comes next. */
export type SignInOutcome =
  { tokens: TokenPair; userId: string } | { challenge: Schemas['SecondFactorChallenge']; userId: string };

/** What sign-in is built from: `jwtSecret` signs the access tokens and the device cookies. */
export interface AuthDeps {
  knex: Knex;
  jwtSecret: string;
  audit: AuditTrail;
  changes: ChangeFeed;
  /** Without one, no provider's sign-in has to be renewed. */
  reauth?: ReauthPolicy;
  /** Without one, no account has a second factor. */
  secondFactors?: SecondFactorCheck;
  /** SECOND_FACTOR_REQUIRED. */
  secondFactorRequired?: SecondFactorRequirement;
}

const NO_SECOND_FACTORS: SecondFactorCheck = {
  methodsOf: () => Promise.resolve([]),
  verifyCode: () => Promise.resolve(false),
  passkeyChallenge: () => Promise.reject(new ConflictError('No passkeys here')),
  verifyPasskey: () => Promise.resolve(null),
  asksSsoSignIns: () => Promise.resolve(false),
};

const FACTOR_NAMES: Record<SecondFactorMethod, string> = {
  totp: 'your authenticator app',
  recovery_code: 'a recovery code',
  passkey: 'a passkey',
};

/** Why a step-up with `method` cannot be taken by an account whose factors are `methods`, and what to do instead. */
function noStepUpFactor(method: SecondFactorMethod, methods: SecondFactorMethod[]): string {
  if (methods.length === 0) return 'You have no second factor to confirm with: set one up under My account first';
  return `You cannot confirm with ${FACTOR_NAMES[method]}: use ${methods.map((m) => FACTOR_NAMES[m]).join(' or ')}`;
}

/** Failures of a second step are counted under the account's own key, apart from its password's. */
const secondFactorKey = (userId: string) => `second-factor:${userId}`;

export function authService({
  knex,
  jwtSecret,
  audit,
  changes,
  reauth = () => undefined,
  secondFactors = NO_SECOND_FACTORS,
  secondFactorRequired = 'none',
}: AuthDeps) {
  const repo = authRepository({ knex, secondFactorRequired });
  const standings = standingCache({ changes, load: repo.standingOf });
  // A sign-in that goes first also hashes at the normal priority (passwords.ts).
  const verify = (password: string, hash: string, lane: HashLane) =>
    passwordHashGate().run(() => verifyPassword(password, hash, lane === 'other' ? 'background' : 'urgent'), lane);
  const devices = deviceCookies({ secret: jwtSecret });

  /** A new session of the user, signed in with a password (and a second factor), or with a passkey alone. */
  async function openSession(
    trx: Knex.Transaction,
    userId: string,
    origin: RequestOrigin,
    methods: SessionMethod[] = ['password'],
  ): Promise<string> {
    const sessionId = randomUUID();
    await repo.insertSession(trx, {
      id: sessionId,
      user_id: userId,
      ip: origin.ip,
      user_agent: origin.userAgent,
      ttlSeconds: REFRESH_TOKEN_TTL_SECONDS,
      methods,
    });
    await recordSignIn(trx, userId, sessionId, origin, undefined, methods);
    return sessionId;
  }

  /** Refuses a client that failed too often (over every account it tried, as at sign-in). */
  async function assertNotDelayed(client: string, onDelayed: () => Promise<void>): Promise<void> {
    const standing = await repo.clientStanding(client);
    if (standing.delayedSeconds > 0) {
      await onDelayed();
      throw delayedError(standing.delayedSeconds);
    }
  }

  /** Counts a failed second factor of the account from this client: 429 once delayed, else 401. */
  async function failSecondFactor(accountKey: string, client: string, recordIt: () => Promise<void>): Promise<never> {
    const { delayedSeconds } = await repo.recordFailure(accountKey, client, FAILURE_POLICY);
    await recordIt();
    if (delayedSeconds > 0) throw delayedError(delayedSeconds);
    throw new SecondFactorInvalidError();
  }

  /** The pending second step a token names, or 401 `second-factor-token-invalid`. */
  async function pendingSignIn(token: string): Promise<PendingSignIn> {
    const pending = await repo.liveSignInChallenge(knex, signInTokenHash(token));
    if (!pending) throw new SecondFactorTokenInvalidError();
    return pending;
  }

  /** A new second step for the account: its token, stored hashed, and what the answer tells the client. */
  async function startSecondStep(
    db: Knex | Knex.Transaction,
    userId: string,
    methods: SecondFactorMethod[],
    origin: RequestOrigin,
    extra: { device_id: string | null } & Partial<SsoSecondStep>,
  ): Promise<Schemas['SecondFactorChallenge']> {
    const { token, hash } = newSignInToken();
    await repo.insertSignInChallenge(
      db,
      { user_id: userId, token_hash: hash, ip: origin.ip, user_agent: origin.userAgent, ...extra },
      SECOND_STEP_SECONDS,
    );
    return { second_factor_token: token, methods, expires_in: SECOND_STEP_SECONDS };
  }

  /**
   * Finishes a second step (`pending`, spent here once in the same transaction) with `factor`, or a passkey sign-in
   * on its own (no pending step): a password sign-in opens its session now; a single sign-on's second step completes
   * the session its callback opened, which had no tokens until now.
   */
  async function finishSignIn(
    pending: PendingSignIn | null,
    userId: string,
    origin: RequestOrigin,
    factor: SecondFactorMethod,
  ): Promise<TokenPair> {
    return knex.transaction(async (trx) => {
      if (pending !== null && !(await repo.spendSignInChallenge(trx, pending.id)))
        throw new SecondFactorTokenInvalidError();
      const user = await repo.findCredentials(userId, trx);
      if (!user?.is_active || user.kind === 'service') throw new SecondFactorTokenInvalidError();
      if (pending?.sso_session_id) {
        if (!(await repo.isSessionLive(trx, userId, pending.sso_session_id))) throw new SecondFactorTokenInvalidError();
        await repo.completeSsoSecondStep(trx, pending.sso_session_id, factor);
        await recordSignIn(trx, userId, pending.sso_session_id, origin, {
          provider: pending.sso_provider,
          subject: pending.sso_subject,
        });
        return issue(trx, userId, pending.sso_session_id);
      }
      const sessionId = await openSession(trx, userId, origin, pending ? ['password', factor] : [factor]);
      return issue(trx, userId, sessionId);
    });
  }

  /** The sign-in in the trail (with the provider and subject of a single sign-on) and on the account. */
  async function recordSignIn(
    trx: Knex.Transaction,
    userId: string,
    sessionId: string,
    origin: RequestOrigin,
    sso?: SsoSignIn,
    methods?: SessionMethod[],
  ): Promise<void> {
    await repo.markSignedIn(trx, userId);
    await audit.record(
      trx,
      { userId, origin },
      {
        action: 'login',
        target: { type: 'session', id: sessionId },
        after: sso ? { provider: sso.provider, subject: sso.subject } : methods && { methods },
      },
    );
  }

  /** Why a single sign-on session may not be refreshed any more (its provider asks for a new sign-in), or null. */
  async function staleSsoSession(trx: Knex.Transaction, sessionId: string): Promise<string | null> {
    const sso = await repo.ssoOfSession(trx, sessionId);
    if (!sso?.sso_provider || !sso.sso_authenticated_at) return null;
    const policy = reauth(sso.sso_provider);
    if (!policy?.hours) return null;
    const age = Date.now() - new Date(sso.sso_authenticated_at).getTime();
    if (age < policy.hours * 3_600_000) return null;
    return `Sign in with ${policy.displayName} again: your organisation asks for it every ${policy.hours} hours`;
  }

  /** Ends the session of the refresh token (as logout) and says how it began, for the provider's end-session. */
  async function endSession(refreshToken: string, origin: RequestOrigin): Promise<SessionSso | null> {
    return knex.transaction(async (trx) => {
      const stored = await repo.findRefreshToken(trx, hashRefreshToken(refreshToken));
      if (!stored) return null;
      const ended = await repo.revokeSession(trx, stored.user_id, stored.family_id);
      await audit.record(
        trx,
        { userId: stored.user_id, origin },
        { action: 'logout', target: { type: 'session', id: stored.family_id } },
      );
      return ended ? ((await repo.ssoOfSession(trx, stored.family_id)) ?? null) : null;
    });
  }

  async function issue(trx: Knex | Knex.Transaction, userId: string, sessionId: string): Promise<TokenPair> {
    const refresh = newRefreshToken();
    await repo.insertRefreshToken(trx, {
      user_id: userId,
      token_hash: hashRefreshToken(refresh),
      family_id: sessionId,
      ttlSeconds: REFRESH_TOKEN_TTL_SECONDS,
    });
    return {
      access_token: await signAccessToken(jwtSecret, userId, Date.now(), sessionId),
      refresh_token: refresh,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      refresh_expires_in: REFRESH_TOKEN_TTL_SECONDS,
    };
  }

  return {
    /**
     * Failures are counted per account (its id, so username and email share a counter; the login as typed when no
     * account has it) and client: the address, or the device when the browser presents this account's device cookie.
     * A client is delayed by its failures over every account it tried, so the answers never tell which logins share
     * an account. A delayed client is refused before any password is checked; a client without failures still signs
     * in, and its password check goes before those of clients that failed. The answer never says whether the user
     * exists, nor, for an account that signs in with single sign-on only, whether the password was right.
     */
    async login(
      login: string,
      password: string,
      origin: RequestOrigin,
      device: Device | null = null,
      refused?: (attempt: RefusedSignIn) => void,
    ): Promise<SignInOutcome> {
      const subject = login.trim().toLowerCase();
      const user = subject ? await repo.findUserByLogin(subject) : undefined;
      const client = clientOf(origin, device, user?.id);
      // The login as typed is kept only when it names an account: a password typed into the login field never is.
      const attempt = (action: 'login.failed' | 'login.delayed') => {
        refused?.({ login: user ? subject : null, accountId: user?.id ?? null });
        return audit.record(
          knex,
          { userId: user?.id ?? null, origin },
          { action, target: { type: 'session', id: null }, after: user ? { login: subject } : undefined },
        );
      };

      if (user?.kind === 'service') {
        await attempt('login.failed');
        throw new UnauthorizedError(SERVICE_ACCOUNT_SIGN_IN, 'service-account-sign-in');
      }
      const accountKey = user?.id ?? subject;
      const standing = await repo.clientStanding(client);
      if (standing.delayedSeconds > 0) {
        await attempt('login.delayed');
        throw delayedError(standing.delayedSeconds);
      }

      // An unknown user costs one hash too, so timing does not tell whether the account exists.
      const knownDevice = client.startsWith('device:');
      const lane: HashLane =
        knownDevice && standing.failures === 0
          ? 'device'
          : knownDevice || standing.failures === 0
            ? 'sign-in'
            : 'other';
      const ok = await verify(password, user?.password_hash ?? (await dummyPasswordHash()), lane);
      // An account that signs in with its identity provider only fails like a wrong password, right password or not.
      if (!user || !ok || !user.is_active || user.sso_only) {
        const { delayedSeconds } = await repo.recordFailure(accountKey, client, FAILURE_POLICY);
        await attempt(delayedSeconds > 0 ? 'login.delayed' : 'login.failed');
        if (delayedSeconds > 0) throw delayedError(delayedSeconds);
        throw new UnauthorizedError(BAD_CREDENTIALS);
      }
      await repo.clearFailures(accountKey, client);
      // An account with a second factor gets the second step instead: no session until it is taken.
      const methods = await secondFactors.methodsOf(user.id);
      if (methods.length > 0) {
        const deviceId = device?.userId === user.id ? device.id : null;
        return {
          challenge: await startSecondStep(knex, user.id, methods, origin, { device_id: deviceId }),
          userId: user.id,
        };
      }
      const tokens = await knex.transaction(async (trx) => {
        const sessionId = await openSession(trx, user.id, origin);
        return issue(trx, user.id, sessionId);
      });
      return { tokens, userId: user.id };
    },

    /**
     * The second step with a code: the authenticator app's (a step already used is refused) or a recovery code
     * (spent). Failures count per account and client, as failed sign-ins do; no code is ever logged or recorded.
     */
    async verifySecondFactor(
      body: Schemas['SecondFactorVerify'],
      origin: RequestOrigin,
      device: Device | null,
    ): Promise<TokenPair> {
      const pending = await pendingSignIn(body.second_factor_token);
      const userId = pending.user_id;
      const client = clientOf(origin, device, userId);
      const failed = (delayed: boolean) =>
        audit.record(
          knex,
          { userId, origin },
          {
            action: 'secondFactor.failed',
            target: { type: 'session', id: null },
            after: { method: body.method, delayed },
          },
        );
      await assertNotDelayed(client, () => failed(true));
      if (!(await secondFactors.verifyCode(knex, userId, body.method, body.code)))
        return failSecondFactor(secondFactorKey(userId), client, () => failed(false));
      await repo.clearFailures(secondFactorKey(userId), client);
      return finishSignIn(pending, userId, origin, body.method);
    },

    /**
     * A WebAuthn challenge for signing in: with a pending second step, for that account's passkeys; without, for any
     * discoverable passkey. It never takes a login, so it tells nobody whether an account exists or has a passkey.
     */
    async passkeySignInOptions(
      secondFactorToken: string | undefined,
      consoleOrigin: string | null,
    ): Promise<Schemas['PasskeyChallenge']> {
      const userId = secondFactorToken ? (await pendingSignIn(secondFactorToken)).user_id : null;
      return secondFactors.passkeyChallenge(knex, {
        userId,
        sessionId: null,
        purpose: 'sign-in',
        origin: consoleOrigin,
      });
    },

    /**
     * Signs in with a passkey's answer: the second step of a password sign-in (only that account's passkey is
     * accepted), or alone. Failures count per account when it is known, and per client always.
     */
    async signInWithPasskey(
      body: Schemas['PasskeySignIn'],
      origin: RequestOrigin,
      device: Device | null,
      consoleOrigin: string | null,
    ): Promise<TokenPair> {
      const pending = body.second_factor_token ? await pendingSignIn(body.second_factor_token) : null;
      const expectedUserId = pending?.user_id ?? null;
      const client = clientOf(origin, device, expectedUserId ?? undefined);
      const accountKey = expectedUserId ? secondFactorKey(expectedUserId) : 'second-factor:passkey';
      const failed = (delayed: boolean) =>
        audit.record(
          knex,
          { userId: expectedUserId, origin },
          {
            action: 'secondFactor.failed',
            target: { type: 'session', id: null },
            after: { method: 'passkey', delayed },
          },
        );
      await assertNotDelayed(client, () => failed(true));
      const proved = await secondFactors.verifyPasskey(knex, {
        challengeId: body.challenge_id,
        response: body.response,
        purpose: 'sign-in',
        expectedUserId,
        sessionId: null,
        origin: consoleOrigin,
      });
      // Alone, a passkey signs in an active person whose password would (not a single-sign-on-only account).
      const user = proved && (await repo.findCredentials(proved.userId));
      if (!proved || !user || !user.is_active || user.kind === 'service' || (!pending && user.sso_only))
        return failSecondFactor(accountKey, client, () => failed(false));
      await repo.clearFailures(accountKey, client);
      return finishSignIn(pending, proved.userId, origin, 'passkey');
    },

    /** A WebAuthn challenge for the caller's own passkeys, to step up in this session. */
    async stepUpOptions(auth: AuthContext, consoleOrigin: string | null): Promise<Schemas['PasskeyChallenge']> {
      if (!(await secondFactors.methodsOf(auth.userId)).includes('passkey'))
        throw new ConflictError('You have no passkey: confirm with your authenticator app or a recovery code');
      return secondFactors.passkeyChallenge(knex, {
        userId: auth.userId,
        sessionId: auth.sessionId ?? null,
        purpose: 'step-up',
        origin: consoleOrigin,
      });
    },

    /**
     * Marks the caller's session as having used a second factor now, for the operations marked `x-step-up` in the
     * next 10 minutes. Failures count as the second step's do.
     */
    async stepUp(
      auth: AuthContext,
      body: Schemas['StepUpRequest'],
      consoleOrigin: string | null,
    ): Promise<Schemas['StepUp']> {
      if (!auth.sessionId) throw new UnauthorizedError();
      const client = clientOf(auth.origin, null, auth.userId);
      const failed = (delayed: boolean) =>
        audit.record(
          knex,
          { userId: auth.userId, origin: auth.origin },
          {
            action: 'stepUp.failed',
            target: { type: 'session', id: auth.sessionId! },
            after: { method: body.method, delayed },
          },
        );
      await assertNotDelayed(client, () => failed(true));
      // Nothing to confirm with is not a wrong code: it is said as such, and counts as no failure.
      // The caller's standing already holds its factors (kept fresh across replicas by the change feed).
      const methods = auth.secondFactors?.methods ?? (await secondFactors.methodsOf(auth.userId));
      if (!methods.includes(body.method)) throw new ConflictError(noStepUpFactor(body.method, methods));
      let ok: boolean;
      if (body.method === 'passkey') {
        if (!body.challenge_id || !body.response)
          throw new BadRequestError(
            'A passkey step-up sends challenge_id and response (POST /api-system/me/step-up/options)',
          );
        ok =
          (await secondFactors.verifyPasskey(knex, {
            challengeId: body.challenge_id,
            response: body.response,
            purpose: 'step-up',
            expectedUserId: auth.userId,
            sessionId: auth.sessionId,
            origin: consoleOrigin,
          })) !== null;
      } else {
        if (!body.code) throw new BadRequestError('Send the code from your authenticator app, or a recovery code');
        ok = await secondFactors.verifyCode(knex, auth.userId, body.method, body.code);
      }
      if (!ok) return failSecondFactor(secondFactorKey(auth.userId), client, () => failed(false));
      await repo.clearFailures(secondFactorKey(auth.userId), client);
      return knex.transaction(async (trx) => {
        const at = await repo.markSecondFactor(trx, auth.userId, auth.sessionId!);
        if (!at) throw new UnauthorizedError();
        await audit.record(
          trx,
          { userId: auth.userId, origin: auth.origin },
          { action: 'stepUp', target: { type: 'session', id: auth.sessionId! }, after: { method: body.method } },
        );
        const when = new Date(at);
        return {
          second_factor_at: when.toISOString(),
          expires_at: new Date(when.getTime() + STEP_UP_SECONDS * 1000).toISOString(),
        };
      });
    },

    /** The device cookies of sign-in: read from a request, set after a successful sign-in. */
    devices,

    /**
     * Opens the session of a finished single sign-on (in the caller's transaction), keeping the provider's ID token
     * for its end-session; no token is issued yet, so nothing is recorded until the console exchanges the code.
     */
    async openSsoSession(
      trx: Knex.Transaction,
      userId: string,
      origin: RequestOrigin,
      sso: { provider: string; idToken: string | null },
    ): Promise<string> {
      const sessionId = randomUUID();
      await repo.insertSession(trx, {
        id: sessionId,
        user_id: userId,
        ip: origin.ip,
        user_agent: origin.userAgent,
        ttlSeconds: REFRESH_TOKEN_TTL_SECONDS,
        sso,
      });
      return sessionId;
    },

    /**
     * Tokens for a session a single sign-on opened, while it and its account are live: the sign-in, recorded. When the
     * policy has single sign-ons take this product's second factor too, and the provider did not say it asked for one
     * (its `amr`), an account with a second factor gets the second step instead, which completes this session.
     */
    async issueForSsoSession(
      userId: string,
      sessionId: string,
      origin: RequestOrigin,
      sso: SsoSignIn,
    ): Promise<SignInOutcome> {
      return knex.transaction(async (trx) => {
        if (!(await repo.isSessionLive(trx, userId, sessionId)) || !(await repo.isUserActive(userId, trx)))
          throw new UnauthorizedError(BAD_SSO_CODE);
        const provedByProvider = (await repo.ssoOfSession(trx, sessionId))?.second_factor_at != null;
        if (!provedByProvider && (await secondFactors.asksSsoSignIns(trx))) {
          const methods = await secondFactors.methodsOf(userId, trx);
          if (methods.length > 0) {
            const second = {
              device_id: null,
              sso_session_id: sessionId,
              sso_provider: sso.provider,
              sso_subject: sso.subject,
            };
            return { challenge: await startSecondStep(trx, userId, methods, origin, second), userId };
          }
        }
        await recordSignIn(trx, userId, sessionId, origin, sso);
        return { tokens: await issue(trx, userId, sessionId), userId };
      });
    },

    endSession,

    /** Rotates within the session: the presented token is spent; presenting a spent token ends the whole session. */
    async refresh(refreshToken: string, origin: RequestOrigin): Promise<TokenPair> {
      const outcome = await knex.transaction(async (trx) => {
        const stored = await repo.findRefreshToken(trx, hashRefreshToken(refreshToken));
        if (!stored) return { error: true as const };
        if (stored.revoked_at !== null || !(await repo.revokeToken(trx, stored.id))) {
          await repo.revokeSession(trx, stored.user_id, stored.family_id);
          return { error: true as const };
        }
        if (stored.expired) return { error: true as const };
        if ((await repo.findCredentials(stored.user_id, trx))?.kind === 'service') {
          await repo.revokeSession(trx, stored.user_id, stored.family_id);
          return { error: true as const, detail: SERVICE_ACCOUNT_SIGN_IN };
        }
        if (!(await repo.isUserActive(stored.user_id, trx))) {
          await repo.revokeSession(trx, stored.user_id, stored.family_id);
          return { error: true as const };
        }
        const stale = await staleSsoSession(trx, stored.family_id);
        if (stale) {
          await repo.revokeSession(trx, stored.user_id, stored.family_id);
          return { error: true as const, detail: stale };
        }
        // A session lives at most MAX_SESSION_AGE_SECONDS from its sign-in, however often it is refreshed.
        if (!(await repo.touchSession(trx, stored.family_id, REFRESH_TOKEN_TTL_SECONDS, MAX_SESSION_AGE_SECONDS)))
          return { error: true as const };
        await audit.record(
          trx,
          { userId: stored.user_id, origin },
          { action: 'refreshToken', target: { type: 'session', id: stored.family_id } },
        );
        return { pair: await issue(trx, stored.user_id, stored.family_id) };
      });
      if ('error' in outcome) throw new UnauthorizedError(('detail' in outcome && outcome.detail) || BAD_REFRESH);
      return outcome.pair;
    },

    /** Ends the session the refresh token belongs to. Unknown tokens are ignored (idempotent). */
    async logout(refreshToken: string, origin: RequestOrigin): Promise<void> {
      await endSession(refreshToken, origin);
    },

    /**
     * The caller behind an access token, with the grants as they are now, or why it is refused. One query reads
     * the account and the token's session, so a deactivation or an ended session takes effect at the next request.
     */
    async caller(accessToken: string): Promise<AuthContext | { refused: CallerRefusal }> {
      const claims = await verifyAccessTokenClaims(jwtSecret, accessToken);
      if (!claims) return { refused: 'invalid-token' };
      const standing = await standings.standingOf(claims.userId, claims.sessionId);
      switch (standing.status) {
        case 'ok':
          return {
            userId: claims.userId,
            permissions: standing.permissions,
            sessionId: claims.sessionId,
            secondFactors: standing.secondFactors,
          };
        case 'deactivated':
          return { refused: 'account-deactivated' };
        case 'session-ended':
          return { refused: 'session-ended' };
        default:
          return { refused: 'invalid-token' };
      }
    },

    async platformPermissions(auth: AuthContext): Promise<Schemas['PlatformPermissions']> {
      // An API token's caller holds what the token holds now (already narrowed), not all its account holds.
      const [profile, perms] = await Promise.all([
        repo.findUserProfile(auth.userId),
        auth.tokenId ? auth.permissions : repo.permissionsOf(auth.userId),
      ]);
      if (!profile || !perms) throw new UnauthorizedError();
      return {
        user: { id: profile.id, username: profile.username, email: profile.email, display_name: displayName(profile) },
        ...perms,
      };
    },

    /**
     * Needs the current password; the new one follows the rules and differs. Every other session of the caller ends.
     * A wrong current password counts as a failed sign-in of this account from this client (and is audited), so a
     * stolen access token cannot be used to guess the password; the rules of the new one are checked first, so a
     * request that could never succeed costs no password hash.
     */
    async changePassword(auth: AuthContext, body: Schemas['PasswordChange']): Promise<void> {
      const user = await repo.findCredentials(auth.userId);
      if (!user) throw new UnauthorizedError();
      const client = clientOf(auth.origin, null, user.id);
      const failed = (outcome: 'wrong-current-password' | 'delayed') =>
        audit.record(
          knex,
          { userId: auth.userId, origin: auth.origin },
          { action: 'changeMyPassword', target: { type: 'user', id: auth.userId }, after: { outcome } },
        );

      const standing = await repo.clientStanding(client);
      if (standing.delayedSeconds > 0) {
        await failed('delayed');
        throw delayedError(standing.delayedSeconds);
      }
      const problem = passwordProblem(body.new_password, user);
      if (problem) throw new BadRequestError(problem);
      if (body.new_password === body.current_password)
        throw new BadRequestError('The new password must differ from the current one.');
      if (!(await verify(body.current_password, user.password_hash, 'other'))) {
        const { delayedSeconds } = await repo.recordFailure(user.id, client, FAILURE_POLICY);
        await failed(delayedSeconds > 0 ? 'delayed' : 'wrong-current-password');
        if (delayedSeconds > 0) throw delayedError(delayedSeconds);
        throw new BadRequestError('The current password is wrong.');
      }
      await repo.clearFailures(user.id, client);
      const hash = await passwordHashGate().run(() => hashPassword(body.new_password), 'other');
      await knex.transaction(async (trx) => {
        await repo.setPassword(trx, auth.userId, hash);
        await repo.revokeSessionsExcept(trx, auth.userId, auth.sessionId ?? null);
        // What changed is said by the action; no password or hash is ever recorded.
        await audit.record(
          trx,
          { userId: auth.userId, origin: auth.origin },
          { action: 'changeMyPassword', target: { type: 'user', id: auth.userId } },
        );
      });
    },

    async listSessions(auth: AuthContext): Promise<Schemas['SessionList']> {
      const rows = await repo.listSessions(auth.userId);
      return {
        data: rows.map((r) => ({
          id: r.id,
          created_at: new Date(r.created_at).toISOString(),
          last_used_at: new Date(r.last_used_at).toISOString(),
          // The contract's address shape; an address with a zone id (fe80::1%eth0) is shown without one.
          ip: r.ip === null ? null : r.ip.replace(/%.*$/, '').slice(0, 45) || null,
          user_agent: r.user_agent === null ? null : r.user_agent.slice(0, 500),
          current: r.id === auth.sessionId,
          methods: sessionMethods(r.methods),
          sso_provider: r.sso_provider,
          second_factor_at: r.second_factor_at === null ? null : new Date(r.second_factor_at).toISOString(),
        })),
      };
    },

    /** Another user's session, or one that has ended, is not there (404). */
    async revokeSession(auth: AuthContext, sessionId: string): Promise<void> {
      await knex.transaction(async (trx) => {
        if (!(await repo.revokeSession(trx, auth.userId, sessionId)))
          throw new NotFoundError('No such session: it belongs to another account or has already ended.');
        await audit.record(
          trx,
          { userId: auth.userId, origin: auth.origin },
          { action: 'revokeMySession', target: { type: 'session', id: sessionId } },
        );
      });
    },

    async revokeOtherSessions(auth: AuthContext): Promise<Schemas['RevokedSessions']> {
      return knex.transaction(async (trx) => {
        const revoked = await repo.revokeSessionsExcept(trx, auth.userId, auth.sessionId ?? null);
        await audit.record(
          trx,
          { userId: auth.userId, origin: auth.origin },
          { action: 'revokeMyOtherSessions', target: { type: 'user', id: auth.userId }, after: { revoked } },
        );
        return { revoked };
      });
    },
  };
}

export type AuthService = ReturnType<typeof authService>;
