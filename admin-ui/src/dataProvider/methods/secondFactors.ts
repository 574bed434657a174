import type { Identifier } from 'react-admin';
import type { Schemas } from '../../types';
import type { ApiClient } from '../api';
import { unwrap } from '../outcome';
import { WRITABLE, pickWritable } from '../writable';
import { passkeyAssertion, passkeyAttestation, type RegistrationResponseJSON } from '../webauthn';
import type { StepUpMethod } from '../stepUp';

export type SecondFactors = Schemas['SecondFactors'];
export type Passkey = Schemas['Passkey'];
export type TotpEnrolment = Schemas['TotpEnrolment'];
export type SecondFactorEnrolled = Schemas['SecondFactorEnrolled'];
export type StepUpResult = Schemas['StepUp'];
export type SecondFactorPolicy = Schemas['SecondFactorPolicy'];
export type SecondFactorPolicyUpdate = Pick<SecondFactorPolicy, 'required_for' | 'sso_sign_ins'>;

type PasskeyRegistrationResponse = Schemas['PasskeyRegistrationResponse'];
type PasskeyRegistration = Schemas['PasskeyRegistration'];
type StepUpRequest = Schemas['StepUpRequest'];
type Transport = NonNullable<PasskeyRegistrationResponse['response']['transports']>[number];
const TRANSPORTS: readonly Transport[] = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'];
const isTransport = (t: string): t is Transport => (TRANSPORTS as readonly string[]).includes(t);

/** The browser's answer as the contract takes it: the transports it names, of those WebAuthn defines. */
function forContract(answer: RegistrationResponseJSON): PasskeyRegistrationResponse {
  const { transports, ...response } = answer.response;
  return { ...answer, response: transports ? { ...response, transports: transports.filter(isTransport) } : response };
}

/** How the user confirms it is them at a step-up: a code, or the passkey ceremony (run here). */
export type StepUpProof = { method: Exclude<StepUpMethod, 'passkey'>; code: string } | { method: 'passkey' };

/** The caller's own second factors, the step-up, and the organisation's policy. */
export function secondFactorMethods(c: ApiClient) {
  return {
    async getMySecondFactors(): Promise<SecondFactors> {
      return unwrap(await c.GET('/api-system/me/second-factors'));
    },
    /** A new secret (replacing one not yet confirmed), with its QR code; confirmed by a first code. */
    async startTotpEnrolment(): Promise<TotpEnrolment> {
      return unwrap(await c.POST('/api-system/me/second-factors/totp'));
    },
    async confirmTotpEnrolment(code: string): Promise<SecondFactorEnrolled> {
      return unwrap(
        await c.POST('/api-system/me/second-factors/totp/confirm', {
          body: pickWritable({ code }, WRITABLE.TotpConfirm),
        }),
      );
    },
    async removeTotp(): Promise<void> {
      unwrap(await c.DELETE('/api-system/me/second-factors/totp'));
    },
    async regenerateRecoveryCodes(): Promise<string[]> {
      return unwrap(await c.POST('/api-system/me/second-factors/recovery-codes')).recovery_codes;
    },
    /** Creates a passkey on this device's authenticator and registers it under `name`. */
    async registerPasskey(name: string): Promise<SecondFactorEnrolled> {
      const started = unwrap(await c.POST('/api-system/me/second-factors/passkeys/options'));
      const response = forContract(await passkeyAttestation(started.options));
      return unwrap(
        await c.POST('/api-system/me/second-factors/passkeys', {
          body: pickWritable<PasskeyRegistration, keyof PasskeyRegistration>(
            { challenge_id: started.challenge_id, name, response },
            WRITABLE.PasskeyRegistration,
          ),
        }),
      );
    },
    async removePasskey(id: Identifier): Promise<void> {
      unwrap(
        await c.DELETE('/api-system/me/second-factors/passkeys/{passkeyId}', {
          params: { path: { passkeyId: String(id) } },
        }),
      );
    },
    /** Marks this session as confirmed with a second factor just now. */
    async stepUp(proof: StepUpProof): Promise<StepUpResult> {
      if (proof.method !== 'passkey')
        return unwrap(
          await c.POST('/api-system/me/step-up', {
            body: pickWritable<StepUpRequest, keyof StepUpRequest>(proof, WRITABLE.StepUpRequest),
          }),
        );
      const started = unwrap(await c.POST('/api-system/me/step-up/options'));
      const response = await passkeyAssertion(started.options);
      return unwrap(
        await c.POST('/api-system/me/step-up', {
          body: pickWritable<StepUpRequest, keyof StepUpRequest>(
            { method: 'passkey', challenge_id: started.challenge_id, response },
            WRITABLE.StepUpRequest,
          ),
        }),
      );
    },
    async getSecondFactorPolicy(): Promise<SecondFactorPolicy> {
      return unwrap(await c.GET('/api-system/second-factor-policy'));
    },
    async updateSecondFactorPolicy(body: SecondFactorPolicyUpdate): Promise<SecondFactorPolicy> {
      return unwrap(
        await c.PUT('/api-system/second-factor-policy', {
          body: pickWritable(body, WRITABLE.SecondFactorPolicyUpdate),
        }),
      );
    },
  };
}
