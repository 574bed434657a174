// Security headers on every kind of answer, the CORS policy (docs/operations.md, "Security headers and CORS"), and no secret
// in the logs of a sign-in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { loadConfig, ConfigError } from '../../server/src/config.js';
import { startTestServer, type TestServer } from '../server/support/index.js';
import { startServerProcess, type ServerProcess } from './support.js';

const SECURITY_HEADERS: Record<string, RegExp> = {
  'x-content-type-options': /^nosniff$/,
  'x-frame-options': /^SAMEORIGIN$/,
  'referrer-policy': /^no-referrer$/,
  'cross-origin-opener-policy': /^same-origin$/,
  'cross-origin-resource-policy': /^same-site$/,
  'content-security-policy': /default-src 'self'.*frame-ancestors 'self'|frame-ancestors 'self'.*default-src 'self'/,
};

describe('security headers and CORS', () => {
  let t: TestServer;
  let cors: TestServer;
  let admin: string;
  beforeAll(async () => {
    t = await startTestServer('pglite');
    cors = await startTestServer('pglite', {
      env: { CORS_ORIGINS: 'https://console.example.com, http://localhost:5173' },
    });
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t?.close();
    await cors?.close();
  });

  it('sends the security headers on successes, problems, 404s and health, and no X-Powered-By', async () => {
    const answers = [
      await t.fetch('/api-system/clusters', { token: admin }),
      await t.fetch('/api-system/clusters'),
      await t.fetch('/api-system/clusters/not-a-uuid', { token: admin }),
      await t.fetch('/api/nothing-here', { token: admin }),
      await t.fetch('/healthz'),
      await t.fetch('/api/auth/login', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } }),
    ];
    for (const res of answers) {
      for (const [name, pattern] of Object.entries(SECURITY_HEADERS))
        expect(res.headers.get(name), `${res.url} ${name}`).toMatch(pattern);
      expect(res.headers.get('x-powered-by')).toBeNull();
      // This server answers plain HTTP: HSTS only over TLS (test/server/static.test.ts).
      expect(res.headers.get('strict-transport-security')).toBeNull();
      expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]+$/);
      await res.arrayBuffer();
    }
  });

  it('answers HEAD like GET without a body, and refuses it without a token like GET', async () => {
    const head = await t.fetch('/api-system/clusters?perpage=5', { method: 'HEAD', token: admin });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/application\/json/);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const anonymous = await t.fetch('/api-system/clusters', { method: 'HEAD' });
    expect(anonymous.status).toBe(401);
    expect((await t.fetch('/healthz', { method: 'HEAD' })).status).toBe(200);
  });

  it('sends no CORS headers by default: not to a foreign origin, not on a preflight', async () => {
    const simple = await t.fetch('/api-system/clusters', { token: admin, headers: { Origin: 'https://evil.example' } });
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
    expect(simple.headers.get('access-control-allow-credentials')).toBeNull();
    const preflight = await t.fetch('/api-system/clusters', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://evil.example',
        'Access-Control-Request-Method': 'DELETE',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
    expect(preflight.status).toBeGreaterThanOrEqual(400);
  });

  it('with CORS_ORIGINS, echoes only an allow-listed origin, never * nor credentials, and answers its preflight', async () => {
    const token = await cors.login('admin');
    const ok = await cors.fetch('/api-system/clusters', { token, headers: { Origin: 'https://console.example.com' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://console.example.com');
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
    expect(ok.headers.get('access-control-expose-headers')).toContain('ETag');
    expect(ok.headers.get('vary')).toMatch(/Origin/);
    const preflight = await cors.fetch('/api-system/clusters/00000000-0000-4000-8000-000000000000', {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'authorization,content-type,if-match',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/If-Match/);
    const foreign = await cors.fetch('/api-system/clusters', {
      token,
      headers: { Origin: 'https://console.example.com.evil.example' },
    });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const foreignPreflight = await cors.fetch('/api-system/clusters', {
      method: 'OPTIONS',
      headers: { Origin: 'null', 'Access-Control-Request-Method': 'GET' },
    });
    expect(foreignPreflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a CORS_ORIGINS entry that is not an origin', () => {
    for (const bad of [
      '*',
      'console.example.com',
      'https://console.example.com/app',
      'ftp://x.example',
      'https://user:pw@x.example',
    ]) {
      expect(() => loadConfig({ NODE_ENV: 'test', CORS_ORIGINS: bad, JWT_SECRET: 'x'.repeat(40) }), bad).toThrow(
        ConfigError,
      );
    }
    expect(
      loadConfig({
        NODE_ENV: 'test',
        CORS_ORIGINS: 'https://a.example, http://localhost:5173',
        JWT_SECRET: 'x'.repeat(40),
      }).corsOrigins,
    ).toEqual(['https://a.example', 'http://localhost:5173']);
  });
});

describe('secrets in logs', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({
      DATABASE_URL: 'memory://',
      LOG_LEVEL: 'trace',
      JWT_SECRET: 'log-test-secret-'.padEnd(48, 'z'),
    });
  }, 120_000);
  afterAll(() => server?.stop());

  it('never writes the password, the access token or the refresh token of a sign-in, a refresh or a failed sign-in', async () => {
    const post = (p: string, body: unknown, token?: string) =>
      fetch(server.url + p, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    const secrets: string[] = ['admin123', 'wrong-password-9876', 'log-test-secret-'];
    const login = await post('/api/auth/login', { username: 'admin', password: 'admin123' });
    expect(login.status).toBe(200);
    const pair = (await login.json()) as { access_token: string; refresh_token: string };
    secrets.push(pair.access_token, pair.refresh_token, pair.access_token.split('.')[2]!);
    expect((await post('/api/auth/login', { username: 'admin', password: 'wrong-password-9876' })).status).toBe(401);
    // A malformed body that echoes the password back in a validation error.
    expect((await post('/api/auth/login', { username: ['admin'], password: 'admin123' })).status).toBe(400);
    const refreshed = await post('/api/auth/refresh-token', { refresh_token: pair.refresh_token });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { access_token: string; refresh_token: string };
    secrets.push(next.access_token, next.refresh_token);
    await (
      await fetch(`${server.url}/api-system/clusters`, { headers: { authorization: `Bearer ${next.access_token}` } })
    ).arrayBuffer();
    await (await post('/api/auth/logout', { refresh_token: next.refresh_token })).arrayBuffer();
    await new Promise((r) => setTimeout(r, 300));
    const log = server.output();
    expect(log).toMatch(/"path":"\/api\/auth\/login"/);
    for (const secret of secrets) expect(log.includes(secret), `the log contains ${secret.slice(0, 12)}…`).toBe(false);
  });

  it('when a quiet server answers one request, then its log line reaches stdout within two seconds, though lines are written in batches', async () => {
    const requestId = `quiet-${Date.now()}`;
    await (await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': requestId } })).arrayBuffer();
    // Far less than the 4 KB a batch waits for: only the periodic flush can write it.
    await expect
      .poll(() => server.output().includes(`"id":"${requestId}"`), { timeout: 2_000, interval: 20 })
      .toBe(true);
  });

  it('answers what the HTTP parser refuses (oversized URL or headers, garbage) as problems, and keeps serving', async () => {
    const raw = (text: string) =>
      new Promise<string>((resolve) => {
        const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1', () => socket.write(text));
        let data = '';
        socket.on('data', (c: Buffer) => (data += c.toString()));
        socket.on('close', () => resolve(data));
        socket.on('error', () => resolve(data));
      });
    const cases: Array<[string, number]> = [
      [`GET /api-system/clusters?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
      [`GET /api-system/clusters HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(20_000)}\r\n\r\n`, 431],
      ['BLAH BLAH\r\n\r\n', 400],
      ['GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400],
    ];
    for (const [request, status] of cases) {
      const answer = await raw(request);
      expect(answer.split('\r\n')[0]).toBe(
        `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}`,
      );
      expect(answer).toMatch(/content-type: application\/problem\+json/i);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ status, type: 'about:blank' });
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
