// Inputs a careless or hostile client sends: every mistake reported at once, no body buffered for a caller who may
// not upload, and no answer that tells a stranger which ids exist.
import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from './support/index.js';

/** Starts a multipart POST, sends 64 KB of a declared 5 MB body, and reports the status if the server answers first. */
function answersBeforeTheBodyEnds(
  t: TestServer,
  path: string,
  token?: string,
): Promise<number | 'waited for the body'> {
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
    req.write(
      `--xyz\r\nContent-Disposition: form-data; name="logo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
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
    [admin, viewer, operator, editorA] = await Promise.all([
      t.login('admin'),
      t.login('viewer'),
      t.login('operator'),
      t.login('editor-a'),
    ]);
  });
  afterAll(() => t?.close());

  it('when three fields are invalid, then the 400 names all three', async () => {
    const res = await t.fetch('/api-system/clusters', {
      method: 'POST',
      token: admin,
      json: { code: 'CL-Z', name: '', alias_name: 'TOOLONG', is_active: 'yes' },
    });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { errors: Array<{ path: string }> };
    const paths = problem.errors.map((e) => e.path);
    for (const field of ['name', 'alias_name', 'is_active'])
      expect(
        paths.some((p) => p.includes(field)),
        `${field} in ${paths.join(', ')}`,
      ).toBe(true);
  });

  it.each([
    ['anonymous, to the sign-in', '/api/auth/login', undefined],
    ['anonymous, to an upload', '/api-system/clusters/00000000-0000-4000-8000-000000000000/logo', undefined],
    ['anonymous, to health', '/healthz', undefined],
    ['without the grant, to an upload', '/api-system/clusters/00000000-0000-4000-8000-000000000000/logo', 'operator'],
  ] as const)(
    'when a 5 MB multipart body is sent %s, then the server answers without reading it',
    async (_label, path, who) => {
      const status = await answersBeforeTheBodyEnds(t, path, who === 'operator' ? operator : undefined);
      expect(status).not.toBe('waited for the body');
      expect(status).toBeGreaterThanOrEqual(400);
    },
  );

  it('when someone who may not read a cluster asks for its business unit, then the answer is the same as for a missing id', async () => {
    // editor-a holds CL-A only; the business unit is in CL-B.
    const { data } = (await (await t.fetch('/api-system/business-units?perpage=100', { token: admin })).json()) as {
      data: Array<{ id: string; code: string }>;
    };
    const existing = data.find((b) => b.code.startsWith('B-'))!.id;
    const missing = randomUUID();
    for (const path of [`/api-system/business-units/${existing}`, `/api-system/user/business-units/${existing}`]) {
      const [a, b] = await Promise.all([
        t.fetch(path, { token: editorA }),
        t.fetch(path.replace(existing, missing), { token: editorA }),
      ]);
      expect(a.status, path).toBe(b.status);
      expect(((await a.json()) as { detail: string }).detail).toBe(((await b.json()) as { detail: string }).detail);
    }
    // A reader learns nothing new either way, and still gets the record.
    expect((await t.fetch(`/api-system/business-units/${existing}`, { token: viewer })).status).toBe(200);
  });
});

describe.each(engines())('versions, ids and lists on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  /** Sends the write twice with the first answer's ETag: the first proceeds, the stale second gets 412 and changes nothing. */
  async function staleWriteIsRefused(
    path: string,
    method: 'PATCH' | 'PUT',
    first: unknown,
    second: unknown,
    etag: string,
  ): Promise<void> {
    const ok = await t.fetch(path, { method, token: admin, json: first, headers: { 'If-Match': etag } });
    expect(ok.status, await ok.clone().text()).toBe(200);
    const newer = ok.headers.get('etag');
    expect(newer).toMatch(/^W\/"/);
    expect(newer).not.toBe(etag);
    const stale = await t.fetch(path, { method, token: admin, json: second, headers: { 'If-Match': etag } });
    expect(stale.status).toBe(412);
  }

  it('when a widget is changed with a stale If-Match, then 412', async () => {
    const created = await t.fetch('/api/proxy/api/me/dashboard-widgets', {
      method: 'POST',
      token: admin,
      json: { dataset_id: 'users.by-role', widget_type: 'pie' },
    });
    expect(created.status).toBe(201);
    const widget = (await created.json()) as { id: string };
    await staleWriteIsRefused(
      `/api/proxy/api/me/dashboard-widgets/${widget.id}`,
      'PATCH',
      { title: 'First' },
      { title: 'Second' },
      created.headers.get('etag')!,
    );
  });

  it('when a membership is changed with a stale If-Match, then 412, for clusters and business units alike', async () => {
    const { data: users } = (await (await t.fetch('/api-system/user?perpage=100', { token: admin })).json()) as {
      data: Array<{ id: string; username: string }>;
    };
    const cluster = (await (
      await t.fetch('/api-system/clusters', {
        method: 'POST',
        token: admin,
        json: { code: `IFM-${randomUUID().slice(0, 6)}`, name: 'If-Match' },
      })
    ).json()) as { id: string };
    const bu = (await (
      await t.fetch('/api-system/business-units', {
        method: 'POST',
        token: admin,
        json: { cluster_id: cluster.id, code: `IFM-${randomUUID().slice(0, 6)}`, name: 'If-Match BU' },
      })
    ).json()) as { id: string };
    const user = users.find((u) => u.username === 'operator')!;
    const cm = await t.fetch('/api-system/user/clusters', {
      method: 'POST',
      token: admin,
      json: { user_id: user.id, cluster_id: cluster.id, role: 'user', is_active: true },
    });
    expect(cm.status).toBe(201);
    await staleWriteIsRefused(
      `/api-system/user/clusters/${((await cm.json()) as { id: string }).id}`,
      'PUT',
      { role: 'admin' },
      { role: 'user' },
      cm.headers.get('etag')!,
    );
    const bm = await t.fetch('/api-system/user/business-units', {
      method: 'POST',
      token: admin,
      json: { user_id: user.id, business_unit_id: bu.id, role: 'user' },
    });
    expect(bm.status).toBe(201);
    await staleWriteIsRefused(
      `/api-system/user/business-units/${((await bm.json()) as { id: string }).id}`,
      'PATCH',
      { role: 'admin' },
      { is_active: false },
      bm.headers.get('etag')!,
    );
  });

  it('when a print mapping is asked for by a UUID of another version than 4, then 400', async () => {
    const res = await t.fetch('/api-system/print-template-mappings/6fa459ea-ee8a-11e6-8b6f-0800200c9a66', {
      token: admin,
    });
    expect(res.status).toBe(400);
  });

  it('when a mapping lists business-unit codes that no live unit has, then the mapping and resolve explain flag them', async () => {
    const { data: templates } = (await (
      await t.fetch('/api-system/report-templates?perpage=1', { token: admin })
    ).json()) as { data: Array<{ id: string }> };
    const res = await t.fetch('/api-system/print-template-mappings', {
      method: 'POST',
      token: admin,
      json: {
        document_type: 'CN',
        report_template_id: templates[0]!.id,
        allow_business_unit: ['A-PKT', 'A-PKTT'],
        deny_business_unit: ['NO-SUCH'],
      },
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { unknown_business_unit_codes: string[] }).unknown_business_unit_codes).toEqual([
      'A-PKTT',
      'NO-SUCH',
    ]);
    const explained = (await (
      await t.fetch('/api-system/print-template-mappings/resolve?document_type=CN&bu_code=A-PKT&explain=true', {
        token: admin,
      })
    ).json()) as {
      explanation: Array<{ unknown_business_unit_codes: string[] }>;
    };
    expect(explained.explanation.some((c) => c.unknown_business_unit_codes.includes('A-PKTT'))).toBe(true);
  });

  it('when a number format is nested thousands of levels deep, then 400 and nothing is stored', async () => {
    const nested = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const { data } = (await (await t.fetch('/api-system/business-units?perpage=1', { token: admin })).json()) as {
      data: Array<{ id: string; cluster_id: string; code: string; name: string }>;
    };
    const bu = data[0]!;
    const body = `{"cluster_id":"${bu.cluster_id}","code":"${bu.code}","name":"${bu.name}","amount_format":{"locales":"th-TH","nested":${nested}}}`;
    const res = await t.fetch(`/api-system/business-units/${bu.id}`, {
      method: 'PUT',
      token: admin,
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status, await res.clone().text()).toBe(400);
    const after = (await (await t.fetch(`/api-system/business-units/${bu.id}`, { token: admin })).json()) as {
      amount_format: unknown;
    };
    expect(JSON.stringify(after.amount_format)).not.toContain('nested');
  });
});

describe.each(engines())('free-form JSON on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  let bu: { id: string; cluster_id: string; code: string; name: string };

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
    const { data } = (await (await t.fetch('/api-system/business-units?perpage=1', { token: admin })).json()) as {
      data: Array<typeof bu>;
    };
    bu = data[0]!;
  });
  afterAll(() => t?.close());

  const save = (fields: Record<string, unknown>) =>
    t.fetch(`/api-system/business-units/${bu.id}`, {
      method: 'PUT',
      token: admin,
      json: { cluster_id: bu.cluster_id, code: bu.code, name: bu.name, ...fields },
    });

  it('when number-format text is JSON the contract accepts, then it is stored as the object; otherwise as the text', async () => {
    const good = await save({ amount_format: '{"locales":"th-TH","minimumIntegerDigits":2}' });
    expect(good.status, await good.clone().text()).toBe(200);
    expect(((await good.json()) as { amount_format: unknown }).amount_format).toEqual({
      locales: 'th-TH',
      minimumIntegerDigits: 2,
    });
    const odd = await save({ amount_format: '{"locales":"th_TH","nested":{"a":1}}' });
    expect(odd.status, await odd.clone().text()).toBe(200);
    expect(((await odd.json()) as { amount_format: unknown }).amount_format).toBe(
      '{"locales":"th_TH","nested":{"a":1}}',
    );
  });

  it('when a config value is nested 4,100 levels deep, then 400 naming the depth limit, nothing is stored and the server still answers', async () => {
    const before = (
      (await (await t.fetch(`/api-system/business-units/${bu.id}`, { token: admin })).json()) as { config: unknown }
    ).config;
    const deep = `${'['.repeat(4100)}1${']'.repeat(4100)}`;
    const body = `{"cluster_id":"${bu.cluster_id}","code":"${bu.code}","name":"${bu.name}","config":[{"key":"k","label":"K","datatype":"json","value":${deep}}]}`;
    const res = await t.fetch(`/api-system/business-units/${bu.id}`, {
      method: 'PUT',
      token: admin,
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status, await res.clone().text()).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/nested more than 32 levels deep/);
    // The server still answers, with the record as it was; a value nested within the limit is an ordinary body.
    expect(
      ((await (await t.fetch(`/api-system/business-units/${bu.id}`, { token: admin })).json()) as { config: unknown })
        .config,
    ).toEqual(before);
    const fine = await save({
      config: [
        { key: 'k', label: 'K', datatype: 'json', value: JSON.parse(`${'['.repeat(25)}1${']'.repeat(25)}`) as unknown },
      ],
    });
    expect(fine.status, await fine.clone().text()).toBe(200);
  });

  it('when config is heavier than 32 KB as JSON, then 400 naming the cap, and the stored config is unchanged', async () => {
    const before = (
      (await (await t.fetch(`/api-system/business-units/${bu.id}`, { token: admin })).json()) as { config: unknown }
    ).config;
    const config = Array.from({ length: 100 }, (_, i) => ({
      key: `k${i}`,
      label: `Label ${i}`,
      datatype: 'json',
      value: { blob: 'x'.repeat(900) },
    }));
    const res = await save({ config });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/config is \d+ bytes as JSON; at most 32768/);
    expect(
      ((await (await t.fetch(`/api-system/business-units/${bu.id}`, { token: admin })).json()) as { config: unknown })
        .config,
    ).toEqual(before);
  });
});
