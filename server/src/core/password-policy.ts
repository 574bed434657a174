/**
 * The password rules, one place for every operation that sets a password (create, reset, change). Each refusal
 * names the rule it breaks, so the person typing knows what to change.
 */
export const MIN_PASSWORD_LENGTH = 12;

// Long passwords that still top breach lists; shorter ones already fail the length rule.
const COMMON_PASSWORDS = new Set([
  '123456789012',
  '1234567890123',
  '12345678901234',
  '123123123123',
  '111111111111',
  '000000000000',
  'password1234',
  'password12345',
  'password123!',
  'passwordpassword',
  'password1234!',
  'p@ssw0rd1234',
  'qwertyuiop12',
  'qwertyuiop123',
  'qwerty123456',
  '1q2w3e4r5t6y',
  'q1w2e3r4t5y6',
  'qwertyuiopasdf',
  'iloveyou1234',
  'welcome12345',
  'welcome123456',
  'letmein12345',
  'administrator',
  'administrator1',
  'admin1234567',
  'admin123456789',
  'changeme1234',
  'changemenow!',
  'trustno1trustno1',
  'abc123456789',
  'abcdefghijkl',
  'abcd12345678',
  'football1234',
  'baseball1234',
  'sunshine1234',
  'princess1234',
  'dragon123456',
  'monkey123456',
  'master123456',
  'superman1234',
  'starwars1234',
  'whatever1234',
  'aaaaaaaaaaaa',
  'zaq12wsxcde3',
  '1qaz2wsx3edc',
  'asdfghjkl123',
  'zxcvbnm12345',
  'passw0rd1234',
]);

export interface PasswordOwner {
  username: string;
  email: string;
}

/** Why the password is refused, or null when it follows every rule. */
export function passwordProblem(password: string, owner: PasswordOwner): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  const lower = password.toLowerCase();
  const username = owner.username.toLowerCase();
  const email = owner.email.toLowerCase();
  if (lower === username || lower === email || (username.length >= 4 && lower.includes(username))) {
    return 'The password must not be or contain the username or the email address.';
  }
  if (COMMON_PASSWORDS.has(lower)) {
    return 'The password is on the list of common passwords; choose a less predictable one.';
  }
  return null;
}
