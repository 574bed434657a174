import { beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from 'react-admin';
import { createApi } from './api';
import { createDataProvider } from './index';
import { filenameOf, localFileName, type ExportProgress } from './methods/csvExport';
import { tokenStore } from './tokens';

const BASE = 'http://localhost:3997';
const CSV_HEADERS = {
  'Content-Type': 'text/csv; charset=utf-8',
  'Content-Disposition': 'attachment; filename="clusters-2026-11-24.csv"',
};

/** A CSV body that arrives in the given chunks, as a long export does. */
const streamed = (chunks: string[], headers: Record<string, string> = CSV_HEADERS) => {
  const bytes = chunks.map((c) => new TextEncoder().encode(c));
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = bytes.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    }),
    { status: 200, headers },
  );
};

function fakeServer(respond: (url: URL) => Response) {
  const calls: { url: URL; authorization: string | null }[] = [];
  const fetch = async (req: Request) => {
    const url = new URL(req.url);
    calls.push({ url, authorization: req.headers.get('Authorization') });
    return respond(url);
  };
  const query = (i = 0) => Object.fromEntries(calls[i]!.url.searchParams);
  return { calls, query, provider: createDataProvider(createApi({ baseUrl: BASE, fetch })) };
}

const BOM = '\uFEFF';
const listParams = {
  filter: { search: 'andaman', is_active: true, deleted: 'include' },
  sort: { field: 'name', order: 'DESC' },
} as const;

beforeEach(() => {
  localStorage.clear();
  tokenStore.set({ access_token: 'a', refresh_token: 'r' });
});

describe('the CSV export', () => {
  it('sends the list’s filter, sort and page for "this page", with the bearer token, and names the file with the server’s base name and the local day', async () => {
    const { calls, query, provider } = fakeServer(() => streamed([`${BOM}Code,Name\r\n`, 'CL-A,Andaman\r\n']));
    const file = await provider.exportCsv({ resource: 'clusters', ...listParams }, { page: { page: 2, perPage: 25 } });
    expect(calls[0]!.url.pathname).toBe('/api-system/clusters/export');
    expect(calls[0]!.authorization).toBe('Bearer a');
    expect(query()).toEqual({
      page: '2',
      perpage: '25',
      sort: 'name:desc',
      search: 'andaman',
      is_active: 'true',
      deleted: 'include',
    });
    expect(file.filename).toBe(localFileName(undefined, 'clusters', new Date()));
    expect(file.blob.type).toBe('text/csv;charset=utf-8');
    // The bytes are kept as sent: the BOM stays, so spreadsheets read UTF-8.
    expect(new Uint8Array(await file.blob.arrayBuffer()).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    expect((await file.blob.text()).replace(BOM, '')).toBe('Code,Name\r\nCL-A,Andaman\r\n');
  });

  it('sends no page for every matching row', async () => {
    const { query, provider } = fakeServer(() => streamed(['Code\r\n']));
    await provider.exportCsv({
      resource: 'business-units',
      filter: { cluster_id: 'c1' },
      sort: { field: 'code', order: 'ASC' },
    });
    expect(query()).toEqual({ sort: 'code:asc', cluster_id: 'c1' });
  });

  it('builds each list’s own query: accounts, the audit log and the member lists', async () => {
    const { calls, query, provider } = fakeServer(() => streamed(['A\r\n']));
    await provider.exportCsv({
      resource: 'users',
      filter: { search: 'som', has_grants: true },
      sort: { field: 'username', order: 'ASC' },
    });
    await provider.exportCsv(
      { resource: 'audit-events', filter: { action: 'updateCluster', actor_id: '' } },
      { page: { page: 1, perPage: 25 } },
    );
    await provider.exportCsv({ resource: 'cluster-members', filter: { cluster_id: 'c1' } });
    await provider.exportCsv({ resource: 'business-unit-members', filter: { business_unit_id: 'b1' } });
    expect(calls.map((c) => c.url.pathname)).toEqual([
      '/api-system/users/export',
      '/api-system/audit-events/export',
      '/api-system/user/clusters/export',
      '/api-system/user/business-units/export',
    ]);
    expect(query(0)).toEqual({ sort: 'username:asc', search: 'som', has_grants: 'true' });
    expect(query(1)).toEqual({ action: 'updateCluster', page: '1', perpage: '25' });
    expect(query(2)).toEqual({ cluster_id: 'c1' });
    expect(query(3)).toEqual({ business_unit_id: 'b1' });
  });

  it('reports bytes and rows as the body arrives', async () => {
    const { provider } = fakeServer(() => streamed(['Code,Name\r\nA,1\r\n', 'B,2\r\nC,3\r\n']));
    const progress: ExportProgress[] = [];
    await provider.exportCsv({ resource: 'clusters', ...listParams }, { onProgress: (p) => progress.push(p) });
    expect(progress).toEqual([
      { bytes: 16, rows: 1 },
      { bytes: 26, rows: 3 },
    ]);
  });

  it('falls back to <resource>-<date>.csv without a Content-Disposition', async () => {
    const { provider } = fakeServer(() => streamed(['A\r\n'], { 'Content-Type': 'text/csv' }));
    const file = await provider.exportCsv({ resource: 'audit-events', filter: {} });
    expect(file.filename).toMatch(/^audit-events-\d{4}-\d{2}-\d{2}\.csv$/);
  });

  it('turns a problem into an HttpError with its detail', async () => {
    const { provider } = fakeServer(
      () =>
        new Response(
          JSON.stringify({
            type: 'about:blank',
            title: 'Forbidden',
            status: 403,
            detail: 'Missing permission user.read',
          }),
          {
            status: 403,
            headers: { 'Content-Type': 'application/problem+json' },
          },
        ),
    );
    const failure = provider.exportCsv({ resource: 'users', filter: {}, sort: { field: 'username', order: 'ASC' } });
    await expect(failure).rejects.toBeInstanceOf(HttpError);
    await expect(failure).rejects.toMatchObject({ status: 403, message: 'Missing permission user.read' });
  });

  it('stops reading when aborted', async () => {
    const abort = new AbortController();
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        controller.enqueue(new TextEncoder().encode('row\r\n'));
        if (sent === 3) abort.abort();
      },
    });
    const { provider } = fakeServer(() => new Response(endless, { status: 200, headers: CSV_HEADERS }));
    await expect(
      provider.exportCsv({ resource: 'clusters', ...listParams }, { signal: abort.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(sent).toBeLessThan(10);
  });
});

describe('the file name of a Content-Disposition', () => {
  it('reads the quoted, bare and RFC 5987 forms, and never a path', () => {
    expect(filenameOf('attachment; filename="users-2026-11-24.csv"')).toBe('users-2026-11-24.csv');
    expect(filenameOf('attachment; filename=users.csv')).toBe('users.csv');
    expect(filenameOf(`attachment; filename="x.csv"; filename*=UTF-8''%E0%B8%81.csv`)).toBe('ก.csv');
    expect(filenameOf('attachment; filename="../../etc/x.csv"')).toBe('x.csv');
    expect(filenameOf('attachment')).toBeUndefined();
    expect(filenameOf(null)).toBeUndefined();
  });
});
