// Well-formed minimal images for tests that upload (the server checks the whole structure, not just magic bytes).
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A `width` × `height` truecolour PNG; with `totalBytes`, padded to exactly that size by a private ancillary chunk. */
export function wellFormedPng(width = 1, height = 1, totalBytes?: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const head = Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc((width * 3 + 1) * height))),
  ]);
  const end = pngChunk('IEND', Buffer.alloc(0));
  if (totalBytes === undefined) return Buffer.concat([head, end]);
  const filler = totalBytes - head.length - end.length - 12;
  if (filler < 0) throw new Error(`a PNG of ${totalBytes} bytes is too small`);
  return Buffer.concat([head, pngChunk('prVt', Buffer.alloc(filler, 0x41)), end]);
}

/** A baseline 1 × 1 greyscale JPEG: SOI, SOF0, SOS, one byte of scan data, EOI. */
export function minimalJpeg(): Buffer {
  return Buffer.from([
    0xff, 0xd8, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00, 0xff, 0xda, 0x00, 0x08,
    0x01, 0x01, 0x00, 0x00, 0x3f, 0x00, 0x00, 0xff, 0xd9,
  ]);
}

/** A 1 × 1 lossless WebP frame whose bytes are all ASCII (usable where a body must be text, e.g. through Prism). */
export function asciiWebp(): Buffer {
  const data = Buffer.concat([Buffer.from([0x2f, 0, 0, 0, 0]), Buffer.from('contract-test-image-bod', 'latin1')]);
  const chunk = Buffer.concat([Buffer.from('VP8L', 'latin1'), Buffer.from([data.length, 0, 0, 0]), data]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + chunk.length);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), size, Buffer.from('WEBP', 'latin1'), chunk]);
}
