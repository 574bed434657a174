// Races: caps, defaults, slots and If-Match hold when many requests arrive at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { engines, startTestServer, type TestServer } from '../server/support/index.js';
import { integrityViolations, problemViolations } from './support.js';

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe.each(engines())('concurrency on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  const api = async (method: string, path: string, json?: unknown) => {
    const res = await t.fetch(path, { method, token: admin, json });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return { body: JSON.parse(text || '{}') as { id: string }, etag: res.headers.get('etag') };
  };
  const newUsers = async (n: number) => {
    const rows = Array.from({ length: n }, () => {
      const username = `cc-${randomUUID().slice(0, 10)}`;
      return { username, email: `${username}@example.com`, password_hash: 'x' };
    });
    return (await t.knex('users').insert(rows).returning<Array<{ id: string }>>('id')).map((r) => r.id);
  };
  /** Sends all at once and checks every refusal is a problem. */
  const burst = async (requests: Array<() => Promise<Response>>) => {
    const responses = await Promise.all(requests.map((r) => r()));
    const problems = (await Promise.all(responses.map((r) => problemViolations(r.clone())))).flat();
    expect(problems).toEqual([]);
    return responses.map((r) => r.status);
  };

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('50 parallel business-unit creates into a cluster capped at 5 make exactly 5', async () => {
    const cluster = (
      await api('POST', '/api-system/clusters', {
        code: `CAP-${randomUUID().slice(0, 6)}`,
        name: 'Capped',
        max_license_bu: 5,
      })
    ).body.id;
    const statuses = await burst(
      Array.from(
        { length: 50 },
        (_, i) => () =>
          t.fetch('/api-system/business-units', {
            method: 'POST',
            token: admin,
            json: { cluster_id: cluster, code: `P${i}`, name: `Parallel ${i}` },
          }),
      ),
    );
    expect(tally(statuses)).toEqual({ 201: 5, 409: 45 });
    expect(
      Number(
        (await t.knex('business_units').where({ cluster_id: cluster }).whereNull('deleted_at').count({ n: '*' }))[0]!.n,
      ),
    ).toBe(5);
    // Restores and moves race the same cap.
    const donor = (
      await api('POST', '/api-system/clusters', { code: `DON-${randomUUID().slice(0, 6)}`, name: 'Donor' })
    ).body.id;
    const movers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api('POST', '/api-system/business-units', { cluster_id: donor, code: `M${i}`, name: `Mover ${i}` }),
      ),
    );
    const deleted = (await t.knex('business_units').select('id').where({ cluster_id: cluster }).first()) as {
      id: string;
    };
    await api('DELETE', `/api-system/business-units/${deleted.id}`);
    const moveStatuses = await burst([
      ...movers.map(
        (m, i) => () =>
          t.fetch(`/api-system/business-units/${m.body.id}`, {
            method: 'PUT',
            token: admin,
            json: { cluster_id: cluster, code: `MV${i}`, name: `Moved ${i}` },
          }),
      ),
      () => t.fetch(`/api-system/business-units/${deleted.id}/restore`, { method: 'POST', token: admin }),
    ]);
    expect(moveStatuses.filter((s) => s === 200)).toHaveLength(1);
    expect(
      Number(
        (await t.knex('business_units').where({ cluster_id: cluster }).whereNull('deleted_at').count({ n: '*' }))[0]!.n,
      ),
    ).toBe(5);
  });

  it('50 parallel joins into a business unit never go beyond its user cap, whichever route they take', async () => {
    const cluster = (
      await api('POST', '/api-system/clusters', { code: `UC-${randomUUID().slice(0, 6)}`, name: 'User cap' })
    ).body.id;
    const bu = (
      await api('POST', '/api-system/business-units', {
        cluster_id: cluster,
        code: 'UCAP',
        name: 'Capped BU',
        max_license_users: 5,
      })
    ).body.id;
    const users = await newUsers(50);
    const statuses = await burst(
      users.map((u, i) =>
        i % 2 === 0
          ? () =>
              t.fetch('/api-system/user/business-units', {
                method: 'POST',
                token: admin,
                json: { user_id: u, business_unit_id: bu },
              })
          : () =>
              t.fetch('/api-system/user/clusters', {
                method: 'POST',
                token: admin,
                json: { user_id: u, cluster_id: cluster, parent_bu_id: bu },
              }),
      ),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409)).toBe(true);
    expect(Number((await t.knex('bu_users').where({ business_unit_id: bu }).count({ n: '*' }))[0]!.n)).toBe(5);
    // At the cap: none of another 20 gets in.
    const more = await newUsers(20);
    const again = await burst(
      more.map(
        (u) => () =>
          t.fetch('/api-system/user/business-units', {
            method: 'POST',
            token: admin,
            json: { user_id: u, business_unit_id: bu },
          }),
      ),
    );
    expect(tally(again)).toEqual({ 409: 20 });
    expect(Number((await t.knex('bu_users').where({ business_unit_id: bu }).count({ n: '*' }))[0]!.n)).toBe(5);
  });

  it('parallel default-mapping saves leave exactly one default per document type', async () => {
    const template = (
      (await t.knex('report_templates').select('id').where({ kind: 'print' }).first()) as { id: string }
    ).id;
    const existing = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api('POST', '/api-system/print-template-mappings', {
          document_type: 'SR',
          report_template_id: template,
          is_default: false,
          display_label: `Existing ${i}`,
        }),
      ),
    );
    const statuses = await burst([
      ...Array.from(
        { length: 20 },
        (_, i) => () =>
          t.fetch('/api-system/print-template-mappings', {
            method: 'POST',
            token: admin,
            json: { document_type: 'SR', report_template_id: template, is_default: true, display_label: `Race ${i}` },
          }),
      ),
      ...existing.map(
        (m) => () =>
          t.fetch(`/api-system/print-template-mappings/${m.body.id}`, {
            method: 'PUT',
            token: admin,
            json: { is_default: true },
          }),
      ),
      // A change of document type into SR as a default races too.
      () =>
        t.fetch('/api-system/print-template-mappings', {
          method: 'POST',
          token: admin,
          json: { document_type: 'GRN', report_template_id: template, is_default: true },
        }),
    ]);
    expect(
      statuses.every((s) => s === 200 || s === 201),
      JSON.stringify(tally(statuses)),
    ).toBe(true);
    for (const type of ['SR', 'GRN']) {
      const defaults = await t
        .knex('print_template_mappings')
        .where({ document_type: type, is_default: true })
        .whereNull('deleted_at');
      expect(defaults, type).toHaveLength(1);
    }
  });

  it('parallel widget adds by one user land in distinct slots', async () => {
    const [user] = await newUsers(1);
    const token = await t.tokenFor(user!);
    const datasets = [
      'tenancy.active-clusters',
      'tenancy.active-business-units',
      'approvals.my-pending-count',
      'approvals.my-pending-amount',
    ];
    const statuses = await burst([
      ...datasets.map(
        (d) => () =>
          t.fetch('/api/proxy/api/me/dashboard-widgets', {
            method: 'POST',
            token,
            json: { dataset_id: d, widget_type: 'kpi' },
          }),
      ),
      // The same dataset twice at once: one pin, one 409.
      ...[1, 2].map(
        () => () =>
          t.fetch('/api/proxy/api/me/dashboard-widgets', {
            method: 'POST',
            token,
            json: { dataset_id: 'users.by-role', widget_type: 'bar' },
          }),
      ),
    ]);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(1);
    const slots = (
      (await t.knex('dashboard_widgets').select('order_index').where({ user_id: user })) as Array<{
        order_index: number;
      }>
    ).map((r) => r.order_index);
    expect(new Set(slots).size).toBe(5);
  });

  it('parallel PUTs with the same If-Match: one 200, the rest 412', async () => {
    const template = (
      (await t.knex('report_templates').select('id').where({ kind: 'print' }).first()) as { id: string }
    ).id;
    const cluster = await api('POST', '/api-system/clusters', {
      code: `IM-${randomUUID().slice(0, 6)}`,
      name: 'If-Match',
    });
    const bu = await api('POST', '/api-system/business-units', {
      cluster_id: cluster.body.id,
      code: 'IMBU',
      name: 'If-Match BU',
    });
    const mapping = await api('POST', '/api-system/print-template-mappings', {
      document_type: 'GRN',
      report_template_id: template,
      is_default: false,
    });
    const targets = [
      {
        path: `/api-system/clusters/${cluster.body.id}`,
        body: (i: number) => ({ code: `IM-${i}`, name: `Writer ${i}` }),
      },
      {
        path: `/api-system/business-units/${bu.body.id}`,
        body: (i: number) => ({ cluster_id: cluster.body.id, code: `IMBU-${i}`, name: `Writer ${i}` }),
      },
      {
        path: `/api-system/print-template-mappings/${mapping.body.id}`,
        body: (i: number) => ({ display_label: `Writer ${i}` }),
      },
    ];
    for (const target of targets) {
      const read = await t.fetch(target.path, { token: admin });
      const etag = read.headers.get('etag');
      expect(etag, target.path).toBeTruthy();
      await read.arrayBuffer();
      const statuses = await burst(
        Array.from(
          { length: 20 },
          (_, i) => () =>
            t.fetch(target.path, { method: 'PUT', token: admin, json: target.body(i), headers: { 'If-Match': etag! } }),
        ),
      );
      expect(tally(statuses), target.path).toEqual({ 200: 1, 412: 19 });
    }
  });

  it('a refresh token presented 20 times at once rotates once; the replay revokes the whole session', async () => {
    const login = await t.fetch('/api/auth/login', {
      method: 'POST',
      json: { username: 'viewer', password: 'demo1234' },
    });
    const { refresh_token } = (await login.json()) as { refresh_token: string };
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => t.fetch('/api/auth/refresh-token', { method: 'POST', json: { refresh_token } })),
    );
    const statuses = responses.map((r) => r.status);
    expect(tally(statuses)).toEqual({ 200: 1, 401: 19 });
    const winner = (await responses[statuses.indexOf(200)]!.json()) as { refresh_token: string };
    // The reuse revoked the family: the token the winner got is dead too.
    const after = await t.fetch('/api/auth/refresh-token', {
      method: 'POST',
      json: { refresh_token: winner.refresh_token },
    });
    expect(after.status).toBe(401);
  });

  it('keeps the database consistent after the races', async () => {
    expect(await integrityViolations(t.knex)).toEqual([]);
  });
});
