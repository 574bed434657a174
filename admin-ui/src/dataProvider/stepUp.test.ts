import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createSession } from './session';
import { createStepUp, stepUpMethodsOf } from './stepUp';
import { tokenStore } from './tokens';

const BASE = 'http://localhost';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/problem+json' } });
const stepUpRequired = () =>
  json(403, { type: 'https://platform.example/problems/step-up-required', title: 'Forbidden', methods: ['totp'] });

beforeEach(() => {
  localStorage.clear();
  tokenStore.set({ access_token: 'a1', refresh_token: 'r1' });
});

describe('step-up in the session fetch', () => {
  it('asks once, then sends the same call again with its body, and answers what the retry answered', async () => {
    const stepUp = createStepUp();
    const detach = stepUp.attach();
    let confirmed = false;
    const bodies: string[] = [];
    const fetch = vi.fn(async (req: Request) => {
      bodies.push(await req.text());
      return confirmed ? json(200, { ok: true }) : stepUpRequired();
    });
    const { authFetch } = createSession({ baseUrl: BASE, fetch, stepUp: (m) => stepUp.request(m) });
    const call = authFetch(
      new Request(`${BASE}/api-system/users/u1/password-reset`, { method: 'POST', body: '{"password":"x"}' }),
    );
    await vi.waitFor(() => expect(stepUp.isAsking()).toBe(true));
    expect(stepUp.methods()).toEqual(['totp']);
    confirmed = true;
    stepUp.confirmed();
    const res = await call;
    expect(res.status).toBe(200);
    expect(bodies).toEqual(['{"password":"x"}', '{"password":"x"}']);
    expect(stepUp.isAsking()).toBe(false);
    detach();
  });

  it('returns the refusal when the user cancels, without sending the call again', async () => {
    const stepUp = createStepUp();
    stepUp.attach();
    const fetch = vi.fn(async () => stepUpRequired());
    const { authFetch } = createSession({ baseUrl: BASE, fetch, stepUp: (m) => stepUp.request(m) });
    const call = authFetch(new Request(`${BASE}/x`, { method: 'DELETE' }));
    await vi.waitFor(() => expect(stepUp.isAsking()).toBe(true));
    stepUp.cancelled();
    expect((await call).status).toBe(403);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('asks only once per call: a second refusal after confirming is returned as it came', async () => {
    const stepUp = createStepUp();
    stepUp.attach();
    const fetch = vi.fn(async () => stepUpRequired());
    const { authFetch } = createSession({ baseUrl: BASE, fetch, stepUp: (m) => stepUp.request(m) });
    const call = authFetch(new Request(`${BASE}/x`, { method: 'POST', body: '{}' }));
    await vi.waitFor(() => expect(stepUp.isAsking()).toBe(true));
    stepUp.confirmed();
    expect((await call).status).toBe(403);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(stepUp.isAsking()).toBe(false);
  });

  it('does not ask when no dialog is mounted', async () => {
    const stepUp = createStepUp();
    const fetch = vi.fn(async () => stepUpRequired());
    const { authFetch } = createSession({ baseUrl: BASE, fetch, stepUp: (m) => stepUp.request(m) });
    expect((await authFetch(new Request(`${BASE}/x`))).status).toBe(403);
    expect(stepUp.isAsking()).toBe(false);
  });

  it('returns a wrong code (401 second-factor-invalid) as it came, without refreshing the session', async () => {
    const fetch = vi.fn(async () => json(401, { type: 'https://platform.example/problems/second-factor-invalid' }));
    const { authFetch } = createSession({ baseUrl: BASE, fetch });
    expect((await authFetch(new Request(`${BASE}/api-system/me/step-up`, { method: 'POST' }))).status).toBe(401);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(tokenStore.access).toBe('a1');
  });

  it('reports a call refused until a second factor is set up', async () => {
    const onEnrolmentRequired = vi.fn();
    const fetch = vi.fn(async () =>
      json(403, { type: 'https://platform.example/problems/second-factor-enrolment-required' }),
    );
    const { authFetch } = createSession({ baseUrl: BASE, fetch, onEnrolmentRequired });
    expect((await authFetch(new Request(`${BASE}/api-system/clusters`))).status).toBe(403);
    expect(onEnrolmentRequired).toHaveBeenCalledOnce();
  });
});

describe('the methods a step-up offers', () => {
  it('keeps the ones the console knows, and offers all when none is listed', () => {
    expect(stepUpMethodsOf({ methods: ['passkey', 'sms'] })).toEqual(['passkey']);
    expect(stepUpMethodsOf({})).toEqual(['totp', 'recovery_code', 'passkey']);
  });
});
