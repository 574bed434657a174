import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';

/**
 * The device cookie (OWASP's "device cookies"): after a successful sign-in the browser keeps a signed, HttpOnly cookie
 * naming the account. A later sign-in to that account that presents it is judged by that device's own failures,
 * never by its address's, so a flood from the owner's network (or from anywhere) cannot keep the owner out.
 */
export const DEVICE_COOKIE = 'pa_device';
/** How long a device is remembered after its last successful sign-in. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;
/** Sign-in and its failure counters live under /api/auth: the cookie goes nowhere else. */
const COOKIE_PATH = '/api/auth';

export interface Device {
  /** Random, one per browser; failures are counted under it. */
  id: string;
  userId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function deviceCookies({ secret }: { secret: string }) {
  // A key of its own, derived from the signing secret: a cookie is never a token, nor a token a cookie.
  const key = createHmac('sha256', secret).update('device-cookie').digest();
  const mac = (body: string) => createHmac('sha256', key).update(body).digest('base64url');

  /** The device a cookie value names, when it is one this server signed and it has not expired; else null. */
  function read(value: string | undefined): Device | null {
    if (!value || value.length > 200) return null;
    const parts = value.split('.');
    if (parts.length !== 4) return null;
    const [id, userId, exp, signature] = parts as [string, string, string, string];
    const expected = Buffer.from(mac(`${id}.${userId}.${exp}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (!UUID.test(id) || !UUID.test(userId) || !(Number(exp) * 1000 > Date.now())) return null;
    return { id, userId };
  }

  return {
    read,

    /** The device of the request's cookie (signature and expiry checked; the account is not). */
    ofRequest(req: Request): Device | null {
      return read(cookieValue(req.headers.cookie, DEVICE_COOKIE));
    },

    /**
     * The Set-Cookie of a successful sign-in: the same device id when this browser had one for the account, so its
     * failure count stays its own, else a new one.
     */
    setCookie(userId: string, previous: Device | null, secure: boolean): string {
      const id = previous?.userId === userId ? previous.id : randomUUID();
      const exp = Math.floor(Date.now() / 1000) + DEVICE_COOKIE_MAX_AGE_SECONDS;
      const value = `${id}.${userId}.${exp}.${mac(`${id}.${userId}.${exp}`)}`;
      return `${DEVICE_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
    },
  };
}

export type DeviceCookies = ReturnType<typeof deviceCookies>;

/** One cookie's value from a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
