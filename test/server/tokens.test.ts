import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken, verifyAccessToken, verifyAccessTokenClaims } from '../../server/src/modules/auth/tokens.js';

const SECRET = 'token-test-secret-of-at-least-32-characters';
const USER = '0b7f8a52-4c1e-4f0a-9f51-1d2a3b4c5d6e';

describe('access token verification', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('when a token is presented again, then it is still accepted, and refused once it has expired', async () => {
    const token = await signAccessToken(SECRET, USER);
    expect(await verifyAccessToken(SECRET, token)).toBe(USER);
    expect(await verifyAccessToken(SECRET, token)).toBe(USER);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (ACCESS_TOKEN_TTL_SECONDS + 1) * 1000);
    expect(await verifyAccessToken(SECRET, token)).toBeNull();
  });

  it('when a verified token is presented with another secret or one character changed, then it is refused', async () => {
    const token = await signAccessToken(SECRET, USER);
    expect(await verifyAccessToken(SECRET, token)).toBe(USER);
    expect(await verifyAccessToken(`${SECRET}-rotated`, token)).toBeNull();
    // The signature's first character: every bit of it counts (the last one carries padding bits).
    const at = token.lastIndexOf('.') + 1;
    const altered = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    expect(await verifyAccessToken(SECRET, altered)).toBeNull();
  });

  it('when a token names its session, then the claims carry it, also from the verified-token memory', async () => {
    const sid = '5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    const token = await signAccessToken(SECRET, USER, Date.now(), sid);
    expect(await verifyAccessTokenClaims(SECRET, token)).toEqual({ userId: USER, sessionId: sid });
    expect(await verifyAccessTokenClaims(SECRET, token)).toEqual({ userId: USER, sessionId: sid });
    expect(await verifyAccessToken(SECRET, token)).toBe(USER);
  });

  it('when a token names no session, then it is session-less', async () => {
    const token = await signAccessToken(SECRET, USER);
    expect(await verifyAccessTokenClaims(SECRET, token)).toEqual({ userId: USER, sessionId: null });
  });
});
