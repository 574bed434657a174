/**
 * The password rules the console can check before sending (the server checks them all again, and alone knows the
 * list of common passwords): the same length and username/email rules as the server's policy.
 */
export const MIN_PASSWORD_LENGTH = 12;

export interface PasswordOwner {
  username: string;
  email: string;
}

export interface RuleState {
  length: boolean;
  identity: boolean;
  differs: boolean;
}

export function passwordRules(password: string, current: string, owner: PasswordOwner | null): RuleState {
  const lower = password.toLowerCase();
  const username = owner?.username.toLowerCase() ?? '';
  const email = owner?.email.toLowerCase() ?? '';
  // Until the account is known the rule cannot be checked, so it does not count as met.
  const identity =
    owner !== null &&
    password !== '' &&
    lower !== username &&
    lower !== email &&
    !(username.length >= 4 && lower.includes(username));
  return {
    length: [...password].length >= MIN_PASSWORD_LENGTH,
    identity,
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
