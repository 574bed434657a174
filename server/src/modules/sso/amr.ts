import type * as oidc from 'openid-client';

/** What a session keeps of the provider's `amr`: at most this many values, each at most this long. */
export const MAX_AMR_VALUES = 10;
export const MAX_AMR_LENGTH = 32;

/**
 * The RFC 8176 values that say the provider itself asked for more than a password: multiple factors, a one-time
 * code, a hardware or software key, FIDO. A single sign-on that reports one counts as a second factor at sign-in.
 */
const SECOND_FACTOR_AMR = new Set(['mfa', 'otp', 'hwk', 'swk', 'fido']);

/**
 * The ID token's `amr` claim as a session records it: the string values that fit, the first ten; null when the
 * provider sent none (or not a list). A value longer than the limit is left out rather than cut, since a cut value
 * would claim something the provider never said.
 */
export function amrOf(claims: oidc.IDToken): string[] | null {
  const value: unknown = claims.amr;
  if (!Array.isArray(value)) return null;
  return value
    .filter((v): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_AMR_LENGTH)
    .slice(0, MAX_AMR_VALUES);
}

/** Whether the provider says the sign-in used a second factor. */
export const isSecondFactorAmr = (amr: readonly string[] | null): boolean =>
  !!amr?.some((v) => SECOND_FACTOR_AMR.has(v.toLowerCase()));
