import { readFileSync } from 'node:fs';
import { Storage, type StorageOptions } from '@google-cloud/storage';
import { SIGNED_URL_TTL_SECONDS, assertValidKey, type StoragePort } from './port.js';

export interface GcsStorageOptions {
  bucket: string;
  /** Service-account JSON key; needed to sign V4 URLs offline. Without it Application Default Credentials are used. */
  keyFile?: string | null;
  /** Override of the JSON API endpoint (tests use a local fake); requests to it are sent unauthenticated. */
  apiEndpoint?: string | null;
  ttlSeconds?: number;
}

export function createGcsStorage(opts: GcsStorageOptions): StoragePort {
  const options: StorageOptions = {};
  if (opts.keyFile) {
    const key = JSON.parse(readFileSync(opts.keyFile, 'utf8')) as {
      client_email: string;
      private_key: string;
      project_id?: string;
    };
    options.credentials = { client_email: key.client_email, private_key: key.private_key };
    if (key.project_id) options.projectId = key.project_id;
  }
  if (opts.apiEndpoint) options.apiEndpoint = opts.apiEndpoint;
  const bucket = new Storage(options).bucket(opts.bucket);
  const ttl = opts.ttlSeconds ?? SIGNED_URL_TTL_SECONDS;

  return {
    driver: 'gcs',
    async put(key, bytes, contentType) {
      assertValidKey(key);
      await bucket
        .file(key)
        .save(bytes, { contentType, resumable: false, metadata: { cacheControl: 'private, max-age=3600' } });
    },
    async delete(key) {
      assertValidKey(key);
      await bucket.file(key).delete({ ignoreNotFound: true });
    },
    async exists(key) {
      assertValidKey(key);
      const [exists] = await bucket.file(key).exists();
      return exists;
    },
    async signedUrl(key) {
      assertValidKey(key);
      const expires = Date.now() + ttl * 1000;
      const [url] = await bucket.file(key).getSignedUrl({ version: 'v4', action: 'read', expires });
      return { url, expires_at: new Date(Math.floor(expires / 1000) * 1000).toISOString() };
    },
  };
}
