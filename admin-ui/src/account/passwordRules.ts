/**
 * The password rules the console can check before sending (the server checks them all again, and alone knows the
 * list of common passwords): the same length and username/email rules as the server's policy.
 */
export const MIN_PASSWORD_LENGTH = 12;

export interface PasswordOwner {
  username: string;
  email: string;
}

/**
 * A username shorter than this may be part of a password (the server's policy: "nok" is a syllable of many words),
 * so for such an account the rule is only that the password is not the username itself.
 */
export const MIN_CONTAINED_USERNAME = 4;

export interface RuleState {
  length: boolean;
  identity: boolean;
  /**
   * What the identity rule asks of this account, so the checklist says what is checked: `contains` (neither the
   * email nor the username, nor containing the username), or `equals` (neither the email nor the short username).
   */
  identityRule: 'contains' | 'equals';
  differs: boolean;
}

export function passwordRules(password: string, current: string, owner: PasswordOwner | null): RuleState {
  const lower = password.toLowerCase();
  const username = owner?.username.toLowerCase() ?? '';
  const email = owner?.email.toLowerCase() ?? '';
  const identityRule = owner === null || username.length >= MIN_CONTAINED_USERNAME ? 'contains' : 'equals';
  // Until the account is known the rule cannot be checked, so it does not count as met.
  const identity =
    owner !== null &&
    password !== '' &&
    lower !== username &&
    lower !== email &&
    !(identityRule === 'contains' && lower.includes(username));
  return {
    length: [...password].length >= MIN_PASSWORD_LENGTH,
    identity,
    identityRule,
    differs: password !== '' && password !== current,
  };
}

export type PasswordField = 'current_password' | 'new_password';

/**
 * The field a refusal's detail belongs under: saying the current password is wrong, the current password; every
 * other refusal (a broken rule) the new one.
 */
export function fieldOfRefusal(detail: string): PasswordField {
  const aboutCurrent =
    /current password/i.test(detail) && /\b(wrong|incorrect|not correct|does not match|invalid)\b/i.test(detail);
  return aboutCurrent ? 'current_password' : 'new_password';
}
