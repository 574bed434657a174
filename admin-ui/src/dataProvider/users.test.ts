import { beforeEach, describe, expect, it } from 'vitest';
import { createApi } from './api';
import { createDataProvider } from './index';
import { tokenStore } from './tokens';

const BASE = 'http://localhost:3998';

interface Seen {
  method: string;
  url: URL;
  body: unknown;
  ifMatch: string | null;
}

function fakeServer(respond: (seen: Seen) => Response) {
  const calls: Seen[] = [];
  const fetch = async (req: Request) => {
    const text = await req.text();
    const seen = {
      method: req.method,
      url: new URL(req.url),
      body: text ? (JSON.parse(text) as unknown) : undefined,
      ifMatch: req.headers.get('If-Match'),
    };
    calls.push(seen);
    return respond(seen);
  };
  return { calls, provider: createDataProvider(createApi({ baseUrl: BASE, fetch })) };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  status === 204
    ? new Response(null, { status })
    : new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const user = { id: 'u1', username: 'somchai.j', email: 's@x', is_active: true };
const call = (s: Seen) => `${s.method} ${s.url.pathname}`;

beforeEach(() => {
  localStorage.clear();
  tokenStore.set({ access_token: 'a', refresh_token: 'r' });
});

describe('the users resource', () => {
  it('lists accounts with search, status, grants and cluster filters', async () => {
    const { calls, provider } = fakeServer(() =>
      json({ data: [user], paginate: { total: 1, page: 1, perpage: 10, pages: 1 } }),
    );
    const res = await provider.getList('users', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'last_sign_in_at', order: 'DESC' },
      filter: { search: ' som ', is_active: false, has_grants: true, cluster_id: 'c1', deleted: 'include' },
    });
    expect(call(calls[0]!)).toBe('GET /api-system/users');
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({
      page: '1',
      perpage: '10',
      sort: 'last_sign_in_at:desc',
      search: 'som',
      is_active: 'false',
      has_grants: 'true',
      cluster_id: 'c1',
    });
    expect(res.data).toEqual([user]);
  });

  it('leaves a sort the account list does not know to the server’s default', async () => {
    const { calls, provider } = fakeServer(() =>
      json({ data: [], paginate: { total: 0, page: 1, perpage: 10, pages: 1 } }),
    );
    await provider.getList('users', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'display_name', order: 'ASC' },
      filter: {},
    });
    expect(calls[0]!.url.searchParams.has('sort')).toBe(false);
  });

  it('creates with the UserCreate fields only, and updates with If-Match from the last read', async () => {
    const { calls, provider } = fakeServer((seen) =>
      json(user, seen.method === 'POST' ? 201 : 200, { ETag: 'W/"u1-v1"' }),
    );
    await provider.create('users', {
      data: {
        ...user,
        id: 'x',
        firstname: 'S',
        middlename: null,
        lastname: null,
        password: 'Andaman-Sunrise-2026',
        grant_count: 3,
      },
    });
    expect(calls[0]!.body).toEqual({
      username: 'somchai.j',
      email: 's@x',
      firstname: 'S',
      middlename: null,
      lastname: null,
      password: 'Andaman-Sunrise-2026',
    });
    await provider.getOne('users', { id: 'u1' });
    await provider.update('users', {
      id: 'u1',
      data: { ...user, firstname: 'S', middlename: null, lastname: 'J', is_super_admin: true },
      previousData: user,
    });
    expect(call(calls[2]!)).toBe('PUT /api-system/users/u1');
    expect(calls[2]!.ifMatch).toBe('W/"u1-v1"');
    expect(calls[2]!.body).toEqual({
      username: 'somchai.j',
      email: 's@x',
      firstname: 'S',
      middlename: null,
      lastname: 'J',
    });
  });

  it('refuses to delete an account (accounts are deactivated)', async () => {
    const { calls, provider } = fakeServer(() => json({}));
    await expect(provider.delete('users', { id: 'u1', previousData: user })).rejects.toThrow('users cannot be deleted');
    expect(calls).toHaveLength(0);
  });
});

describe('the account, grant and audit calls', () => {
  it('call the contract’s paths', async () => {
    const { calls, provider } = fakeServer((seen) =>
      seen.method === 'DELETE' && seen.url.pathname.includes('/grants/')
        ? json(null, 204)
        : seen.url.pathname.endsWith('/grants') && seen.method === 'GET'
          ? json({ data: [], is_super_admin: false })
          : json(user),
    );
    await provider.deactivateUser('u1');
    await provider.reactivateUser('u1');
    await provider.resetUserPassword('u1', 'Reset-Andaman-2026');
    await provider.unlockUser('u1');
    await provider.revokeSuperAdmin('u1');
    await provider.getUserGrants('u1');
    await provider.addUserGrant('u1', { permission_key: 'cluster.read', cluster_id: null });
    await provider.removeUserGrant('u1', 'g1');
    expect(calls.map(call)).toEqual([
      'POST /api-system/users/u1/deactivate',
      'POST /api-system/users/u1/reactivate',
      'POST /api-system/users/u1/password-reset',
      'POST /api-system/users/u1/unlock',
      'DELETE /api-system/users/u1/super-admin',
      'GET /api-system/users/u1/grants',
      'POST /api-system/users/u1/grants',
      'DELETE /api-system/users/u1/grants/g1',
    ]);
    expect(calls[2]!.body).toEqual({ password: 'Reset-Andaman-2026' });
    expect(calls[6]!.body).toEqual({ permission_key: 'cluster.read', cluster_id: null });
  });

  it('turn a refused grant into an error with the server’s detail', async () => {
    const { provider } = fakeServer(() =>
      json(
        {
          type: 'about:blank',
          title: 'Forbidden',
          status: 403,
          detail: 'You do not hold cluster.delete on all clusters',
        },
        403,
      ),
    );
    await expect(
      provider.addUserGrant('u1', { permission_key: 'cluster.delete', cluster_id: null }),
    ).rejects.toMatchObject({
      status: 403,
      message: 'You do not hold cluster.delete on all clusters',
    });
  });

  it('list audit events with only the filters given', async () => {
    const { calls, provider } = fakeServer(() =>
      json({ data: [], paginate: { total: 0, page: 1, perpage: 10, pages: 1 } }),
    );
    await provider.listAuditEvents({
      target_type: 'cluster',
      target_id: 'c1',
      page: 1,
      perpage: 10,
      action: '',
      actor_id: undefined,
    });
    expect(call(calls[0]!)).toBe('GET /api-system/audit-events');
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({
      target_type: 'cluster',
      target_id: 'c1',
      page: '1',
      perpage: '10',
    });
  });
});
