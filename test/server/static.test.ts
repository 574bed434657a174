// What the server serves besides the API: the published contract (/openapi.json, /openapi.yaml) naming this
// deployment, the reference docs (/docs, never the console), the console's files with their caching and compression,
// and the Content-Security-Policy that must not break a plain-HTTP deployment.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDocs } from '../../scripts/lib/docs.js';
import { loadConfig } from '../../server/src/config.js';
import { DOCS_BASE_URL_PLACEHOLDER, yamlDocument } from '../../server/src/http/published-spec.js';
import { API_SPEC_PATH } from '../../server/src/http/spec.js';
import { findDocsPage, referenceDocs } from '../../server/src/http/static.js';
import { startTestServer, type TestServer } from './support/index.js';
import { stringMatching } from '../support/matchers.js';

const bundle = JSON.parse(readFileSync(API_SPEC_PATH, 'utf8')) as {
  paths: Record<string, Record<string, { 'x-codeSamples'?: Array<{ source: string }> }>>;
};
const work = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-static-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A raw GET that keeps the body as sent (fetch would decompress it). */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('configuration of the public address and the proxy', () => {
  it('when PUBLIC_BASE_URL and TRUST_PROXY are valid, then they are normalised; when not, each is named', () => {
    const dataDir = path.join(work, 'config');
    expect(loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://Admin.Example.com/platform/' })).toMatchObject({
      publicBaseUrl: 'https://admin.example.com/platform',
      trustProxy: false,
    });
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
    ]);
    // Characters that would need escaping in the page are percent-encoded by URL parsing, never written as they are.
    expect(loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://x.example/"<script>' }).publicBaseUrl).toBe(
      'https://x.example/%22%3Cscript%3E',
    );
    for (const bad of [
      'ftp://x.example',
      'https://u:p@x.example',
      'https://x.example/?a=1',
      'https://x.example/#top',
      'not a url',
    ]) {
      expect(() => loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: bad }), bad).toThrow(/PUBLIC_BASE_URL/);
    }
    expect(() => loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
});

describe('the published contract', () => {
  let t: TestServer;
  let pub: TestServer;
  beforeAll(async () => {
    t = await startTestServer('pglite', { seed: false });
    pub = await startTestServer('pglite', {
      seed: false,
      env: { PUBLIC_BASE_URL: 'https://admin.example.com/platform' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await pub?.close();
  });

  it('when /openapi.json is fetched, then it is the bundle with one server: the address the request was sent to', async () => {
    const res = await t.fetch('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const spec = (await res.json()) as typeof bundle & { servers: Array<{ url: string }> };
    expect(spec.servers).toEqual([{ url: t.baseUrl, description: 'This deployment' }]);
    expect(Object.keys(spec.paths)).toEqual(Object.keys(bundle.paths));
    const sample = spec.paths['/api-system/clusters']!.get!['x-codeSamples']![0]!.source;
    expect(sample).toContain(`${t.baseUrl}/api-system/clusters`);
  });

  it('when PUBLIC_BASE_URL is set, then the servers list and the code samples name it, whatever Host was used', async () => {
    const spec = (await (
      await pub.fetch('/openapi.json', { headers: { Host: 'evil.example' } })
    ).json()) as typeof bundle & { servers: Array<{ url: string }> };
    expect(spec.servers).toEqual([{ url: 'https://admin.example.com/platform', description: 'This deployment' }]);
    const samples = Object.values(spec.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => op['x-codeSamples'] ?? []),
    );
    expect(samples.length).toBeGreaterThan(80);
    for (const s of samples) expect(s.source).not.toContain('127.0.0.1:3000');
  });

  it('when a Host header is not a plain host and port, then it is not written into the answer', async () => {
    const spec = (await (await t.fetch('/openapi.json', { headers: { Host: 'x"><script>' } })).json()) as {
      servers: Array<{ url: string }>;
    };
    expect(spec.servers[0]!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('when /openapi.yaml is fetched, then it is YAML of the same document', async () => {
    const res = await t.fetch('/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/yaml/);
    const fromYaml: unknown = parseYaml(await res.text());
    const fromJson: unknown = await (await t.fetch('/openapi.json')).json();
    expect(fromYaml).toEqual(fromJson);
  });

  it('when odd strings are written as YAML, then they read back the same', () => {
    const value = {
      'a: b': ['true', 'null', '', ' lead', 'trail ', 'x: y', '#hash', "it's", 'multi\nline', '1.0', 'NO'],
      nested: [[1, 2], { k: null }],
      '200': {},
      e: [],
    };
    expect(parseYaml(yamlDocument(value))).toEqual(value);
  });

  it('when the spec is fetched gzip- or brotli-encoded, then it is compressed and revalidated each time', async () => {
    const br = await rawGet(`${t.baseUrl}/openapi.json`, { 'Accept-Encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect((JSON.parse(brotliDecompressSync(br.body).toString('utf8')) as { openapi: string }).openapi).toBe('3.0.3');
    const gz = await rawGet(`${t.baseUrl}/openapi.json`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect((JSON.parse(gunzipSync(gz.body).toString('utf8')) as { openapi: string }).openapi).toBe('3.0.3');
  });
});

describe('the reference docs at /docs', () => {
  let t: TestServer;
  beforeAll(async () => {
    ensureDocs();
    t = await startTestServer('pglite', {
      seed: false,
      env: { PUBLIC_BASE_URL: 'https://admin.example.com/platform' },
    });
  }, 120_000);
  afterAll(() => t?.close());

  it('when /docs is opened, then it is the Redoc page naming PUBLIC_BASE_URL, with its own strict policy and no request elsewhere', async () => {
    const res = await t.fetch('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const policy = res.headers.get('content-security-policy')!;
    expect(policy).toContain("img-src 'self' data: blob:");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain('upgrade-insecure-requests');
    const html = await res.text();
    expect(html).toContain('<title>Platform Administration API</title>');
    expect(html).toContain('https://admin.example.com/platform/api-system/clusters');
    expect(html).not.toContain(DOCS_BASE_URL_PLACEHOLDER);
    expect(html).not.toContain('cdn.redoc.ly');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toContain('<div id="root">');
  });

  it('when the docs page of this contract is missing or outdated, then /docs says so with 503 instead of showing the console', async () => {
    const root = path.join(work, 'no-docs');
    mkdirSync(path.join(root, 'api-docs'), { recursive: true });
    expect(findDocsPage(root, readFileSync(API_SPEC_PATH, 'utf8'))).toMatchObject({
      file: null,
      reason: stringMatching(/not built/),
    });
    writeFileSync(
      path.join(root, 'api-docs', 'index.html'),
      '<!DOCTYPE html>\n<!-- platform-admin docs of spec 0000000000000000 -->',
    );
    expect(findDocsPage(root, readFileSync(API_SPEC_PATH, 'utf8'))).toMatchObject({
      file: null,
      reason: stringMatching(/another version/),
    });

    const app = express();
    app.get(
      '/docs',
      referenceDocs({ root, specPath: API_SPEC_PATH, publicBaseUrl: null, upgradeInsecure: () => false }),
    );
    const server: Server = createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/docs`);
      expect(res.status).toBe(503);
      expect(await res.text()).toMatch(/another version of the API contract.*npm start/s);
    } finally {
      server.close();
    }
  });
});

describe('the console files', () => {
  let t: TestServer;
  const consoleDir = path.join(work, 'console');
  const script = `console.log(${JSON.stringify('x'.repeat(20_000))});\n`;
  beforeAll(async () => {
    mkdirSync(path.join(consoleDir, 'assets'), { recursive: true });
    writeFileSync(
      path.join(consoleDir, 'index.html'),
      '<!doctype html><div id="root"></div><script type="module" src="/assets/index-AbCd12_-.js"></script>',
    );
    writeFileSync(path.join(consoleDir, 'assets', 'index-AbCd12_-.js'), script);
    writeFileSync(path.join(consoleDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await startTestServer('pglite', { seed: false, env: { CONSOLE_DIR: consoleDir } });
  });
  afterAll(() => t?.close());

  it('when a hashed asset is fetched, then it is compressed as the client accepts and cached for a year as immutable', async () => {
    const url = `${t.baseUrl}/assets/index-AbCd12_-.js`;
    const br = await rawGet(url, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    expect(br.body.length).toBeLessThan(script.length / 10);

    const gz = await rawGet(url, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);

    const plain = await rawGet(url, { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.body.toString()).toBe(script);
  });

  it('when the page is loaded, then index.html comes with no-cache, as do unhashed files', async () => {
    // The console routes after `/#/`: a client-side route reaches the server as `/`.
    for (const p of ['/', '/index.html']) {
      const res = await t.fetch(p, { headers: { Accept: 'text/html' } });
      expect(res.status, p).toBe(200);
      expect(res.headers.get('cache-control'), p).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root">');
    }
    expect((await t.fetch('/favicon.svg')).headers.get('cache-control')).toBe('no-cache');
  });
});

describe('Content-Security-Policy, HSTS and plain HTTP', () => {
  /** The CSP upgrade and HSTS go together: both only when the request reached the product over TLS. */
  const upgrade = (res: Response) => {
    const upgrades = (res.headers.get('content-security-policy') ?? '').includes('upgrade-insecure-requests');
    expect(res.headers.get('strict-transport-security') !== null, 'HSTS goes with the upgrade').toBe(upgrades);
    if (upgrades) expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    return upgrades;
  };
  const servers: TestServer[] = [];
  const serverWith = async (env: Record<string, string>) => {
    const s = await startTestServer('pglite', { seed: false, env });
    servers.push(s);
    return s;
  };
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it('when served over plain HTTP with nothing configured (HOST=0.0.0.0 on a LAN), then no upgrade-insecure-requests (it would blank the console)', async () => {
    const t = await serverWith({ HOST: '0.0.0.0' });
    expect(upgrade(await t.fetch('/healthz'))).toBe(false);
    expect(
      upgrade(await t.fetch('/healthz', { headers: { 'X-Forwarded-Proto': 'https' } })),
      'an untrusted X-Forwarded-Proto counts for nothing',
    ).toBe(false);
    expect((await t.fetch('/healthz')).headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('when PUBLIC_BASE_URL is https, then every answer upgrades insecure requests', async () => {
    const t = await serverWith({ PUBLIC_BASE_URL: 'https://admin.example.com' });
    expect(upgrade(await t.fetch('/healthz'))).toBe(true);
    expect(upgrade(await t.fetch('/api-system/clusters'))).toBe(true);
  });

  it('when TRUST_PROXY names the proxy, then a request it says arrived over TLS upgrades, one over HTTP does not', async () => {
    const t = await serverWith({ TRUST_PROXY: 'loopback' });
    expect(upgrade(await t.fetch('/healthz', { headers: { 'X-Forwarded-Proto': 'https' } }))).toBe(true);
    expect(upgrade(await t.fetch('/healthz', { headers: { 'X-Forwarded-Proto': 'http' } }))).toBe(false);
    expect(upgrade(await t.fetch('/healthz'))).toBe(false);
  });
});
