import { createHash, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 14 * 24 * 60 * 60;
const ISSUER = 'platform-admin';
const AUDIENCE = 'platform-admin-api';

// Importing raw key bytes on every verification cost ~15 % of a request's CPU (bench/FINDINGS.md): keep one key object per secret.
const keys = new Map<string, KeyObject>();
function key(secret: string): KeyObject {
  let k = keys.get(secret);
  if (!k) keys.set(secret, (k = createSecretKey(Buffer.from(secret, 'utf8'))));
  return k;
}

export async function signAccessToken(secret: string, userId: string, now = Date.now()): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT({})
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
const verifiedByKey = new WeakMap<KeyObject, Map<string, { sub: string; expiresAtMs: number }>>();

/** Returns the user id, or null for any invalid, tampered or expired token (the reason is never exposed). */
export async function verifyAccessToken(secret: string, token: string): Promise<string | null> {
  const k = key(secret);
  let verified = verifiedByKey.get(k);
  if (!verified) verifiedByKey.set(k, (verified = new Map()));
  const hit = verified.get(token);
  if (hit) {
    if (Date.now() < hit.expiresAtMs) return hit.sub;
    verified.delete(token);
    return null;
  }
  try {
    const { payload } = await jwtVerify(token, k, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
    if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
    if (verified.size >= VERIFIED_LIMIT) verified.delete(verified.keys().next().value!);
    verified.set(token, { sub: payload.sub, expiresAtMs: payload.exp * 1000 });
    return payload.sub;
  } catch {
    return null;
  }
}

export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
