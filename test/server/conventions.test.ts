// The wire conventions every operation shares (docs/adr/0001-wire-conventions.md), checked over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyString } from '../support/matchers.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

describe.each(engines())('wire conventions on %s', (engine) => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    t = await startTestServer(engine);
    token = await t.login('admin');
  });
  afterAll(() => t?.close());

  const problemOf = async (res: Response) => {
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    return (await res.json()) as { status: number; detail?: string; errors?: Array<{ path: string }> };
  };

  it('when sort is sent with a plain colon, as documented, then it is accepted', async () => {
    const res = await t.fetch('/api-system/clusters?sort=code:asc,name:desc', { token });
    expect(res.status).toBe(200);
    const codes = ((await res.json()) as { data: Array<{ code: string }> }).data.map((c) => c.code);
    expect(codes).toEqual([...codes].sort());
  });

  it('when sort names a field outside the whitelist, then a 400 problem names the parameter', async () => {
    const res = await t.fetch('/api-system/business-units?sort=password_hash:asc', { token });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors?.some((e) => e.path.includes('sort'))).toBe(true);
  });

  it('when a path id is not a UUID, then a 400 problem is returned, never a 500', async () => {
    for (const path of [
      '/api-system/clusters/not-a-uuid',
      '/api-system/print-template-mappings/1',
      '/api/proxy/api/me/dashboard-widgets/x',
    ]) {
      const res = await t.fetch(path, { token, method: path.includes('widgets') ? 'DELETE' : 'GET' });
      expect(res.status, path).toBe(400);
      await problemOf(res);
    }
  });

  it('when a record does not exist, then a 404 problem is returned', async () => {
    const res = await t.fetch('/api-system/clusters/00000000-0000-4000-8000-000000000000', { token });
    expect(res.status).toBe(404);
    expect((await problemOf(res)).status).toBe(404);
  });

  it('when an API path is unknown, then a 404 problem is returned', async () => {
    const res = await t.fetch('/api-system/no-such-thing', { token });
    expect(res.status).toBe(404);
    await problemOf(res);
  });

  it('when perpage is out of range, then a 400 problem explains the limit', async () => {
    for (const perpage of ['0', '101', '-2', 'ten']) {
      const res = await t.fetch(`/api-system/clusters?perpage=${perpage}`, { token });
      expect(res.status, perpage).toBe(400);
      await problemOf(res);
    }
  });

  it('when a list is read, then the paging envelope says total, page, perpage, pages and the next cursor', async () => {
    const res = await t.fetch('/api-system/clusters?perpage=1&page=2', { token });
    const body = (await res.json()) as {
      data: unknown[];
      paginate: { total: number; page: number; perpage: number; pages: number };
    };
    expect(body.data).toHaveLength(1);
    // The large lists also carry the cursor to the next page (null on the last one).
    expect(body.paginate).toEqual({
      total: body.paginate.total,
      page: 2,
      perpage: 1,
      pages: body.paginate.total,
      next_cursor: body.paginate.total > 2 ? anyString() : null,
    });
  });

  it('when a request is answered, then it carries a request id that problems repeat', async () => {
    const res = await t.fetch('/api-system/clusters/00000000-0000-4000-8000-000000000000', { token });
    const id = res.headers.get('x-request-id');
    expect(id).toBeTruthy();
    expect(((await res.json()) as { request_id: string }).request_id).toBe(id);
  });

  it('when an API answer is read, then browsers are told not to cache it, so a reload after an upload is fresh', async () => {
    const res = await t.fetch('/api-system/clusters', { token });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('when a request carries X-Request-Id, then the response echoes it; otherwise a new id is sent', async () => {
    const mine = await t.fetch('/healthz', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-123');
    const fresh = await t.fetch('/healthz');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when any response is sent, then security headers from helmet are present', async () => {
    const res = await t.fetch('/healthz');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('when a JSON body is larger than 1 MB, then a 413 problem is returned', async () => {
    const res = await t.fetch('/api/auth/login', {
      method: 'POST',
      json: { username: 'admin', password: 'x'.repeat(1_100_000) },
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });

  it('when the body has the wrong media type, then a 415 problem is returned', async () => {
    const res = await t.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'username=admin',
    });
    expect(res.status).toBe(415);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });
});

describe('contract enforcement of responses', () => {
  it('when a handler answers with a body the contract does not allow, then the response is refused with a 500 problem naming the contract', async () => {
    let t: TestServer | null = null;
    try {
      // A body with a field the contract does not have: the response validator must catch it.
      const getHealth = async () => ({
        status: 200 as const,
        body: { status: 'ok', database: 'ok', version: '1', extra: true } as never,
      });
      t = await startTestServer('pglite', { handlerOverrides: { getHealth } });
      const res = await t.fetch('/healthz');
      expect(res.status).toBe(500);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/does not match the API contract/);
    } finally {
      await t?.close();
    }
  });
});
