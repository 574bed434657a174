import { crc32, inflateSync } from 'node:zlib';

/**
 * Structural check of an uploaded image, beyond its magic bytes: the whole file must parse as one JPEG, PNG or
 * WebP (every PNG chunk checksum right, nothing after the end marker), its dimensions must be sane (a tiny file
 * announcing a gigapixel canvas is a decompression bomb), and its metadata must not carry markup — so a file
 * that is also HTML, SVG, a script or a ZIP (a polyglot) is refused, as is a truncated one.
 */
export type ImageCheck =
  { ok: true; format: ImageFormat; width: number; height: number } | { ok: false; reason: string };

/** An uploaded file as the multipart parser hands it over. */
export interface UploadedFile {
  field: string;
  /** The client's file name: informational only, never used for storage keys. */
  filename: string;
  /** As declared by the client; check the content (magic bytes) instead of trusting it. */
  declaredType: string;
  buffer: Buffer;
  size: number;
}

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGE_SIDE = 10_000;
export const MAX_IMAGE_PIXELS = 40_000_000;

const MARKUP = /<\s*(script|html|svg|iframe|object|embed|body|\?php|!doctype)|javascript:/i;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const fail = (reason: string): ImageCheck => ({ ok: false, reason });

function dimensions(format: ImageFormat, width: number, height: number): ImageCheck {
  if (width < 1 || height < 1) return fail('the image has no pixels');
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    return fail(
      `the image is ${width} × ${height} pixels; at most ${MAX_IMAGE_SIDE} per side and ${MAX_IMAGE_PIXELS} in all`,
    );
  }
  return { ok: true, format, width, height };
}

function hasMarkup(bytes: Buffer): boolean {
  return MARKUP.test(bytes.toString('latin1'));
}

function checkPng(b: Buffer): ImageCheck {
  let offset = 8;
  let size: { width: number; height: number } | null = null;
  let idat = false;
  for (let count = 0; ; count++) {
    if (count > 10_000) return fail('too many PNG chunks');
    if (offset + 12 > b.length) return fail('the PNG is truncated');
    const length = b.readUInt32BE(offset);
    const type = b.toString('latin1', offset + 4, offset + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) return fail('the PNG has a malformed chunk');
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > b.length) return fail('the PNG is truncated');
    const data = b.subarray(offset + 8, offset + 8 + length);
    if (crc32(b.subarray(offset + 4, offset + 8 + length)) >>> 0 !== b.readUInt32BE(offset + 8 + length))
      return fail(`the PNG chunk ${type} is corrupt`);
    if (count === 0) {
      if (type !== 'IHDR' || length !== 13) return fail('the PNG does not start with its header');
      size = { width: data.readUInt32BE(0), height: data.readUInt32BE(4) };
    } else if (type === 'IDAT') {
      idat = true;
    } else if (type === 'IEND') {
      if (end !== b.length) return fail('the PNG has data after its end');
      break;
    } else if (type === 'zTXt' || type === 'iTXt') {
      const text = type === 'zTXt' ? tryInflate(data.subarray(data.indexOf(0) + 2)) : data;
      if (!text || hasMarkup(text)) return fail('the PNG metadata is not plain text');
    } else if (hasMarkup(data)) {
      return fail('the PNG metadata is not plain text');
    }
    offset = end;
  }
  if (!idat || !size) return fail('the PNG has no image data');
  return dimensions('png', size.width, size.height);
}

function tryInflate(data: Buffer): Buffer | null {
  try {
    return inflateSync(data, { maxOutputLength: 1024 * 1024 });
  } catch {
    return null;
  }
}

const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function checkJpeg(b: Buffer): ImageCheck {
  let offset = 2;
  let size: { width: number; height: number } | null = null;
  let scan = false;
  while (offset < b.length) {
    if (b[offset] !== 0xff) return fail('the JPEG is malformed');
    const marker = b[offset + 1];
    if (marker === undefined) return fail('the JPEG is truncated');
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) {
      if (offset + 2 !== b.length) return fail('the JPEG has data after its end');
      if (!size || !scan) return fail('the JPEG has no image data');
      return dimensions('jpeg', size.width, size.height);
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2;
      continue;
    }
    if (offset + 4 > b.length) return fail('the JPEG is truncated');
    const length = b.readUInt16BE(offset + 2);
    if (length < 2 || offset + 2 + length > b.length) return fail('the JPEG is truncated');
    const data = b.subarray(offset + 4, offset + 2 + length);
    if (SOF.has(marker)) {
      if (data.length < 5) return fail('the JPEG frame header is malformed');
      size = { height: data.readUInt16BE(1), width: data.readUInt16BE(3) };
    } else if ((marker >= 0xe0 && marker <= 0xef) || marker === 0xfe) {
      if (hasMarkup(data)) return fail('the JPEG metadata is not plain text');
    }
    offset += 2 + length;
    if (marker === 0xda) {
      scan = true;
      // Entropy-coded data runs until a marker other than a stuffed zero or a restart marker.
      while (offset < b.length) {
        if (b[offset] === 0xff && offset + 1 < b.length) {
          const next = b[offset + 1]!;
          if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7)) break;
        }
        offset++;
      }
      if (offset >= b.length - 1) return fail('the JPEG is truncated');
    }
  }
  return fail('the JPEG is truncated');
}

function checkWebp(b: Buffer): ImageCheck {
  if (b.length < 20) return fail('the WebP is truncated');
  const riff = b.readUInt32LE(4);
  if (riff + 8 !== b.length)
    return fail(riff + 8 > b.length ? 'the WebP is truncated' : 'the WebP has data after its end');
  let offset = 12;
  let size: { width: number; height: number } | null = null;
  let image = false;
  while (offset < b.length) {
    if (offset + 8 > b.length) return fail('the WebP is truncated');
    const type = b.toString('latin1', offset, offset + 4);
    const length = b.readUInt32LE(offset + 4);
    const end = offset + 8 + length + (length % 2);
    if (end > b.length) return fail('the WebP is truncated');
    const data = b.subarray(offset + 8, offset + 8 + length);
    if (type === 'VP8X') {
      if (length < 10) return fail('the WebP header is malformed');
      size = { width: data.readUIntLE(4, 3) + 1, height: data.readUIntLE(7, 3) + 1 };
    } else if (type === 'VP8 ') {
      if (length < 10 || data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a)
        return fail('the WebP image data is malformed');
      image = true;
      size ??= { width: data.readUInt16LE(6) & 0x3fff, height: data.readUInt16LE(8) & 0x3fff };
    } else if (type === 'VP8L') {
      if (length < 5 || data[0] !== 0x2f) return fail('the WebP image data is malformed');
      image = true;
      const bits = data.readUInt32LE(1);
      size ??= { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    } else if (type === 'ANMF' || type === 'ALPH') {
      image = true;
    } else if (hasMarkup(data)) {
      return fail('the WebP metadata is not plain text');
    }
    offset = end;
  }
  if (!image || !size) return fail('the WebP has no image data');
  return dimensions('webp', size.width, size.height);
}

export type ImageFormat = 'png' | 'jpeg' | 'webp';

/** How each accepted format is stored and served. */
export const IMAGE_FORMATS: Record<ImageFormat, { contentType: `image/${ImageFormat}`; extension: string }> = {
  png: { contentType: 'image/png', extension: 'png' },
  jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
  webp: { contentType: 'image/webp', extension: 'webp' },
};

/** The image format by its magic bytes, never by file name or declared type; null for anything else. */
export function sniffImage(bytes: Buffer): ImageFormat | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  return null;
}

const CHECKS: Record<ImageFormat, (b: Buffer) => ImageCheck> = { png: checkPng, jpeg: checkJpeg, webp: checkWebp };

export function checkImage(bytes: Buffer): ImageCheck {
  const format = sniffImage(bytes);
  return format ? CHECKS[format](bytes) : fail('the file is not a JPEG, PNG or WebP image');
}

/** A client file name is informational, but one that tries to climb directories or hide characters is refused. */
export function unsafeFilename(name: string): string | null {
  if (name.length > 255) return 'the file name is longer than 255 characters';
  if (/[/\\]/.test(name)) return 'the file name may not contain a path';
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'the file name contains control characters';
  if (name === '.' || name === '..') return 'the file name is not a name';
  return null;
}
