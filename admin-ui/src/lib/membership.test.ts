import { describe, expect, it } from 'vitest';
import { DEFAULT_ROLE, isBuOptionDisabled, isNearScrollEnd } from './membership';

describe('parent BU options', () => {
  it('disables a BU at its user cap', () => {
    expect(isBuOptionDisabled({ id: 'b1', users_count: 5, max_license_users: 5 })).toBe(true);
    expect(isBuOptionDisabled({ id: 'b1', users_count: 4, max_license_users: 5 })).toBe(false);
    expect(isBuOptionDisabled({ id: 'b1', users_count: 500, max_license_users: null })).toBe(false);
  });
  it('never disables the user’s current BU', () => {
    expect(isBuOptionDisabled({ id: 'b1', users_count: 5, max_license_users: 5 }, 'b1')).toBe(false);
    expect(isBuOptionDisabled({ id: 'b2', users_count: 5, max_license_users: 5 }, 'b1')).toBe(true);
  });
  it('defaults the role to user', () => {
    expect(DEFAULT_ROLE).toBe('user');
  });
});

describe('load more on scroll', () => {
  it('triggers within 40 px of the end', () => {
    expect(isNearScrollEnd({ scrollTop: 560, scrollHeight: 1000, clientHeight: 400 })).toBe(true); // 40 left
    expect(isNearScrollEnd({ scrollTop: 559, scrollHeight: 1000, clientHeight: 400 })).toBe(false); // 41 left
    expect(isNearScrollEnd({ scrollTop: 0, scrollHeight: 300, clientHeight: 400 })).toBe(true);
  });
});
