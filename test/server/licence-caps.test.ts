// Licence caps are commercial: only cluster.update on all clusters (or a super admin) sets or changes them; a
// cluster-scoped editor still saves the rest of the same form.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from './support/index.js';

describe.each(engines())('licence caps on %s', (engine) => {
  let t: TestServer;
  let admin: string;
  let editor: string;
  let clusterA: { id: string; code: string; name: string; max_license_bu: number | null };

  beforeAll(async () => {
    t = await startTestServer(engine);
    [admin, editor] = await Promise.all([t.login('admin'), t.login('editor-a')]);
    const { data } = (await (await t.fetch('/api-system/clusters?perpage=100', { token: admin })).json()) as {
      data: Array<typeof clusterA>;
    };
    clusterA = data.find((c) => c.code === 'CL-A')!;
  });
  afterAll(() => t?.close());

  const putCluster = (token: string, fields: Record<string, unknown>) =>
    t.fetch(`/api-system/clusters/${clusterA.id}`, {
      method: 'PUT',
      token,
      json: { code: clusterA.code, name: clusterA.name, max_license_bu: clusterA.max_license_bu, ...fields },
    });

  it('when a cluster-scoped editor changes max_license_bu, then 403 naming the field; the other fields still save', async () => {
    const raised = await putCluster(editor, { max_license_bu: (clusterA.max_license_bu ?? 0) + 50 });
    expect(raised.status).toBe(403);
    expect(((await raised.json()) as { detail: string }).detail).toMatch(
      /max_license_bu needs cluster\.update on all clusters/,
    );
    const renamed = await putCluster(editor, { alias_name: 'AHX' });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    expect(((await renamed.json()) as { max_license_bu: number | null }).max_license_bu).toBe(clusterA.max_license_bu);
  });

  it("when a cluster-scoped editor sets a unit's max_license_users, on create or update, then 403; a super admin may", async () => {
    const code = `LC-${randomUUID().slice(0, 6)}`;
    const capped = await t.fetch('/api-system/business-units', {
      method: 'POST',
      token: editor,
      json: { cluster_id: clusterA.id, code, name: 'Capped', max_license_users: 5 },
    });
    expect(capped.status).toBe(403);
    expect(((await capped.json()) as { detail: string }).detail).toMatch(/max_license_users/);
    const created = await t.fetch('/api-system/business-units', {
      method: 'POST',
      token: editor,
      json: { cluster_id: clusterA.id, code, name: 'Uncapped' },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const bu = (await created.json()) as { id: string };
    const put = (token: string, fields: Record<string, unknown>) =>
      t.fetch(`/api-system/business-units/${bu.id}`, {
        method: 'PUT',
        token,
        json: { cluster_id: clusterA.id, code, name: 'Uncapped', ...fields },
      });
    expect((await put(editor, { max_license_users: 3 })).status).toBe(403);
    expect((await put(editor, { description: 'Still editable' })).status).toBe(200);
    expect((await put(admin, { max_license_users: 3 })).status).toBe(200);
    expect((await put(editor, { max_license_users: 3, description: 'Cap kept as it is' })).status).toBe(200);
  });
});
