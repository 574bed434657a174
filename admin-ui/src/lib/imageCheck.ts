export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

type ImageCheckError = 'type' | 'size';

/** Client-side gate before any upload request: JPEG/PNG/WebP of at most 5 MB. */
export function checkImageFile(file: { type: string; size: number }): ImageCheckError | null {
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size > MAX_IMAGE_BYTES) return 'size';
  return null;
}
