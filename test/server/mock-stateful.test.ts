// `npm run mock:stateful` answers CORS for any origin, as Prism does, and says so when it starts: a console or a tool
// served from another origin can call it without configuring anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess, waitForHttp, type Started } from '../support/processes.js';

let mock: Started;
let baseUrl: string;
const ORIGIN = 'https://some-tool.example';

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  mock = startProcess('node_modules/.bin/tsx', ['scripts/mock-stateful.ts'], {
    MOCK_PORT: String(port),
    LOG_LEVEL: 'warn',
    CORS_ORIGINS: '',
  });
  await waitForHttp(`${baseUrl}/healthz`, 90_000);
  for (let i = 0; i < 50 && !/CORS:/.test(mock.output()); i++) await new Promise((r) => setTimeout(r, 100));
}, 120_000);
afterAll(() => mock?.stop());

describe('the stateful mock and CORS', () => {
  it('when it starts, then it says that any origin may call it and how to turn that off', () => {
    expect(mock.output()).toMatch(/CORS: any origin may call this mock.*MOCK_CORS=off/);
  });

  it('when a browser on another origin sends a preflight, then it is answered 204 for that origin, its method and headers', async () => {
    const res = await fetch(`${baseUrl}/api-system/clusters`, {
      method: 'OPTIONS',
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, if-match',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/authorization.*content-type.*if-match/i);
    expect(res.headers.get('vary')).toMatch(/Origin/);
  });

  it('when it then signs in and reads, then the answers carry the origin and expose ETag and Location', async () => {
    const login = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin123' }),
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const { access_token } = (await login.json()) as { access_token: string };
    const list = await fetch(`${baseUrl}/api-system/clusters?perpage=1`, {
      headers: { Origin: 'http://localhost:5173', Authorization: `Bearer ${access_token}` },
    });
    expect(list.status).toBe(200);
    expect(list.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(list.headers.get('access-control-expose-headers')).toMatch(/ETag.*Location/);
  });

  it('when a request has no Origin (curl, server to server), then no CORS header is added', async () => {
    const res = await fetch(`${baseUrl}/healthz`);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
