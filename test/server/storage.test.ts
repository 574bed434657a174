import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGcsStorage } from '../../server/src/storage/gcs.js';
import { createLocalStorage } from '../../server/src/storage/local.js';
import { assertValidKey } from '../../server/src/storage/port.js';
import { startFakeGcs, type FakeGcs } from '../fakes/gcs.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0e3a4d00000000049454e44ae426082',
  'hex',
);

describe('storage keys', () => {
  it('when a key tries to escape the root or carries odd characters, then it is rejected', () => {
    for (const bad of [
      '../etc/passwd',
      '/abs.png',
      'a/../../b.png',
      'a\\b.png',
      '',
      'x/..',
      '.hidden',
      'a b.png',
      'a?.png',
    ]) {
      expect(() => assertValidKey(bad), bad).toThrow();
    }
    expect(() => assertValidKey(`${randomUUID()}.png`)).not.toThrow();
  });
});

describe.each(engines())('local storage served by the app on %s', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine);
  });
  afterAll(() => t?.close());

  it('when a stored image is fetched through its signed URL, then the bytes come back with the stored type', async () => {
    const key = `${randomUUID()}.png`;
    await t.storage.put(key, PNG, 'image/png');
    expect(await t.storage.exists(key)).toBe(true);
    const { url, expires_at } = await t.storage.signedUrl(key);
    expect(url).toMatch(new RegExp(`^/files/${key}\\?expires=\\d+&signature=`));
    const ttl = Date.parse(expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(3500_000);
    expect(ttl).toBeLessThanOrEqual(3600_000);
    const res = await t.fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('when the signature is tampered with or belongs to another key, then 403 problem', async () => {
    const key = `${randomUUID()}.png`;
    const other = `${randomUUID()}.png`;
    await t.storage.put(key, PNG, 'image/png');
    const { url } = await t.storage.signedUrl(key);
    const u = new URL(url, t.baseUrl);
    const sig = u.searchParams.get('signature')!;
    u.searchParams.set('signature', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    const tampered = await t.fetch(u.pathname + u.search);
    expect(tampered.status).toBe(403);
    expect(tampered.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const moved = await t.fetch(url.replace(key, other));
    expect(moved.status).toBe(403);
    const later = new URL(url, t.baseUrl);
    later.searchParams.set('expires', String(Number(later.searchParams.get('expires')) + 3600));
    expect((await t.fetch(later.pathname + later.search)).status).toBe(403);
  });

  it('when the URL has expired, then 410 problem', async () => {
    const key = `${randomUUID()}.png`;
    await t.storage.put(key, PNG, 'image/png');
    const past = createLocalStorage({
      dir: '/unused',
      secret: `files:${t.config.jwtSecret}`,
      now: () => Date.now() - 2 * 3600_000,
    });
    const { url } = await past.signedUrl(key);
    const res = await t.fetch(url);
    expect(res.status).toBe(410);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });

  it('when the expires or signature query is missing, then 400 problem from the contract', async () => {
    const res = await t.fetch(`/files/${randomUUID()}.png`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });

  it('when an object is deleted, then it no longer exists and deleting again is fine', async () => {
    const key = `${randomUUID()}.png`;
    await t.storage.put(key, PNG, 'image/png');
    await t.storage.delete(key);
    expect(await t.storage.exists(key)).toBe(false);
    await expect(t.storage.delete(key)).resolves.toBeUndefined();
    const { url } = await t.storage.signedUrl(key);
    expect((await t.fetch(url)).status).toBe(404);
  });
});

describe('local storage on disk', () => {
  it('when an object is stored, then it lands under the root and nothing else is written outside it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-uploads-'));
    try {
      const s = createLocalStorage({ dir, secret: 'x'.repeat(32) });
      const key = `${randomUUID()}.webp`;
      await s.put(key, Buffer.from('RIFF0000WEBP'), 'image/webp');
      expect(existsSync(path.join(dir, key))).toBe(true);
      expect(readdirSync(dir).every((f) => f.startsWith(key))).toBe(true);
      await expect(s.put('../escape.png', PNG, 'image/png')).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('GCS storage against the fake GCS JSON API', () => {
  const bucket = 'branding-test';
  const clientEmail = 'uploader@platform-test.iam.gserviceaccount.com';
  let fake: FakeGcs;
  let dir: string;
  let keyFile: string;
  let clock = () => new Date();

  beforeAll(async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    dir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-gcs-'));
    keyFile = path.join(dir, 'sa.json');
    writeFileSync(
      keyFile,
      JSON.stringify({
        type: 'service_account',
        project_id: 'platform-test',
        client_email: clientEmail,
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      }),
    );
    fake = await startFakeGcs({
      bucket,
      clientEmail,
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      now: () => clock(),
    });
  });
  afterAll(async () => {
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when an image is stored, then the bucket holds it and a V4 signed URL downloads it', async () => {
    const gcs = createGcsStorage({ bucket, keyFile, apiEndpoint: fake.endpoint });
    const key = `${randomUUID()}.png`;
    await gcs.put(key, PNG, 'image/png');
    expect(fake.objects.get(key)?.contentType).toBe('image/png');
    expect(fake.objects.get(key)?.bytes.equals(PNG)).toBe(true);
    expect(await gcs.exists(key)).toBe(true);
    const { url, expires_at } = await gcs.signedUrl(key);
    expect(url).toContain('X-Goog-Algorithm=GOOG4-RSA-SHA256');
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(3500_000);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('when the signed URL is tampered with or signed by another key, then the fake refuses it', async () => {
    const gcs = createGcsStorage({ bucket, keyFile, apiEndpoint: fake.endpoint });
    const key = `${randomUUID()}.png`;
    await gcs.put(key, PNG, 'image/png');
    const { url } = await gcs.signedUrl(key);
    const other = `${randomUUID()}.png`;
    await gcs.put(other, PNG, 'image/png');
    expect((await fetch(url.replace(key, other))).status).toBe(403);
    expect(fake.refusals.at(-1)).toBe('signature');

    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const foreignKeyFile = path.join(dir, 'foreign.json');
    writeFileSync(
      foreignKeyFile,
      JSON.stringify({
        type: 'service_account',
        client_email: clientEmail,
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      }),
    );
    const forged = await createGcsStorage({ bucket, keyFile: foreignKeyFile, apiEndpoint: fake.endpoint }).signedUrl(
      key,
    );
    expect((await fetch(forged.url)).status).toBe(403);
  });

  it('when the signed URL is used after its hour, then the fake refuses it as expired', async () => {
    const gcs = createGcsStorage({ bucket, keyFile, apiEndpoint: fake.endpoint });
    const key = `${randomUUID()}.png`;
    await gcs.put(key, PNG, 'image/png');
    const { url } = await gcs.signedUrl(key);
    clock = () => new Date(Date.now() + 3601_000);
    try {
      expect((await fetch(url)).status).toBe(400);
      expect(fake.refusals.at(-1)).toBe('expired');
    } finally {
      clock = () => new Date();
    }
  });

  it('when an object is deleted, then it is gone and deleting again is fine', async () => {
    const gcs = createGcsStorage({ bucket, keyFile, apiEndpoint: fake.endpoint });
    const key = `${randomUUID()}.png`;
    await gcs.put(key, PNG, 'image/png');
    await gcs.delete(key);
    expect(fake.objects.has(key)).toBe(false);
    expect(await gcs.exists(key)).toBe(false);
    await expect(gcs.delete(key)).resolves.toBeUndefined();
  });
});

describe('multipart upload parsing (busboy, before the contract validator)', () => {
  let server: import('node:http').Server;
  let base: string;
  const seen: Array<{ body: unknown; upload: unknown }> = [];

  beforeAll(async () => {
    const express = (await import('express')).default;
    const { multipartUpload } = await import('../../server/src/http/multipart.js');
    const { problemHandler } = await import('../../server/src/http/problem.js');
    const app = express();
    app.post('/upload', multipartUpload({ maxBytes: 1024 }), (req, res) => {
      seen.push({ body: req.body, upload: req.upload });
      res.json({
        field: req.upload?.field,
        size: req.upload?.size,
        filename: req.upload?.filename,
        body: req.body as unknown,
      });
    });
    app.use(problemHandler);
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const form = (files: Array<[string, Buffer, string]>, fields: Record<string, string> = {}) => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    for (const [field, bytes, name] of files) fd.append(field, new Blob([bytes]), name);
    return fd;
  };

  it('when one file within the limit is sent, then it is in req.upload and req.body.<field> is set for `required`', async () => {
    const res = await fetch(`${base}/upload`, {
      method: 'POST',
      body: form([['logo', PNG, 'photo.jpg']], { note: 'hi' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      field: 'logo',
      size: PNG.length,
      filename: 'photo.jpg',
      body: { note: 'hi', logo: '' },
    });
  });

  it('when the file is one byte over the limit, then 413 problem after the body was read', async () => {
    const res = await fetch(`${base}/upload`, {
      method: 'POST',
      body: form([['logo', Buffer.alloc(1025, 1), 'big.png']]),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });

  it('when exactly the limit is sent, then it is accepted', async () => {
    const res = await fetch(`${base}/upload`, {
      method: 'POST',
      body: form([['logo', Buffer.alloc(1024, 1), 'edge.png']]),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { size: number }).size).toBe(1024);
  });

  it('when two files are sent, then 400 problem', async () => {
    const res = await fetch(`${base}/upload`, {
      method: 'POST',
      body: form([
        ['logo', PNG, 'a.png'],
        ['logo', PNG, 'b.png'],
      ]),
    });
    expect(res.status).toBe(400);
  });

  it('when the multipart body has no boundary, then 400 problem, not 500', async () => {
    const res = await fetch(`${base}/upload`, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data' },
      body: 'garbage',
    });
    expect(res.status).toBe(400);
  });
});
