import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it: SHA-1, six digits, 30-second steps. */
const TOTP_PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
export const TOTP_PERIOD_SECONDS = TOTP_PARAMS.period;
const ISSUER = 'Platform Admin';

/** Recovery codes: 12 characters of a 32-letter alphabet (60 random bits) without 0/o, 1/l, shown as xxxx-xxxx-xxxx. */
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

/**
 * The secrets of the second factor, each under a key of its own derived from the server secret (JWT_SECRET): the
 * TOTP secrets are encrypted at rest (AES-256-GCM), recovery codes are kept as HMACs (they are 60 random bits, so a
 * fast keyed hash is enough, and a database dump alone cannot test guesses against them).
 */
export function secondFactorSecrets(serverSecret: string) {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', serverSecret, '', info, 32));
  const totpKey = derive('totp');
  const recoveryKey = derive('recovery-codes');

  return {
    /** A new random TOTP secret, in base32 (160 bits, the RFC's recommendation for SHA-1). */
    newTotpSecret(): string {
      return new Secret({ size: 20 }).base32;
    },

    encryptTotpSecret(base32: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', totpKey, iv);
      const ciphertext = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), ciphertext]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },

    decryptTotpSecret(stored: string): string {
      const [version, iv, tag, ciphertext] = stored.split('.');
      if (version !== 'v1' || !iv || !tag || !ciphertext) throw new Error('unreadable TOTP secret');
      const decipher = createDecipheriv('aes-256-gcm', totpKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },

    /** Ten new recovery codes, as shown once. */
    newRecoveryCodes(): string[] {
      return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
        const bytes = randomBytes(12);
        const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b & 31]!).join('');
        return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
      });
    },

    /** The stored form of a recovery code as typed (case, spaces and dashes do not matter); null when it cannot be one. */
    recoveryCodeHash(typed: string): string | null {
      const plain = typed.toLowerCase().replace(/[\s-]/g, '');
      if (plain.length !== 12 || [...plain].some((c) => !RECOVERY_ALPHABET.includes(c))) return null;
      return createHmac('sha256', recoveryKey).update(plain).digest('hex');
    },
  };
}

export type SecondFactorSecrets = ReturnType<typeof secondFactorSecrets>;

/** The TOTP of a secret, labelled with the account's username as the app lists it. */
function totpOf(base32: string, label = 'account'): TOTP {
  return new TOTP({ issuer: ISSUER, label, ...TOTP_PARAMS, secret: Secret.fromBase32(base32) });
}

/** The `otpauth://` URI an app scans. */
export function totpUri(base32: string, username: string): string {
  return totpOf(base32, username).toString();
}

/**
 * The time step a code belongs to when it is valid within one step of clock drift either way, else null. The
 * library compares the codes in constant time.
 */
export function totpStepOf(base32: string, code: string, now = Date.now()): number | null {
  if (!/^[0-9]{6}$/.test(code)) return null;
  const delta = totpOf(base32).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}
