// The wire conventions every operation shares (docs/adr/0001-wire-conventions.md), checked over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('when a list is read, then the paging envelope says total, page, perpage and pages', async () => {
    const res = await t.fetch('/api-system/clusters?perpage=1&page=2', { token });
    const body = (await res.json()) as {
      data: unknown[];
      paginate: { total: number; page: number; perpage: number; pages: number };
    };
    expect(body.data).toHaveLength(1);
    expect(body.paginate).toEqual({ total: body.paginate.total, page: 2, perpage: 1, pages: body.paginate.total });
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
});
