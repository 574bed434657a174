import { describe, expect, it } from 'vitest';
import { fieldOfRefusal, passwordRules } from './passwordRules';

const owner = { username: 'somchai', email: 'somchai@example.com' };

describe('the password rules checked while typing', () => {
  it('wants 12 characters, counted as the user sees them', () => {
    expect(passwordRules('short-one', 'old', owner).length).toBe(false);
    expect(passwordRules('Phuket-Lagoon-7', 'old', owner).length).toBe(true);
    expect(passwordRules('ภูเก็ตลากูนยามเช้า', 'old', owner).length).toBe(true);
  });

  it('refuses the username or email, or a password containing the username', () => {
    expect(passwordRules('somchai@example.com', 'old', owner).identity).toBe(false);
    expect(passwordRules('my-SOMCHAI-password', 'old', owner).identity).toBe(false);
    expect(passwordRules('Phuket-Lagoon-7', 'old', owner).identity).toBe(true);
  });

  it('when the username is shorter than four characters, then only the username itself is refused, as the server does', () => {
    const nok = { username: 'nok', email: 'nok@example.com' };
    const rules = passwordRules('nok-password-2026', 'old', nok);
    expect(rules.identityRule).toBe('equals');
    expect(rules.identity).toBe(true);
    expect(passwordRules('NOK', 'old', nok).identity).toBe(false);
    expect(passwordRules('my-SOMCHAI-password', 'old', owner).identityRule).toBe('contains');
  });

  it('wants a password different from the current one', () => {
    expect(passwordRules('Phuket-Lagoon-7', 'Phuket-Lagoon-7', owner).differs).toBe(false);
    expect(passwordRules('Phuket-Lagoon-7', 'Andaman-2026', owner).differs).toBe(true);
  });
});

describe('the field of a refusal', () => {
  it('puts a wrong current password under the current password, every broken rule under the new one', () => {
    expect(fieldOfRefusal('The current password is wrong.')).toBe('current_password');
    expect(fieldOfRefusal('The current password is not correct')).toBe('current_password');
    expect(fieldOfRefusal('The password is on the list of common passwords; choose a less predictable one.')).toBe(
      'new_password',
    );
    expect(fieldOfRefusal('The new password must differ from the current password.')).toBe('new_password');
    expect(fieldOfRefusal('The password must have at least 12 characters.')).toBe('new_password');
  });
});
