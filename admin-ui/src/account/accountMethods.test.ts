import { beforeEach, describe, expect, it } from 'vitest';
import { createApi } from '../dataProvider/api';
import { createDataProvider } from '../dataProvider';
import { tokenStore } from '../dataProvider/tokens';

const BASE = 'http://localhost:3997';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });

function server(respond: (method: string, path: string, body: unknown) => Response) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetch = async (req: Request) => {
    const text = await req.text();
    const call = {
      method: req.method,
      path: new URL(req.url).pathname,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
    calls.push(call);
    return respond(call.method, call.path, call.body);
  };
  return { calls, provider: createDataProvider(createApi({ baseUrl: BASE, fetch })) };
}

const session = {
  id: '8f9e0d1c-2b3a-4c5d-9e6f-7a8b9c0d1e2f',
  created_at: '2026-11-20T07:45:00.000Z',
  last_used_at: '2026-11-20T09:15:00.000Z',
  ip: '203.0.113.7',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0',
  current: true,
};

beforeEach(() => {
  localStorage.clear();
  tokenStore.set({ access_token: 'a', refresh_token: 'r' });
});

describe('account methods', () => {
  it('changes the password with only the two fields of the contract', async () => {
    const { calls, provider } = server(() => new Response(null, { status: 204 }));
    await provider.changeMyPassword({
      current_password: 'old-password',
      new_password: 'Phuket-Lagoon-Morning-7',
      ...{ confirm: 'x' },
    });
    expect(calls).toEqual([
      {
        method: 'PUT',
        path: '/api-system/me/password',
        body: { current_password: 'old-password', new_password: 'Phuket-Lagoon-Morning-7' },
      },
    ]);
  });

  it('rejects a refused change with the detail as message and the problem in the body', async () => {
    const { provider } = server(() =>
      json(400, {
        type: 'https://platform-admin.dev/problems/validation',
        title: 'Bad Request',
        status: 400,
        detail: 'The current password is wrong.',
      }),
    );
    await expect(
      provider.changeMyPassword({ current_password: 'nope', new_password: 'Phuket-Lagoon-Morning-7' }),
    ).rejects.toMatchObject({
      status: 400,
      message: 'The current password is wrong.',
      body: { detail: 'The current password is wrong.' },
    });
  });

  it('lists, revokes one and revokes the other sessions', async () => {
    const { calls, provider } = server((method, path) => {
      if (method === 'GET') return json(200, { data: [session] });
      if (path.endsWith('/revoke-others')) return json(200, { revoked: 2 });
      return new Response(null, { status: 204 });
    });
    expect(await provider.listMySessions()).toEqual({ data: [session] });
    await provider.revokeMySession('s-2');
    expect(await provider.revokeMyOtherSessions()).toEqual({ revoked: 2 });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /api-system/me/sessions',
      'DELETE /api-system/me/sessions/s-2',
      'POST /api-system/me/sessions/revoke-others',
    ]);
  });
});
