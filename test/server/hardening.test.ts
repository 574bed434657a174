// Inputs a careless or hostile client sends: every mistake reported at once, no body buffered for a caller who may
// not upload, and no answer that tells a stranger which ids exist.
import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from './support/index.js';

/** Starts a multipart POST, sends 64 KB of a declared 5 MB body, and reports the status if the server answers first. */
function answersBeforeTheBodyEnds(t: TestServer, path: string, token?: string): Promise<number | 'waited for the body'> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, t.baseUrl);
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': 'multipart/form-data; boundary=xyz',
        'content-length': String(5 * 1024 * 1024),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve('waited for the body');
    }, 2_000);
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      req.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (err) => (err.message.includes('socket hang up') ? undefined : reject(err)));
    req.write(`--xyz\r\nContent-Disposition: form-data; name="logo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`);
    req.write(Buffer.alloc(64 * 1024));
  });
}

describe.each(engines())('hardening on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  let viewer: string;
  let operator: string;
  let editorA: string;

  beforeAll(async () => {
    t = await startTestServer(engine);
    [admin, viewer, operator, editorA] = await Promise.all([t.login('admin'), t.login('viewer'), t.login('operator'), t.login('editor-a')]);
  });
  afterAll(() => t?.close());

  it('when three fields are invalid, then the 400 names all three', async () => {
    const res = await t.fetch('/api-system/clusters', { method: 'POST', token: admin, json: { code: 'CL-Z', name: '', alias_name: 'TOOLONG', is_active: 'yes' } });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { errors: Array<{ path: string }> };
    const paths = problem.errors.map((e) => e.path);
    for (const field of ['name', 'alias_name', 'is_active']) expect(paths.some((p) => p.includes(field)), `${field} in ${paths.join(', ')}`).toBe(true);
  });

  it.each([
    ['anonymous, to the sign-in', '/api/auth/login', undefined],
    ['anonymous, to an upload', '/api-system/clusters/00000000-0000-4000-8000-000000000000/logo', undefined],
    ['anonymous, to health', '/healthz', undefined],
    ['without the grant, to an upload', '/api-system/clusters/00000000-0000-4000-8000-000000000000/logo', 'operator'],
  ] as const)('when a 5 MB multipart body is sent %s, then the server answers without reading it', async (_label, path, who) => {
    const status = await answersBeforeTheBodyEnds(t, path, who === 'operator' ? operator : undefined);
    expect(status).not.toBe('waited for the body');
    expect(status).toBeGreaterThanOrEqual(400);
  });

  it('when someone who may not read a cluster asks for its business unit, then the answer is the same as for a missing id', async () => {
    // editor-a holds CL-A only; the business unit is in CL-B.
    const { data } = (await (await t.fetch('/api-system/business-units?perpage=100', { token: admin })).json()) as { data: Array<{ id: string; code: string }> };
    const existing = data.find((b) => b.code.startsWith('B-'))!.id;
    const missing = randomUUID();
    for (const path of [`/api-system/business-units/${existing}`, `/api-system/user/business-units/${existing}`]) {
      const [a, b] = await Promise.all([t.fetch(path, { token: editorA }), t.fetch(path.replace(existing, missing), { token: editorA })]);
      expect(a.status, path).toBe(b.status);
      expect(((await a.json()) as { detail: string }).detail).toBe(((await b.json()) as { detail: string }).detail);
    }
    // A reader learns nothing new either way, and still gets the record.
    expect((await t.fetch(`/api-system/business-units/${existing}`, { token: viewer })).status).toBe(200);
  });
});
