// Hostile uploads: each is refused with a problem and nothing reaches storage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { engines, startTestServer, type TestServer } from '../server/support/index.js';
import { problemViolations } from './support.js';

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
function png(width: number, height: number, opts: { idat?: Buffer } = {}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const raw = opts.idat ?? deflateSync(Buffer.alloc((width * 3 + 1) * height));
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', raw), chunk('IEND', Buffer.alloc(0))]);
}

const GOOD = png(2, 2);
const ZIP_LOCAL = Buffer.concat([
  Buffer.from('PK\x03\x04', 'latin1'),
  Buffer.alloc(26),
  Buffer.from('evil.html<script>alert(1)</script>'),
]);
const ZIP_END = Buffer.concat([Buffer.from('PK\x05\x06', 'latin1'), Buffer.alloc(18)]);

const ATTACKS: Array<{ name: string; field: string; bytes: Buffer; filename: string; type: string; status: number[] }> =
  [
    {
      name: 'a PNG/ZIP/HTML polyglot',
      field: 'logo',
      bytes: Buffer.concat([GOOD, ZIP_LOCAL, ZIP_END]),
      filename: 'logo.png',
      type: 'image/png',
      status: [415],
    },
    {
      name: 'a PNG carrying HTML in a text chunk',
      field: 'logo',
      bytes: Buffer.concat([
        SIGNATURE,
        chunk('IHDR', png(1, 1).subarray(16, 29)),
        chunk('tEXt', Buffer.from('Comment\0<html><script>alert(document.cookie)</script></html>')),
        png(1, 1).subarray(33),
      ]),
      filename: 'logo.png',
      type: 'image/png',
      status: [415],
    },
    {
      name: 'a JPEG followed by a script',
      field: 'logo',
      bytes: Buffer.concat([
        Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
        Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'),
        Buffer.from([0xff, 0xd9]),
        Buffer.from('<script>alert(1)</script>'),
      ]),
      filename: 'a.jpg',
      type: 'image/jpeg',
      status: [415],
    },
    {
      name: 'an SVG with a script',
      field: 'logo',
      bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      filename: 'logo.svg',
      type: 'image/svg+xml',
      status: [415],
    },
    {
      name: 'an SVG declared as PNG',
      field: 'avatar',
      bytes: Buffer.from('<?xml version="1.0"?><svg onload="alert(1)"/>'),
      filename: 'logo.png',
      type: 'image/png',
      status: [415],
    },
    {
      name: 'a truncated PNG',
      field: 'logo',
      bytes: GOOD.subarray(0, GOOD.length - 20),
      filename: 'cut.png',
      type: 'image/png',
      status: [415],
    },
    {
      name: 'a PNG signature alone',
      field: 'logo',
      bytes: SIGNATURE,
      filename: 'sig.png',
      type: 'image/png',
      status: [415],
    },
    {
      name: 'a PNG with a broken chunk checksum',
      field: 'logo',
      bytes: (() => {
        const b = Buffer.from(GOOD);
        b[29] = b[29]! ^ 0xff;
        return b;
      })(),
      filename: 'crc.png',
      type: 'image/png',
      status: [415],
    },
    {
      name: 'a 5 MB + 1 byte file',
      field: 'logo',
      bytes: Buffer.concat([GOOD, Buffer.alloc(5 * 1024 * 1024 + 1 - GOOD.length)]),
      filename: 'big.png',
      type: 'image/png',
      status: [413],
    },
    {
      name: 'a decompression-bomb header (65535 × 65535 PNG)',
      field: 'logo',
      bytes: png(65535, 65535, { idat: deflateSync(Buffer.alloc(1024)) }),
      filename: 'bomb.png',
      type: 'image/png',
      status: [415],
    },
    {
      name: 'a decompression-bomb WebP canvas',
      field: 'logo',
      bytes: (() => {
        const vp8x = Buffer.alloc(10);
        vp8x.writeUIntLE(60000 - 1, 4, 3);
        vp8x.writeUIntLE(60000 - 1, 7, 3);
        const c = Buffer.concat([Buffer.from('VP8X', 'latin1'), Buffer.from([10, 0, 0, 0]), vp8x]);
        const size = Buffer.alloc(4);
        size.writeUInt32LE(4 + c.length);
        return Buffer.concat([Buffer.from('RIFF', 'latin1'), size, Buffer.from('WEBP', 'latin1'), c]);
      })(),
      filename: 'bomb.webp',
      type: 'image/webp',
      status: [415],
    },
    {
      name: 'a path-traversal file name',
      field: 'logo',
      bytes: GOOD,
      filename: '../../../../etc/cron.d/evil.png',
      type: 'image/png',
      status: [400],
    },
    {
      name: 'a Windows path-traversal file name',
      field: 'logo',
      bytes: GOOD,
      filename: '..\\..\\evil.png',
      type: 'image/png',
      status: [400],
    },
    { name: 'a wrong field name', field: 'file', bytes: GOOD, filename: 'logo.png', type: 'image/png', status: [400] },
  ];

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe.each(engines())('upload attacks on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  let clusterId: string;
  let buId: string;
  let uploads: string;
  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
    clusterId = ((await t.knex('clusters').select('id').where({ code: 'CL-A' }).first()) as { id: string }).id;
    buId = ((await t.knex('business_units').select('id').where({ code: 'A-PKT' }).first()) as { id: string }).id;
    uploads = path.join(t.config.dataDir, 'uploads');
  });
  afterAll(() => t?.close());

  it('accepts a well-formed PNG (the attacks below are refused for what they are)', async () => {
    const res = await t.upload(`/api-system/clusters/${clusterId}/logo`, 'logo', GOOD, 'logo.png', admin, 'image/png');
    expect(res.status, await res.clone().text()).toBe(200);
  });

  for (const attack of ATTACKS) {
    it(`refuses ${attack.name} with a problem and stores nothing`, async () => {
      const before = listFiles(uploads).sort();
      const keysBefore = await t
        .knex('clusters')
        .select<Array<{ logo_key: string | null; avatar_key: string | null }>>('logo_key', 'avatar_key')
        .where({ id: clusterId })
        .first();
      for (const target of [
        `/api-system/clusters/${clusterId}/${attack.field === 'file' ? 'logo' : attack.field}`,
        `/api-system/business-units/${buId}/${attack.field === 'file' ? 'logo' : attack.field}`,
      ]) {
        const res = await t.upload(target, attack.field, attack.bytes, attack.filename, admin, attack.type);
        expect(attack.status, `${target}: ${await res.clone().text()}`).toContain(res.status);
        expect(await problemViolations(res)).toEqual([]);
      }
      expect(listFiles(uploads).sort()).toEqual(before);
      expect(await t.knex('clusters').select('logo_key', 'avatar_key').where({ id: clusterId }).first()).toEqual(
        keysBefore,
      );
      // Nothing was written outside the storage directory either.
      expect(existsSync(path.join(t.config.dataDir, '..', 'evil.png'))).toBe(false);
    });
  }

  it('refuses a multipart body without a boundary, with two files, and a non-multipart body', async () => {
    const noBoundary = await t.fetch(`/api-system/clusters/${clusterId}/logo`, {
      method: 'POST',
      token: admin,
      body: 'x',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(noBoundary.status).toBe(400);
    expect(await problemViolations(noBoundary)).toEqual([]);
    const form = new FormData();
    form.append('logo', new Blob([new Uint8Array(GOOD)], { type: 'image/png' }), 'a.png');
    form.append('logo', new Blob([new Uint8Array(GOOD)], { type: 'image/png' }), 'b.png');
    const two = await t.fetch(`/api-system/clusters/${clusterId}/logo`, { method: 'POST', token: admin, body: form });
    expect(two.status).toBe(400);
    expect(await problemViolations(two)).toEqual([]);
    const json = await t.fetch(`/api-system/clusters/${clusterId}/logo`, {
      method: 'POST',
      token: admin,
      json: { logo: 'x' },
    });
    expect([400, 415]).toContain(json.status);
    expect(await problemViolations(json)).toEqual([]);
  });
});

describe('well-formed images pass the structural check', () => {
  it('accepts a PNG padded to exactly 5 MB, a minimal JPEG and an ASCII-only WebP', async () => {
    const { checkImage } = await import('../../server/src/core/image-check.js');
    const { wellFormedPng, minimalJpeg, asciiWebp } = await import('../support/images.js');
    expect(checkImage(wellFormedPng(1, 1, 5 * 1024 * 1024))).toMatchObject({ ok: true, format: 'png' });
    expect(checkImage(minimalJpeg())).toMatchObject({ ok: true, format: 'jpeg', width: 1, height: 1 });
    expect(checkImage(asciiWebp())).toMatchObject({ ok: true, format: 'webp', width: 1, height: 1 });
    expect([...asciiWebp()].every((b) => b < 0x80)).toBe(true);
  });
});
