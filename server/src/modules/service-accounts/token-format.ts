import { createHash, randomBytes } from 'node:crypto';
import { API_TOKEN_PREFIX } from '../../http/auth.js';

/**
 * An API token: `pa_` + a 12-hex-digit public id + `_` + 43 characters of secret (32 random bytes, base64url).
 * The public id tells tokens apart in lists and logs; the secret never leaves the creation answer. Secret scanners
 * find a leaked one by `pa_[0-9a-f]{12}_[A-Za-z0-9_-]{43}` (docs/partners.md).
 */
const FORMAT = /^pa_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export interface NewApiToken {
  /** The whole token, shown once. */
  token: string;
  /** `pa_<public id>`: what lists show. */
  prefix: string;
  lookup: string;
  hash: string;
}

/**
 * SHA-256 of the whole token. The secret has 256 bits of entropy, so a fast hash is right (a slow password hash
 * would only cost every call): nobody can guess a token from its hash.
 */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function newApiToken(): NewApiToken {
  const lookup = randomBytes(6).toString('hex');
  const token = `${API_TOKEN_PREFIX}${lookup}_${randomBytes(32).toString('base64url')}`;
  return { token, prefix: `${API_TOKEN_PREFIX}${lookup}`, lookup, hash: hashApiToken(token) };
}

/** Whether a credential has the shape of an API token (anything else is refused without a database lookup). */
export function isApiTokenShaped(credential: string): boolean {
  return FORMAT.test(credential);
}
