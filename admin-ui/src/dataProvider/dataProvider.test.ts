import { beforeEach, describe, expect, it } from 'vitest';
import { createApi } from './api';
import { createDataProvider } from './index';
import { tokenStore } from './tokens';

const BASE = 'http://localhost:3999';

interface Seen {
  method: string;
  url: URL;
  body: unknown;
  contentType: string | null;
  ifMatch: string | null;
}

function fakeServer(respond: (seen: Seen) => Response | Promise<Response>) {
  const calls: Seen[] = [];
  const fetch = async (req: Request) => {
    const url = new URL(req.url);
    const contentType = req.headers.get('Content-Type');
    let body: unknown;
    // The multipart body as sent: jsdom's File and Node's own multipart parser belong to different realms on Node 24.
    if (contentType?.startsWith('multipart/form-data')) body = await req.text();
    else {
      const text = await req.text();
      body = text ? JSON.parse(text) : undefined;
    }
    const seen = { method: req.method, url, body, contentType, ifMatch: req.headers.get('If-Match') };
    calls.push(seen);
    return respond(seen);
  };
  return { calls, provider: createDataProvider(createApi({ baseUrl: BASE, fetch })) };
}

const ok = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  localStorage.clear();
  tokenStore.set({ access_token: 'a', refresh_token: 'r' });
});

describe('data provider', () => {
  it('maps getList onto page/perpage/sort/filters and reads the envelope', async () => {
    const { calls, provider } = fakeServer(() =>
      ok({ data: [{ id: 'c1' }], paginate: { total: 21, page: 2, perpage: 10, pages: 3 } }),
    );
    const res = await provider.getList('clusters', {
      pagination: { page: 2, perPage: 10 },
      sort: { field: 'name', order: 'DESC' },
      filter: { search: 'abc', is_active: true, deleted: 'include' },
    });
    expect(calls[0]!.url.pathname).toBe('/api-system/clusters');
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({
      page: '2',
      perpage: '10',
      sort: 'name:desc',
      search: 'abc',
      is_active: 'true',
      deleted: 'include',
    });
    expect(res.total).toBe(21);
    expect(res.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true });
  });

  it('sends only writable fields on update', async () => {
    const { calls, provider } = fakeServer(() => ok({ id: 'c1', code: 'X' }));
    await provider.update('clusters', {
      id: 'c1',
      data: {
        id: 'c1',
        code: 'X',
        name: 'N',
        alias_name: null,
        max_license_bu: 3,
        is_active: true,
        bu_count: 2,
        audit: {},
      },
      previousData: { id: 'c1' },
    });
    expect(calls[0]!.method).toBe('PUT');
    expect(calls[0]!.url.pathname).toBe('/api-system/clusters/c1');
    expect(calls[0]!.body).toEqual({ code: 'X', name: 'N', alias_name: null, max_license_bu: 3, is_active: true });
  });

  it('uploads a logo as multipart with the form field "logo"', async () => {
    const { calls, provider } = fakeServer(() => ok({ url: 'http://img', expires_at: '2030-01-01T00:00:00Z' }, 201));
    const file = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'logo.jpg', { type: 'image/jpeg' });
    const res = await provider.uploadImage('business-units', 'b1', 'logo', file);
    expect(res.url).toBe('http://img');
    expect(calls[0]!.url.pathname).toBe('/api-system/business-units/b1/logo');
    expect(calls[0]!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(calls[0]!.body as string).toMatch(/Content-Disposition: form-data; name="logo"; filename="/);
    expect(calls[0]!.body as string).toMatch(/Content-Type: image\/jpeg/);
  });

  it('turns a problem response into an HttpError with the detail', async () => {
    const { provider } = fakeServer(() =>
      ok({ type: 'about:blank', title: 'Conflict', status: 409, detail: 'code already used' }, 409),
    );
    await expect(provider.create('clusters', { data: { code: 'A', name: 'B' } })).rejects.toMatchObject({
      status: 409,
      message: 'code already used',
    });
  });

  it('searches users with exclude_cluster_id in pages of 10', async () => {
    const { calls, provider } = fakeServer(() =>
      ok({ data: [], paginate: { total: 0, page: 1, perpage: 10, pages: 1 } }),
    );
    await provider.searchUsers({ search: 'som', page: 2, exclude_cluster_id: 'c1' });
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({
      page: '2',
      perpage: '10',
      search: 'som',
      exclude_cluster_id: 'c1',
    });
  });

  it('maps getManyReference onto the target filter and restore onto POST …/restore', async () => {
    const { calls, provider } = fakeServer((seen) =>
      seen.method === 'POST'
        ? ok({ id: 'b1' })
        : ok({ data: [], paginate: { total: 0, page: 1, perpage: -1, pages: 1 } }),
    );
    await provider.getManyReference('business-units', {
      target: 'cluster_id',
      id: 'c1',
      pagination: { page: 1, perPage: -1 },
      sort: { field: 'name', order: 'ASC' },
      filter: {},
    });
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({
      page: '1',
      perpage: '-1',
      sort: 'name:asc',
      cluster_id: 'c1',
    });
    await provider.restore('business-units', 'b1');
    expect(`${calls[1]!.method} ${calls[1]!.url.pathname}`).toBe('POST /api-system/business-units/b1/restore');
  });

  it('sends 34 BU fields at most and never the read-only ones', async () => {
    const { calls, provider } = fakeServer(() => ok({ id: 'b1' }));
    await provider.update('business-units', {
      id: 'b1',
      data: {
        id: 'b1',
        code: 'B',
        name: 'N',
        cluster_id: 'c1',
        cluster_name: 'x',
        users_count: 3,
        users: [],
        defaultCurrency: {},
        logo: { url: 'u' },
        db_connection: '{}',
      },
      previousData: { id: 'b1' },
    });
    expect(calls[0]!.body).toEqual({ code: 'B', name: 'N', cluster_id: 'c1', db_connection: '{}' });
  });

  it('sends the ETag of the last read as If-Match on update', async () => {
    const { calls, provider } = fakeServer(
      (seen) =>
        new Response(JSON.stringify({ id: 'c1', code: 'A', name: 'B' }), {
          status: 200,
          headers: { 'Content-Type': 'application/json', ETag: seen.method === 'GET' ? 'W/"v1"' : 'W/"v2"' },
        }),
    );
    const fetchIfMatch = (i: number) => calls[i]!;
    await provider.update('clusters', { id: 'c1', data: { code: 'A', name: 'B' }, previousData: { id: 'c1' } });
    await provider.getOne('clusters', { id: 'c1' });
    await provider.update('clusters', { id: 'c1', data: { code: 'A', name: 'C' }, previousData: { id: 'c1' } });
    await provider.update('clusters', { id: 'c1', data: { code: 'A', name: 'D' }, previousData: { id: 'c1' } });
    expect(fetchIfMatch(0).ifMatch).toBeNull();
    expect(fetchIfMatch(2).ifMatch).toBe('W/"v1"');
    expect(fetchIfMatch(3).ifMatch).toBe('W/"v2"');
  });

  it('sends the ETag of the version the form edits, for a mapping too, even after a refetch read a newer one', async () => {
    let version = 1;
    const { calls, provider } = fakeServer(
      () =>
        new Response(JSON.stringify({ id: 'm1', updated_at: `2026-11-0${version}T00:00:00.000Z` }), {
          status: 200,
          headers: { 'Content-Type': 'application/json', ETag: `W/"v${version}"` },
        }),
    );
    const { data: opened } = await provider.getOne<{ id: string; updated_at: string }>('print-template-mappings', {
      id: 'm1',
    });
    version = 2; // someone else saves; a background refetch reads their version
    await provider.getOne('print-template-mappings', { id: 'm1' });
    await provider.update('print-template-mappings', { id: 'm1', data: { display_order: 3 }, previousData: opened });
    expect(calls[2]!.method).toBe('PUT');
    expect(calls[2]!.ifMatch).toBe('W/"v1"');
    // Without the edited version, the last one read is sent.
    await provider.update('print-template-mappings', {
      id: 'm1',
      data: { display_order: 4 },
      previousData: { id: 'm1' },
    });
    expect(calls[3]!.ifMatch).toBe('W/"v2"');
  });

  it('removes an image with the record’s ETag', async () => {
    const { calls, provider } = fakeServer((seen) =>
      seen.method === 'DELETE'
        ? new Response(null, { status: 204 })
        : new Response(JSON.stringify({ id: 'b1', updated_at: 'x' }), {
            status: 200,
            headers: { 'Content-Type': 'application/json', ETag: 'W/"b1"' },
          }),
    );
    const { data: read } = await provider.getOne<{ id: string }>('business-units', { id: 'b1' });
    await provider.removeImage('business-units', 'b1', 'avatar', read);
    expect(calls[1]!.method).toBe('DELETE');
    expect(calls[1]!.url.pathname).toBe('/api-system/business-units/b1/avatar');
    expect(calls[1]!.ifMatch).toBe('W/"b1"');
  });

  it('sends a bulk action with its ids to the list’s bulk operation and returns the per-row results', async () => {
    const answer = {
      action: 'reactivate',
      succeeded: 1,
      failed: 1,
      results: [
        { id: 'u1', ok: true, status: 200 },
        {
          id: 'u2',
          ok: false,
          status: 403,
          problem: { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'No' },
        },
      ],
    };
    const { calls, provider } = fakeServer(() => ok(answer));
    const res = await provider.bulkAction('users', 'reactivate', ['u1', 'u2']);
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.url.pathname).toBe('/api-system/users/bulk');
    expect(calls[0]!.body).toEqual({ action: 'reactivate', ids: ['u1', 'u2'] });
    expect(res).toEqual(answer);
  });

  it('rejects a refused bulk call as a whole with the problem', async () => {
    const { provider } = fakeServer(() =>
      ok({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'At most 500 ids' }, 400),
    );
    await expect(provider.bulkAction('clusters', 'delete', ['c1'])).rejects.toMatchObject({
      status: 400,
      message: 'At most 500 ids',
    });
  });
});
