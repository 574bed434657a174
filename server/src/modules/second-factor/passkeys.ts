import type { Knex } from 'knex';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Schemas } from '../../core/contract.js';
import { displayName } from '../../core/display-name.js';
import { BadRequestError, ConflictError } from '../../core/errors.js';
import type { FactorOwner, SecondFactorRepository } from './repository.js';

/** How long a WebAuthn challenge can be answered. */
export const CHALLENGE_SECONDS = 300;
const RP_NAME = 'Platform Admin';

/**
 * Where passkeys are bound: WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS when set, else PUBLIC_BASE_URL's host and origin, else
 * the console's own origin (the request's `Origin` when it names the request's host: the console is same-origin).
 */
export interface RelyingPartyConfig {
  rpId: string | null;
  origins: string[];
  publicBaseUrl: string | null;
}

/** The relying party of one request; null when nothing says which it is (no configuration and a foreign origin). */
function relyingPartyOf(
  config: RelyingPartyConfig,
  requestOrigin: string | null,
): { rpId: string; origins: string[] } | null {
  const base = config.publicBaseUrl ? new URL(config.publicBaseUrl) : null;
  const own = requestOrigin ? new URL(requestOrigin) : null;
  const rpId = config.rpId ?? base?.hostname ?? own?.hostname ?? null;
  const origins = config.origins.length > 0 ? config.origins : base ? [base.origin] : own ? [own.origin] : [];
  return rpId && origins.length > 0 ? { rpId, origins } : null;
}

const NO_RELYING_PARTY =
  'Passkeys need the console’s address: open the console from its own address, or set PUBLIC_BASE_URL (or WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS)';
const NOT_VERIFIED =
  'The passkey could not be added: the authenticator’s answer did not verify, or the request expired. Try again.';

type Purpose = 'sign-in' | 'step-up';

/** The options as the wire carries them: the library leaves unset members as `undefined`, which JSON drops. */
function asJson<T>(options: object): T {
  return JSON.parse(JSON.stringify(options)) as T;
}

export function passkeys({ repo, relyingParty }: { repo: SecondFactorRepository; relyingParty: RelyingPartyConfig }) {
  const rpOf = (origin: string | null) => {
    const rp = relyingPartyOf(relyingParty, origin);
    if (!rp) throw new BadRequestError(NO_RELYING_PARTY);
    return rp;
  };

  return {
    /** Options for `navigator.credentials.get`: the account's passkeys, or (no account) any discoverable one. */
    async authenticationChallenge(
      db: Knex | Knex.Transaction,
      at: { userId: string | null; sessionId: string | null; purpose: Purpose; origin: string | null },
    ): Promise<Schemas['PasskeyChallenge']> {
      const rp = rpOf(at.origin);
      const keys = at.userId ? await repo.passkeys(db, at.userId) : [];
      const options = await generateAuthenticationOptions({
        rpID: rp.rpId,
        allowCredentials: keys.map((k) => ({ id: k.credential_id, transports: k.transports ?? undefined })),
        userVerification: 'preferred',
        timeout: CHALLENGE_SECONDS * 1000,
      });
      const challengeId = await repo.insertChallenge(
        db,
        { user_id: at.userId, session_id: at.sessionId, challenge: options.challenge, purpose: at.purpose },
        CHALLENGE_SECONDS,
      );
      return { challenge_id: challengeId, options: asJson<Schemas['PasskeyRequestOptions']>(options) };
    },

    /**
     * The account whose passkey answered, once per challenge: null when the challenge is unknown, used, expired or
     * of another purpose, session or account; when the credential is unknown or another account's than the one
     * expected; or when the signature, origin or relying party does not verify.
     */
    async verifyAuthentication(
      db: Knex | Knex.Transaction,
      at: {
        challengeId: string;
        response: Schemas['PasskeyAuthenticationResponse'];
        purpose: Purpose;
        /** The account the passkey must be of (a password sign-in's, a step-up's); null: any (passwordless). */
        expectedUserId: string | null;
        sessionId: string | null;
        origin: string | null;
      },
    ): Promise<{ userId: string; passkeyId: string } | null> {
      const challenge = await repo.takeChallenge(db, at.challengeId, at.purpose);
      if (!challenge) return null;
      if (challenge.user_id !== at.expectedUserId || challenge.session_id !== at.sessionId) return null;
      const key = await repo.passkeyByCredential(db, at.response.id);
      if (!key || (at.expectedUserId !== null && key.user_id !== at.expectedUserId)) return null;
      // A discoverable passkey names its account (the user handle registered with it): it must be this one's.
      const handle = at.response.response.userHandle;
      if (handle !== undefined && handle !== Buffer.from(key.user_id, 'utf8').toString('base64url')) return null;
      const rp = relyingPartyOf(relyingParty, at.origin);
      if (!rp) return null;
      try {
        const { verified, authenticationInfo } = await verifyAuthenticationResponse({
          response: at.response,
          expectedChallenge: challenge.challenge,
          expectedOrigin: rp.origins,
          expectedRPID: rp.rpId,
          credential: {
            id: key.credential_id,
            publicKey: Buffer.from(key.public_key, 'base64url'),
            counter: Number(key.counter),
            transports: key.transports ?? undefined,
          },
          requireUserVerification: false,
        });
        if (!verified) return null;
        await repo.touchPasskey(db, key.id, authenticationInfo.newCounter);
        return { userId: key.user_id, passkeyId: key.id };
      } catch {
        // A malformed answer, a counter that went back (a cloned authenticator): not this account's proof.
        return null;
      }
    },

    /**
     * Options for `navigator.credentials.create`: a discoverable passkey where the authenticator can make one (so it
     * can sign in without a password), never one of the account's authenticators again.
     */
    async registrationChallenge(
      db: Knex | Knex.Transaction,
      owner: FactorOwner,
      origin: string | null,
    ): Promise<Schemas['PasskeyChallenge']> {
      const rp = rpOf(origin);
      const keys = await repo.passkeys(db, owner.id);
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: rp.rpId,
        userName: owner.username,
        userDisplayName: displayName(owner),
        // The user handle a discoverable passkey gives back at a passwordless sign-in: the account's id.
        userID: new Uint8Array(Buffer.from(owner.id, 'utf8')),
        timeout: CHALLENGE_SECONDS * 1000,
        attestationType: 'none',
        excludeCredentials: keys.map((k) => ({ id: k.credential_id, transports: k.transports ?? undefined })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      });
      const challengeId = await repo.insertChallenge(
        db,
        { user_id: owner.id, session_id: null, challenge: options.challenge, purpose: 'register' },
        CHALLENGE_SECONDS,
      );
      return { challenge_id: challengeId, options: asJson<Schemas['PasskeyCreationOptions']>(options) };
    },

    async register(
      trx: Knex.Transaction,
      owner: FactorOwner,
      body: Schemas['PasskeyRegistration'],
      origin: string | null,
    ): Promise<string> {
      const challenge = await repo.takeChallenge(trx, body.challenge_id, 'register');
      if (!challenge || challenge.user_id !== owner.id) throw new BadRequestError(NOT_VERIFIED);
      const rp = rpOf(origin);
      let info;
      try {
        const result = await verifyRegistrationResponse({
          response: body.response,
          expectedChallenge: challenge.challenge,
          expectedOrigin: rp.origins,
          expectedRPID: rp.rpId,
          requireUserVerification: false,
        });
        if (!result.verified) throw new BadRequestError(NOT_VERIFIED);
        info = result.registrationInfo;
      } catch (err) {
        if (err instanceof BadRequestError) throw err;
        throw new BadRequestError(NOT_VERIFIED);
      }
      const id = await repo.insertPasskey(trx, {
        user_id: owner.id,
        credential_id: info.credential.id,
        public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: info.credential.transports ?? body.response.response.transports ?? null,
        device_type: info.credentialDeviceType,
        backed_up: info.credentialBackedUp,
        name: body.name.trim(),
      });
      if (!id) throw new ConflictError('This passkey is registered already');
      return id;
    },
  };
}
