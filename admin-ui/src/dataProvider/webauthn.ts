/**
 * The browser's side of a passkey, through @simplewebauthn/browser. The library loads on the first passkey ceremony,
 * so it stays out of the console's first download (whose budget is tested).
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

export type { AuthenticationResponseJSON, RegistrationResponseJSON };

/** Asks the authenticator to sign the server's challenge (sign-in or step-up). */
export async function passkeyAssertion(options: unknown): Promise<AuthenticationResponseJSON> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return startAuthentication({ optionsJSON: requestOptions(options) });
}

/** Asks the authenticator to create a passkey for the server's options. */
export async function passkeyAttestation(options: unknown): Promise<RegistrationResponseJSON> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  return startRegistration({ optionsJSON: creationOptions(options) });
}

// The contract describes the options as an open object: the library's own types say what is in it, and the server
// builds them with @simplewebauthn/server of the same major version. The guards check what the browser needs.
function requestOptions(options: unknown): PublicKeyCredentialRequestOptionsJSON {
  if (!isRequestOptions(options)) throw new TypeError('No passkey challenge');
  return options;
}

function creationOptions(options: unknown): PublicKeyCredentialCreationOptionsJSON {
  if (!isCreationOptions(options)) throw new TypeError('No passkey challenge');
  return options;
}

const isRequestOptions = (v: unknown): v is PublicKeyCredentialRequestOptionsJSON =>
  isObject(v) && typeof v.challenge === 'string';

const isCreationOptions = (v: unknown): v is PublicKeyCredentialCreationOptionsJSON =>
  isObject(v) && typeof v.challenge === 'string' && isObject(v.user) && isObject(v.rp);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The user closed the browser's passkey prompt, or it timed out: not a failure to report as such. */
export const isPasskeyCancelled = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
