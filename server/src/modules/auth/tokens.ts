import { createHash, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 14 * 24 * 60 * 60;
/** However often it is refreshed, a session ends this long after its sign-in: then the user signs in again. */
export const MAX_SESSION_AGE_SECONDS = 30 * 24 * 60 * 60;
const ISSUER = 'platform-admin';
const AUDIENCE = 'platform-admin-api';

// Importing raw key bytes on every verification cost ~15 % of a request's CPU (bench/FINDINGS.md): keep one key object per secret.
const keys = new Map<string, KeyObject>();
function key(secret: string): KeyObject {
  let k = keys.get(secret);
  if (!k) keys.set(secret, (k = createSecretKey(Buffer.from(secret, 'utf8'))));
  return k;
}

/**
 * `sessionId` names the signed-in device (`sid`), so ending that session ends this token's access at once. Every
 * token names one: a token that could not be revoked would outlive a password change or a sign-out.
 */
export async function signAccessToken(secret: string, userId: string, now: number, sessionId: string): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .sign(key(secret));
}

// A console sends the same access token with every request for up to 15 minutes. Remembering the tokens already
// verified skips the signature check (the largest single cost of a light request, bench/FINDINGS.md) on repeats.
// Only the exact token text can hit, so an altered token is always checked in full; expiry is checked on every hit.
const VERIFIED_LIMIT = 10_000;
/** A verified token's claims, kept until the token expires. */
type Verified = { claims: AccessClaims; expiresAtMs: number };
const verifiedByKey = new WeakMap<KeyObject, Map<string, Verified>>();

/** What a valid access token says: its user and its session. */
export interface AccessClaims {
  userId: string;
  sessionId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The token's claims, or null for any invalid, tampered or expired token (the reason is never exposed). */
export async function verifyAccessTokenClaims(secret: string, token: string): Promise<AccessClaims | null> {
  const k = key(secret);
  let verified = verifiedByKey.get(k);
  if (!verified) verifiedByKey.set(k, (verified = new Map<string, Verified>()));
  const hit = verified.get(token);
  if (hit) {
    if (Date.now() < hit.expiresAtMs) return hit.claims;
    verified.delete(token);
    return null;
  }
  try {
    const { payload } = await jwtVerify(token, k, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
    if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number' || typeof payload.iat !== 'number')
      return null;
    // No token this service issues lives longer than an access token's lifetime: a longer one was not minted here,
    // or was minted with the signing secret to outlive every sign-out.
    if (payload.exp - payload.iat > ACCESS_TOKEN_TTL_SECONDS) return null;
    // Every token names its session (compared in SQL as a uuid): without one it could never be revoked.
    if (typeof payload.sid !== 'string' || !UUID.test(payload.sid)) return null;
    const claims: AccessClaims = { userId: payload.sub, sessionId: payload.sid };
    if (verified.size >= VERIFIED_LIMIT) verified.delete(verified.keys().next().value!);
    verified.set(token, { claims, expiresAtMs: payload.exp * 1000 });
    return claims;
  } catch {
    return null;
  }
}

/** The user id of a valid access token, or null. */
export async function verifyAccessToken(secret: string, token: string): Promise<string | null> {
  return (await verifyAccessTokenClaims(secret, token))?.userId ?? null;
}

export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The opaque, single-use token of a sign-in's second step (43 base64url characters), and the hash it is stored as. */
export function newSignInToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: signInTokenHash(token) };
}

export function signInTokenHash(token: string): string {
  return createHash('sha256').update(`second-factor:${token}`).digest('hex');
}
