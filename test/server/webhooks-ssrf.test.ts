// The webhooks' SSRF guard: production reaches public addresses only, judged on what the host resolves to (IPv4,
// IPv6 and IPv4 inside IPv6), and the connection goes to the address that was judged, whatever DNS answers later.
// The docs' verification sample accepts what the server signs.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../server/src/core/errors.js';
import type { AuthContext } from '../../server/src/core/permissions.js';
import type { AuditTrail } from '../../server/src/modules/audit/service.js';
import { postTo } from '../../server/src/modules/webhooks/send.js';
import { webhookService } from '../../server/src/modules/webhooks/service.js';
import { newWebhookSecret, signatureHeader } from '../../server/src/modules/webhooks/signature.js';
import { isRefusedAddress, resolveTarget, type Resolve } from '../../server/src/modules/webhooks/ssrf.js';
import { startReceiver } from './support/webhook-receiver.js';

const answers =
  (table: Record<string, string[]>): Resolve =>
  (host) =>
    table[host]
      ? Promise.resolve(table[host].map((address) => ({ address, family: address.includes(':') ? 6 : 4 })))
      : Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));

describe('the webhook target guard', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '::ffff:0:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:c0a8:0101::1',
    '::127.0.0.1',
  ])('when a host resolves to %s, then production refuses it', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '203.0.113.10', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:93.184.215.14'])(
    'when a host resolves to %s, then it is a public address',
    (address) => {
      expect(isRefusedAddress(address)).toBe(false);
    },
  );

  it('when any address of the answer is private, then the URL is refused, naming it; when all are public, the first is pinned', async () => {
    const resolve = answers({
      'mixed.example': ['93.184.215.14', '10.0.0.5'],
      'public.example': ['2606:4700::1111', '93.184.215.14'],
      'mapped.example': ['::ffff:127.0.0.1'],
    });
    await expect(resolveTarget('https://mixed.example/h', { allowPrivate: false, resolve })).rejects.toThrow(
      /resolves to 10\.0\.0\.5, a private, loopback or link-local address/,
    );
    await expect(resolveTarget('https://mapped.example/h', { allowPrivate: false, resolve })).rejects.toThrow(
      /::ffff:127\.0\.0\.1/,
    );
    await expect(resolveTarget('https://[::1]:8443/h', { allowPrivate: false, resolve })).rejects.toThrow(/::1/);
    await expect(resolveTarget('https://nowhere.example/h', { allowPrivate: false, resolve })).rejects.toThrow(
      /does not resolve/,
    );
    await expect(resolveTarget('http://public.example/h', { allowPrivate: false, resolve })).rejects.toThrow(
      /must use https/,
    );
    await expect(resolveTarget('https://user:pw@public.example/h', { allowPrivate: false, resolve })).rejects.toThrow(
      /no credentials/,
    );
    expect(await resolveTarget('https://public.example/h', { allowPrivate: false, resolve })).toMatchObject({
      address: '2606:4700::1111',
      family: 6,
    });
    // The development setting lets loopback and http through.
    expect(await resolveTarget('http://mapped.example/h', { allowPrivate: true, resolve })).toMatchObject({
      address: '::ffff:127.0.0.1',
    });
  });

  it('when the checked address is pinned, then the connection goes there, whatever the name would resolve to now', async () => {
    const receiver = await startReceiver();
    try {
      const port = new URL(receiver.url('/')).port;
      // Nothing resolves `rebind.invalid`: only the pinned address can have reached the receiver.
      const target = await resolveTarget(`http://rebind.invalid:${port}/pinned`, {
        allowPrivate: true,
        resolve: answers({ 'rebind.invalid': ['127.0.0.1'] }),
      });
      const result = await postTo(target, '{}', { 'Content-Type': 'application/json' }, 2000);
      expect(result).toMatchObject({ ok: true, statusCode: 200, responseExcerpt: 'ok' });
      expect(receiver.received[0]).toMatchObject({ path: '/pinned' });
      expect(receiver.received[0]!.headers.host).toBe(`rebind.invalid:${port}`);
    } finally {
      await receiver.close();
    }
  });

  it('when production creates a webhook to a loopback address, then it is refused with a 400 on the url', async () => {
    const service = webhookService({
      knex: {} as Knex,
      audit: {} as AuditTrail,
      allowPrivateTargets: false,
      resolve: answers({ 'internal.example': ['192.168.0.10'] }),
    });
    const auth: AuthContext = {
      userId: '8d2f4b6a-0c1e-4f3a-9b5d-7e9f1a3c5b7d',
      permissions: {
        platform: ['cluster.read', 'user.read'],
        clusters: {},
        is_super_admin: false,
        must_change_password: false,
        must_enrol_second_factor: false,
      },
    };
    for (const url of ['https://internal.example/h', 'https://127.0.0.1/h', 'http://[::ffff:169.254.169.254]/h']) {
      const refused = service.create(auth, { url, event_types: ['createCluster'] });
      await expect(refused).rejects.toBeInstanceOf(BadRequestError);
      await expect(refused).rejects.toMatchObject({ errors: [{ path: '/body/url' }] });
    }
  });
});

describe('the verification sample of docs/webhooks.md', () => {
  it('when it checks a delivery signed by the server, then it accepts it, and refuses a changed body or an old timestamp', async () => {
    const doc = readFileSync(path.join(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');
    const sample = /<!-- verify-sample:start -->\n```js\n([\s\S]*?)```\n<!-- verify-sample:end -->/.exec(doc)![1]!;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-sample-'));
    try {
      writeFileSync(path.join(dir, 'verify.mjs'), sample);
      const { verifyPlatformSignature } = (await import(pathToFileURL(path.join(dir, 'verify.mjs')).href)) as {
        verifyPlatformSignature: (secret: string, header: string, body: string) => boolean;
      };
      const secret = newWebhookSecret();
      const body = '{"id":"7d1e9c2b-4a6f-4b8d-9e0a-1c2d3e4f5a6b","type":"updateCluster"}';
      const now = Math.floor(Date.now() / 1000);
      expect(verifyPlatformSignature(secret, signatureHeader(secret, now, body), body)).toBe(true);
      expect(
        verifyPlatformSignature(secret, signatureHeader(secret, now, body), body.replace('update', 'delete')),
      ).toBe(false);
      expect(verifyPlatformSignature(secret, signatureHeader(secret, now - 3600, body), body)).toBe(false);
      expect(verifyPlatformSignature(newWebhookSecret(), signatureHeader(secret, now, body), body)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
