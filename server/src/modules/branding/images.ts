import type { StoragePort } from '../../storage/port.js';

export interface ImageKeys {
  logo_key: string | null;
  avatar_key: string | null;
}

export interface ImageUrls {
  logo?: { url: string };
  avatar?: { url: string };
}

/** Presigned read URLs of a record's images; a field is absent when no image is set. */
export async function imageUrlsOf(storage: StoragePort, row: ImageKeys): Promise<ImageUrls> {
  const out: ImageUrls = {};
  if (row.logo_key) out.logo = { url: (await storage.signedUrl(row.logo_key)).url };
  if (row.avatar_key) out.avatar = { url: (await storage.signedUrl(row.avatar_key)).url };
  return out;
}
