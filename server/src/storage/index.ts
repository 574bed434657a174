import type { Config } from '../config.js';
import { createLocalStorage, removeLeftoverUploads, type LocalStorage } from './local.js';
import type { StoragePort } from './port.js';

export type { StoragePort } from './port.js';
export { assertValidKey, SIGNED_URL_TTL_SECONDS } from './port.js';
export { createLocalStorage, type LocalStorage } from './local.js';

/** The GCS client library is heavy to load; it is imported only when STORAGE=gcs. */
export async function createStorage(config: Pick<Config, 'storage' | 'jwtSecret'>): Promise<StoragePort> {
  if (config.storage.driver === 'gcs') {
    const { createGcsStorage } = await import('./gcs.js');
    return createGcsStorage(config.storage);
  }
  await removeLeftoverUploads(config.storage.dir);
  // A separate derivation so a leaked file URL says nothing about the token key.
  return createLocalStorage({ dir: config.storage.dir, secret: `files:${config.jwtSecret}` });
}

export function isLocalStorage(storage: StoragePort): storage is LocalStorage {
  return storage.driver === 'local' && typeof (storage as LocalStorage).router === 'function';
}
