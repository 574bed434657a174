import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import express, { type Router } from 'express';
import { ForbiddenError, GoneError, NotFoundError } from '../core/errors.js';
import { SIGNED_URL_TTL_SECONDS, assertValidKey, type StoragePort } from './port.js';

const FILES_PREFIX = '/files';

export interface LocalStorageOptions {
  /** Root directory, e.g. DATA_DIR/uploads */
  dir: string;
  /** HMAC key for signed URLs */
  secret: string;
  ttlSeconds?: number;
  /** Absolute origin to prefix URLs with (e.g. http://127.0.0.1:3000); relative `/files/…` when absent. */
  publicBaseUrl?: string;
  now?: () => number;
}

export interface LocalStorage extends StoragePort {
  readonly driver: 'local';
  /** Serves `/files/<key>?expires=&signature=` with the signature and expiry checked. Mount at the app root. */
  router(): Router;
  /** Exposed for tests and the router. */
  sign(key: string, expires: number): string;
}

const META_SUFFIX = '.content-type';
const TMP_SUFFIX = '.tmp';

/** Removes half-written uploads a killed process left behind (they were never linked to a record). */
export async function removeLeftoverUploads(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  const leftovers = names.filter((n) => n.endsWith(TMP_SUFFIX));
  await Promise.all(leftovers.map((n) => rm(path.join(dir, n), { force: true })));
  return leftovers.length;
}

export function createLocalStorage(opts: LocalStorageOptions): LocalStorage {
  const root = path.resolve(opts.dir);
  const ttl = opts.ttlSeconds ?? SIGNED_URL_TTL_SECONDS;
  const now = opts.now ?? (() => Date.now());

  const fileOf = (key: string): string => {
    assertValidKey(key);
    const full = path.resolve(root, key);
    if (!full.startsWith(root + path.sep)) throw new Error('storage key escapes the root');
    return full;
  };
  const sign = (key: string, expires: number): string =>
    createHmac('sha256', opts.secret).update(`${key}\n${expires}`).digest('base64url');

  return {
    driver: 'local',
    sign,
    async put(key, bytes, contentType) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${Date.now()}${TMP_SUFFIX}`;
      try {
        await writeFile(tmp, bytes);
        await writeFile(file + META_SUFFIX, contentType);
        await rename(tmp, file);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    },
    async delete(key) {
      const file = fileOf(key);
      await rm(file, { force: true });
      await rm(file + META_SUFFIX, { force: true });
    },
    async exists(key) {
      try {
        return (await stat(fileOf(key))).isFile();
      } catch {
        return false;
      }
    },
    signedUrl(key) {
      // Signing needs no I/O; a refused key still rejects the promise, as with every store.
      return new Promise((resolve) => {
        assertValidKey(key);
        const expires = Math.floor(now() / 1000) + ttl;
        const pathAndQuery = `${FILES_PREFIX}/${key}?expires=${expires}&signature=${sign(key, expires)}`;
        resolve({ url: (opts.publicBaseUrl ?? '') + pathAndQuery, expires_at: new Date(expires * 1000).toISOString() });
      });
    },
    router() {
      const r = express.Router();
      r.get(`${FILES_PREFIX}/*key`, async (req, res, next) => {
        try {
          const segments = (req.params as { key?: string[] | string }).key;
          const key = Array.isArray(segments) ? segments.join('/') : String(segments ?? '');
          const expires = Number(req.query.expires);
          const signature = typeof req.query.signature === 'string' ? req.query.signature : '';
          let file: string;
          try {
            file = fileOf(key);
          } catch {
            throw new NotFoundError('File not found');
          }
          const expected = Buffer.from(sign(key, expires));
          const given = Buffer.from(signature);
          if (!Number.isInteger(expires) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
            throw new ForbiddenError('The file URL signature is not valid');
          }
          if (expires * 1000 < now()) throw new GoneError('The file URL has expired; request a new one');
          let bytes: Buffer;
          try {
            bytes = await readFile(file);
          } catch {
            throw new NotFoundError('File not found');
          }
          const type = await readFile(file + META_SUFFIX, 'utf8').catch(() => 'application/octet-stream');
          res.setHeader('Content-Type', type);
          res.setHeader('Cache-Control', `private, max-age=${Math.max(0, expires - Math.floor(now() / 1000))}`);
          res.setHeader('X-Content-Type-Options', 'nosniff');
          res.setHeader('Content-Security-Policy', "default-src 'none'");
          res.send(bytes);
        } catch (err) {
          next(err);
        }
      });
      return r;
    },
  };
}
