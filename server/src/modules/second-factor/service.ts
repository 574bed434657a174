import type { Knex } from 'knex';
import QRCode from 'qrcode';
import type { Schemas } from '../../core/contract.js';
import { assertMayActOn } from '../../core/delegation.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.js';
import type { AuthContext } from '../../core/permissions.js';
import { enrolmentReason, type SecondFactorMethod, type SecondFactorRequirement } from '../../core/second-factor.js';
import type { AuditTrail } from '../audit/service.js';
import { secondFactorRepository, type FactorOwner, type StoredPolicy } from './repository.js';
import { secondFactorSecrets, totpStepOf, totpUri } from './secrets.js';
import { passkeys as passkeyCeremonies, type RelyingPartyConfig } from './passkeys.js';

type SecondFactors = Schemas['SecondFactors'];
type Db = Knex | Knex.Transaction;

const REMOVE_CURRENT_FIRST = 'Remove the current authenticator first';
const LAST_FACTOR_TOTP = 'Your organisation requires a second factor: add a passkey before removing this';
const LAST_FACTOR_PASSKEY =
  'Your organisation requires a second factor: add an authenticator app or another passkey before removing this';
const SERVICE_ACCOUNT =
  'This is a service account: it has no second factors (it calls with API tokens; see its tokens under Service accounts).';

export interface SecondFactorDeps {
  knex: Knex;
  /** The server secret (JWT_SECRET) the factors' keys are derived from. */
  serverSecret: string;
  audit: AuditTrail;
  /** SECOND_FACTOR_REQUIRED. */
  configured: SecondFactorRequirement;
  relyingParty: RelyingPartyConfig;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/**
 * The second factors of an account: enrolling and removing them, checking a code or a passkey's answer, recovery
 * codes, and the policy of who must have one. Opening sessions and counting failures are sign-in's (the auth module),
 * which asks this service whether a factor is right.
 */
export function secondFactorService({ knex, serverSecret, audit, configured, relyingParty }: SecondFactorDeps) {
  const repo = secondFactorRepository({ knex });
  const secrets = secondFactorSecrets(serverSecret);
  const ceremonies = passkeyCeremonies({ repo, relyingParty });

  async function policy(db: Db = knex): Promise<Schemas['SecondFactorPolicy']> {
    const stored = await repo.storedPolicy(db);
    return {
      required_for: stored?.required_for ?? configured,
      sso_sign_ins: stored?.sso_sign_ins ?? 'trusted',
      source: stored ? 'console' : 'configuration',
      configured,
    };
  }

  async function hasFactor(db: Db, userId: string): Promise<boolean> {
    const totp = await repo.totp(db, userId);
    return !!totp?.confirmed_at || (await repo.passkeys(db, userId)).length > 0;
  }

  async function summary(db: Db, owner: FactorOwner): Promise<SecondFactors> {
    const [totp, keys, codes, current] = await Promise.all([
      repo.totp(db, owner.id),
      repo.passkeys(db, owner.id),
      repo.recoveryCodes(db, owner.id),
      policy(db),
    ]);
    const confirmed = totp?.confirmed_at ? totp : null;
    const reason = enrolmentReason({
      requiredFor: current.required_for,
      isSuperAdmin: owner.is_super_admin,
      platformKeys: owner.platform_keys,
      resetByAdmin: owner.must_enrol_second_factor,
      hasFactor: !!confirmed || keys.length > 0,
    });
    return {
      required: reason !== null,
      required_reason: reason,
      totp: confirmed && { confirmed_at: iso(confirmed.confirmed_at)!, last_used_at: iso(confirmed.last_used_at) },
      passkeys: keys.map((k) => ({
        id: k.id,
        name: k.name,
        created_at: iso(k.created_at)!,
        last_used_at: iso(k.last_used_at),
      })),
      recovery_codes: codes && { remaining: codes.remaining, generated_at: iso(codes.generated_at)! },
    };
  }

  async function ownerOf(db: Db, userId: string): Promise<FactorOwner> {
    const owner = await repo.owner(db, userId);
    if (!owner) throw new NotFoundError('User not found');
    return owner;
  }

  /** Whether removing one factor would leave an account that must have one with none. */
  async function mustKeepOne(db: Db, owner: FactorOwner, remainingFactors: number): Promise<boolean> {
    if (remainingFactors > 0) return false;
    const current = await policy(db);
    return (
      enrolmentReason({
        requiredFor: current.required_for,
        isSuperAdmin: owner.is_super_admin,
        platformKeys: owner.platform_keys,
        resetByAdmin: owner.must_enrol_second_factor,
        hasFactor: false,
      }) !== null
    );
  }

  /**
   * After a first factor: ten recovery codes when the account has none, and the administrator's reset is over.
   * Returns the codes to show once, or null.
   */
  async function afterFactorAdded(trx: Knex.Transaction, owner: FactorOwner): Promise<string[] | null> {
    await repo.setMustEnrol(trx, owner.id, false);
    if (await repo.recoveryCodes(trx, owner.id)) return null;
    const codes = secrets.newRecoveryCodes();
    await repo.replaceRecoveryCodes(
      trx,
      owner.id,
      codes.map((c) => secrets.recoveryCodeHash(c)!),
    );
    return codes;
  }

  /** Removing the last factor voids the recovery codes too: they stood in for it. */
  async function afterFactorRemoved(trx: Knex.Transaction, userId: string): Promise<void> {
    if (!(await hasFactor(trx, userId))) await repo.deleteRecoveryCodes(trx, userId);
  }

  const caller = (auth: AuthContext) => ({ userId: auth.userId, origin: auth.origin });

  return {
    policy,

    /** Whether a single sign-on takes this product's second factor too, of an account that has one. */
    async asksSsoSignIns(db: Db = knex): Promise<boolean> {
      return (await policy(db)).sso_sign_ins === 'second-factor';
    },

    /** The factors a sign-in's second step (or a step-up) may use; empty when the account has none. */
    async methodsOf(userId: string, db: Db = knex): Promise<SecondFactorMethod[]> {
      const [totp, keys, codes] = await Promise.all([
        repo.totp(db, userId),
        repo.passkeys(db, userId),
        repo.recoveryCodes(db, userId),
      ]);
      const methods: SecondFactorMethod[] = [];
      if (totp?.confirmed_at) methods.push('totp');
      const any = methods.length > 0 || keys.length > 0;
      if (any && codes && codes.remaining > 0) methods.push('recovery_code');
      if (keys.length > 0) methods.push('passkey');
      return methods;
    },

    /**
     * Whether the code proves the account: a TOTP code of the current step (one step of drift either way) that no
     * earlier request used, or an unused recovery code, which is spent. Both are spent atomically, so of two requests
     * with one code only one succeeds.
     */
    async verifyCode(db: Db, userId: string, method: 'totp' | 'recovery_code', code: string): Promise<boolean> {
      if (method === 'recovery_code') {
        const hash = secrets.recoveryCodeHash(code);
        return hash !== null && (await hasFactor(db, userId)) && (await repo.useRecoveryCode(db, userId, hash));
      }
      const totp = await repo.totp(db, userId);
      if (!totp?.confirmed_at) return false;
      const step = totpStepOf(secrets.decryptTotpSecret(totp.secret_encrypted), code.replace(/\s/g, ''));
      return step !== null && (await repo.useTotpStep(db, userId, step));
    },

    /** WebAuthn options for signing in (an account's passkeys, or any discoverable one) or stepping up. */
    passkeyChallenge: (...args: Parameters<typeof ceremonies.authenticationChallenge>) =>
      ceremonies.authenticationChallenge(...args),

    /** The account whose passkey answered the challenge, or null (unknown, another account's, or not verified). */
    verifyPasskey: (...args: Parameters<typeof ceremonies.verifyAuthentication>) =>
      ceremonies.verifyAuthentication(...args),

    async mine(auth: AuthContext): Promise<SecondFactors> {
      return summary(knex, await ownerOf(knex, auth.userId));
    },

    async startTotp(auth: AuthContext): Promise<Schemas['TotpEnrolment']> {
      const owner = await ownerOf(knex, auth.userId);
      const secret = secrets.newTotpSecret();
      if (!(await repo.savePendingTotp(knex, owner.id, secrets.encryptTotpSecret(secret))))
        throw new ConflictError(REMOVE_CURRENT_FIRST);
      const uri = totpUri(secret, owner.username);
      return { secret, otpauth_uri: uri, qr_svg: await QRCode.toString(uri, { type: 'svg', margin: 2 }) };
    },

    async confirmTotp(auth: AuthContext, code: string): Promise<Schemas['SecondFactorEnrolled']> {
      return knex.transaction(async (trx) => {
        const owner = await ownerOf(trx, auth.userId);
        const totp = await repo.totp(trx, owner.id);
        if (!totp || totp.confirmed_at)
          throw new NotFoundError(
            'Start setting up an authenticator app first: POST /api-system/me/second-factors/totp',
          );
        const step = totpStepOf(secrets.decryptTotpSecret(totp.secret_encrypted), code);
        if (step === null)
          throw new BadRequestError(
            "The code does not match: enter the app's current code (check that the phone's clock is right), or scan the QR code again",
          );
        if (!(await repo.confirmTotp(trx, owner.id, step))) throw new ConflictError(REMOVE_CURRENT_FIRST);
        const codes = await afterFactorAdded(trx, owner);
        await audit.record(trx, caller(auth), {
          action: 'confirmTotpEnrolment',
          target: { type: 'user', id: owner.id },
          after: { factor: 'totp', recovery_codes_issued: codes !== null },
        });
        return { factors: await summary(trx, { ...owner, must_enrol_second_factor: false }), recovery_codes: codes };
      });
    },

    async removeTotp(auth: AuthContext): Promise<void> {
      await knex.transaction(async (trx) => {
        const owner = await ownerOf(trx, auth.userId);
        const totp = await repo.totp(trx, owner.id);
        if (!totp?.confirmed_at) {
          // An unconfirmed secret is no factor: removing it needs no rule.
          if (!totp || !(await repo.deleteTotp(trx, owner.id)))
            throw new NotFoundError('No authenticator app is set up');
        } else {
          const others = (await repo.passkeys(trx, owner.id)).length;
          if (await mustKeepOne(trx, owner, others)) throw new ConflictError(LAST_FACTOR_TOTP);
          await repo.deleteTotp(trx, owner.id);
          await afterFactorRemoved(trx, owner.id);
        }
        await audit.record(trx, caller(auth), {
          action: 'removeTotp',
          target: { type: 'user', id: owner.id },
          before: { factor: 'totp' },
        });
      });
    },

    async regenerateRecoveryCodes(auth: AuthContext): Promise<Schemas['RecoveryCodes']> {
      return knex.transaction(async (trx) => {
        if (!(await hasFactor(trx, auth.userId)))
          throw new ConflictError('Set up an authenticator app or a passkey first: recovery codes stand in for one');
        const codes = secrets.newRecoveryCodes();
        await repo.replaceRecoveryCodes(
          trx,
          auth.userId,
          codes.map((c) => secrets.recoveryCodeHash(c)!),
        );
        await audit.record(trx, caller(auth), {
          action: 'regenerateRecoveryCodes',
          target: { type: 'user', id: auth.userId },
        });
        return { recovery_codes: codes };
      });
    },

    async registrationOptions(auth: AuthContext, origin: string | null): Promise<Schemas['PasskeyChallenge']> {
      const owner = await ownerOf(knex, auth.userId);
      return ceremonies.registrationChallenge(knex, owner, origin);
    },

    async registerPasskey(
      auth: AuthContext,
      body: Schemas['PasskeyRegistration'],
      origin: string | null,
    ): Promise<Schemas['SecondFactorEnrolled']> {
      return knex.transaction(async (trx) => {
        const owner = await ownerOf(trx, auth.userId);
        const id = await ceremonies.register(trx, owner, body, origin);
        const first =
          !(await repo.totp(trx, owner.id))?.confirmed_at && (await repo.passkeys(trx, owner.id)).length === 1;
        const codes = first
          ? await afterFactorAdded(trx, owner)
          : (await repo.setMustEnrol(trx, owner.id, false), null);
        await audit.record(trx, caller(auth), {
          action: 'registerPasskey',
          target: { type: 'user', id: owner.id },
          after: { factor: 'passkey', passkey_id: id, name: body.name, recovery_codes_issued: codes !== null },
        });
        return { factors: await summary(trx, { ...owner, must_enrol_second_factor: false }), recovery_codes: codes };
      });
    },

    async removePasskey(auth: AuthContext, passkeyId: string): Promise<void> {
      await knex.transaction(async (trx) => {
        const owner = await ownerOf(trx, auth.userId);
        const keys = await repo.passkeys(trx, owner.id);
        const key = keys.find((k) => k.id === passkeyId);
        if (!key) throw new NotFoundError('No such passkey on your account');
        const totp = await repo.totp(trx, owner.id);
        const others = keys.length - 1 + (totp?.confirmed_at ? 1 : 0);
        if (await mustKeepOne(trx, owner, others)) throw new ConflictError(LAST_FACTOR_PASSKEY);
        await repo.deletePasskey(trx, owner.id, passkeyId);
        await afterFactorRemoved(trx, owner.id);
        await audit.record(trx, caller(auth), {
          action: 'removePasskey',
          target: { type: 'user', id: owner.id },
          before: { factor: 'passkey', passkey_id: key.id, name: key.name },
        });
      });
    },

    async ofUser(auth: AuthContext, userId: string): Promise<SecondFactors> {
      const owner = await ownerOf(knex, userId);
      if (owner.kind === 'service') throw new NotFoundError(SERVICE_ACCOUNT);
      if (userId !== auth.userId) {
        const standing = await repo.targetStanding(knex, userId);
        if (!standing) throw new NotFoundError('User not found');
        assertMayActOn(auth, standing, 'see the second factors of');
      }
      return summary(knex, owner);
    },

    /**
     * For a lost device: every factor and recovery code of the account goes, every session of it ends, and it must
     * set up a new factor at its next sign-in.
     */
    async reset(auth: AuthContext, userId: string): Promise<void> {
      await knex.transaction(async (trx) => {
        const standing = await repo.targetStanding(trx, userId);
        const owner = standing && (await ownerOf(trx, userId));
        if (!standing || !owner) throw new NotFoundError('User not found');
        if (owner.kind === 'service') throw new NotFoundError(SERVICE_ACCOUNT);
        if (userId !== auth.userId) assertMayActOn(auth, standing, 'reset the second factors of');
        const before = await summary(trx, owner);
        await repo.deleteTotp(trx, userId);
        await repo.deletePasskeys(trx, userId);
        await repo.deleteRecoveryCodes(trx, userId);
        await repo.setMustEnrol(trx, userId, true);
        const ended = await repo.endSessions(trx, userId);
        await audit.record(trx, caller(auth), {
          action: 'resetSecondFactors',
          target: { type: 'user', id: userId },
          before: { totp: before.totp !== null, passkeys: before.passkeys.length },
          after: { must_enrol_second_factor: true, sessions_ended: ended },
        });
      });
    },

    async updatePolicy(
      auth: AuthContext,
      body: Schemas['SecondFactorPolicyUpdate'],
    ): Promise<Schemas['SecondFactorPolicy']> {
      if (!auth.permissions.is_super_admin)
        throw new ForbiddenError('Only a super admin may change who must have a second factor');
      return knex.transaction(async (trx) => {
        const before = await policy(trx);
        const next: StoredPolicy = { required_for: body.required_for, sso_sign_ins: body.sso_sign_ins };
        await repo.savePolicy(trx, next, auth.userId);
        await audit.record(trx, caller(auth), {
          action: 'updateSecondFactorPolicy',
          // No record of its own to name: the event is found by its action, with the policy before and after.
          target: { type: 'user', id: null },
          before: { required_for: before.required_for, sso_sign_ins: before.sso_sign_ins },
          after: { ...next },
        });
        return policy(trx);
      });
    },
  };
}

export type SecondFactorService = ReturnType<typeof secondFactorService>;
