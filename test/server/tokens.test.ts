import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  signAccessToken,
  verifyAccessToken,
  verifyAccessTokenClaims,
} from '../../server/src/modules/auth/tokens.js';

const SECRET = 'token-test-secret-of-at-least-32-characters';
const USER = '0b7f8a52-4c1e-4f0a-9f51-1d2a3b4c5d6e';
const SID = '5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

/** A token signed with the right secret, issuer and audience, but shaped by hand (as anyone holding the secret could). */
function handMade(claims: Record<string, unknown>, lifetimeSeconds: number): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(USER)
    .setIssuer('platform-admin')
    .setAudience('platform-admin-api')
    .setIssuedAt(iat)
    .setExpirationTime(iat + lifetimeSeconds)
    .sign(new TextEncoder().encode(SECRET));
}

describe('access token verification', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('when a token is presented again, then it is still accepted, and refused once it has expired', async () => {
    const token = await signAccessToken(SECRET, USER, Date.now(), SID);
    expect(await verifyAccessToken(SECRET, token)).toBe(USER);
    expect(await verifyAccessToken(SECRET, token)).toBe(USER);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (ACCESS_TOKEN_TTL_SECONDS + 1) * 1000);
    expect(await verifyAccessToken(SECRET, token)).toBeNull();
  });

  it('when a verified token is presented with another secret or one character changed, then it is refused', async () => {
    const token = await signAccessToken(SECRET, USER, Date.now(), SID);
    expect(await verifyAccessToken(SECRET, token)).toBe(USER);
    expect(await verifyAccessToken(`${SECRET}-rotated`, token)).toBeNull();
    // The signature's first character: every bit of it counts (the last one carries padding bits).
    const at = token.lastIndexOf('.') + 1;
    const altered = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    expect(await verifyAccessToken(SECRET, altered)).toBeNull();
  });

  it('when a token names its session, then the claims carry it, also from the verified-token memory', async () => {
    const token = await signAccessToken(SECRET, USER, Date.now(), SID);
    expect(await verifyAccessTokenClaims(SECRET, token)).toEqual({ userId: USER, sessionId: SID });
    expect(await verifyAccessTokenClaims(SECRET, token)).toEqual({ userId: USER, sessionId: SID });
    expect(await verifyAccessToken(SECRET, token)).toBe(USER);
  });

  it('when a token names no session, or one that is not a session id, then it is refused: it could never be revoked', async () => {
    expect(await verifyAccessTokenClaims(SECRET, await handMade({}, 600))).toBeNull();
    expect(await verifyAccessTokenClaims(SECRET, await handMade({ sid: 'not-a-session' }, 600))).toBeNull();
    expect(await verifyAccessTokenClaims(SECRET, await handMade({ sid: SID }, 600))).toEqual({
      userId: USER,
      sessionId: SID,
    });
  });

  it('when a token lives longer than an access token may, then it is refused, however valid its signature', async () => {
    expect(
      await verifyAccessTokenClaims(SECRET, await handMade({ sid: SID }, ACCESS_TOKEN_TTL_SECONDS + 1)),
    ).toBeNull();
    expect(await verifyAccessTokenClaims(SECRET, await handMade({ sid: SID }, 365 * 24 * 60 * 60))).toBeNull();
    expect(await verifyAccessTokenClaims(SECRET, await handMade({ sid: SID }, ACCESS_TOKEN_TTL_SECONDS))).toEqual({
      userId: USER,
      sessionId: SID,
    });
  });

  it('when a token has no issue time, then its lifetime is unknown and it is refused', async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const token = await new SignJWT({ sid: SID })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(USER)
      .setIssuer('platform-admin')
      .setAudience('platform-admin-api')
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(SECRET));
    expect(await verifyAccessTokenClaims(SECRET, token)).toBeNull();
  });
});
