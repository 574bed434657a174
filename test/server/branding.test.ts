import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/generated/schema.js';
import { aBusinessUnit, aCluster, aUserWith } from '../support/factory.js';
import type { ClusterRecord } from '../support/records.js';
import { engines, startTestServer, type TestServer } from './support/index.js';
import { asciiWebp, minimalJpeg, wellFormedPng } from '../support/images.js';

type UploadResult = components['schemas']['UploadResult'];
type Cluster = components['schemas']['Cluster'];
type BusinessUnit = components['schemas']['BusinessUnit'];

const FIVE_MB = 5 * 1024 * 1024;
// The server checks the whole image structure, so the fixtures are real (minimal) images.
const PNG = wellFormedPng();
const JPEG = minimalJpeg();
const WEBP = asciiWebp();
const pngOfSize = (size: number) => wellFormedPng(1, 1, size);

describe.each(engines())('branding on %s', (engine) => {
  let t: TestServer;
  let admin: string;

  function upload(
    path: string,
    field: string,
    bytes: Buffer,
    filename: string,
    type: string,
    token = admin,
  ): Promise<Response> {
    const form = new FormData();
    form.append(field, new Blob([bytes], { type }), filename);
    return t.fetch(path, { method: 'POST', token, body: form });
  }

  const keyOf = async (table: string, id: string, field: 'logo_key' | 'avatar_key') =>
    ((await t.knex(table).select(field).where({ id }).first()) as Record<string, string | null>)[field];

  beforeAll(async () => {
    t = await startTestServer(engine);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('when a PNG is uploaded under a .jpg name, then it is stored as PNG and the URL serves it', async () => {
    const id = (await aCluster(t)).id;
    const res = await upload(`/api-system/clusters/${id}/logo`, 'logo', PNG, 'photo.jpg', 'image/jpeg');
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as UploadResult;
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'url']);
    expect(Date.parse(body.expires_at)).toBeGreaterThan(Date.now());
    const key = await keyOf('clusters', id, 'logo_key');
    expect(key).toMatch(/\.png$/);
    const file = await t.fetch(body.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('when a text file is named .png, then 415 problem and nothing is stored', async () => {
    const id = (await aCluster(t)).id;
    const res = await upload(
      `/api-system/clusters/${id}/logo`,
      'logo',
      Buffer.from('just some text, not an image'),
      'logo.png',
      'image/png',
    );
    expect(res.status).toBe(415);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(await keyOf('clusters', id, 'logo_key')).toBeNull();
    const read = (await (await t.fetch(`/api-system/clusters/${id}`, { token: admin })).json()) as Cluster;
    expect(read.logo).toBeUndefined();
  });

  it('when the image is 5 MB + 1 byte, then 413 problem and nothing is stored; exactly 5 MB is accepted', async () => {
    const id = (await aCluster(t)).id;
    const tooBig = await upload(
      `/api-system/clusters/${id}/avatar`,
      'avatar',
      pngOfSize(FIVE_MB + 1),
      'big.png',
      'image/png',
    );
    expect(tooBig.status).toBe(413);
    expect(tooBig.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(await keyOf('clusters', id, 'avatar_key')).toBeNull();
    const limit = await upload(
      `/api-system/clusters/${id}/avatar`,
      'avatar',
      pngOfSize(FIVE_MB),
      'limit.png',
      'image/png',
    );
    expect(limit.status).toBe(200);
    const key = await keyOf('clusters', id, 'avatar_key');
    expect(key).not.toBeNull();
    expect(await t.storage.exists(key!)).toBe(true);
  });

  it('when a new image is uploaded, then it replaces the old one, whose object is kept for the history', async () => {
    const id = (await aCluster(t)).id;
    expect((await upload(`/api-system/clusters/${id}/logo`, 'logo', PNG, 'a.png', 'image/png')).status).toBe(200);
    const oldKey = (await keyOf('clusters', id, 'logo_key'))!;
    expect(await t.storage.exists(oldKey)).toBe(true);
    expect((await upload(`/api-system/clusters/${id}/logo`, 'logo', JPEG, 'b.jpg', 'image/jpeg')).status).toBe(200);
    const newKey = (await keyOf('clusters', id, 'logo_key'))!;
    expect(newKey).not.toBe(oldKey);
    expect(newKey).toMatch(/\.jpg$/);
    expect(await t.storage.exists(newKey)).toBe(true);
    expect(await t.storage.exists(oldKey)).toBe(true);
    // Removing the logo deletes the current object and every earlier one.
    expect((await t.fetch(`/api-system/clusters/${id}/logo`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect(await t.storage.exists(newKey)).toBe(false);
    expect(await t.storage.exists(oldKey)).toBe(false);
  });

  it('when only a logo is set, then reads return logo {url} and no avatar, in the detail and the list', async () => {
    const id = (await aCluster(t)).id;
    const before = (await (await t.fetch(`/api-system/clusters/${id}`, { token: admin })).json()) as Cluster;
    expect(before.logo).toBeUndefined();
    expect(before.avatar).toBeUndefined();
    await upload(`/api-system/clusters/${id}/logo`, 'logo', WEBP, 'logo.webp', 'image/webp');
    const after = (await (await t.fetch(`/api-system/clusters/${id}`, { token: admin })).json()) as Cluster;
    expect(Object.keys(after.logo!)).toEqual(['url']);
    expect(after.avatar).toBeUndefined();
    expect((await t.fetch(after.logo!.url)).headers.get('content-type')).toBe('image/webp');
    const code = ((await t.knex<ClusterRecord>('clusters').select('code').where({ id }).first()) as { code: string })
      .code;
    const listed = (await (
      await t.fetch(`/api-system/clusters?search=${code}`, { token: admin })
    ).json()) as components['schemas']['ClusterPage'];
    expect(listed.data[0]!.logo?.url).toBeTruthy();
  });

  it('when a business unit gets a logo and an avatar, then both are stored and returned on its reads', async () => {
    const bu = (await aBusinessUnit(t)).id;
    expect((await upload(`/api-system/business-units/${bu}/logo`, 'logo', JPEG, 'x.jpeg', 'image/jpeg')).status).toBe(
      200,
    );
    expect(
      (await upload(`/api-system/business-units/${bu}/avatar`, 'avatar', WEBP, 'x.webp', 'application/octet-stream'))
        .status,
    ).toBe(200);
    const read = (await (await t.fetch(`/api-system/business-units/${bu}`, { token: admin })).json()) as BusinessUnit;
    expect(read.logo?.url).toBeTruthy();
    expect(read.avatar?.url).toBeTruthy();
    expect(await keyOf('business_units', bu, 'avatar_key')).toMatch(/\.webp$/);
  });

  it('when the file is in the wrong form field or missing, then 400', async () => {
    const id = (await aCluster(t)).id;
    expect((await upload(`/api-system/clusters/${id}/logo`, 'avatar', PNG, 'a.png', 'image/png')).status).toBe(400);
    const empty = new FormData();
    empty.append('note', 'no file');
    expect(
      (await t.fetch(`/api-system/clusters/${id}/logo`, { method: 'POST', token: admin, body: empty })).status,
    ).toBe(400);
    expect(await keyOf('clusters', id, 'logo_key')).toBeNull();
  });

  it('when the record is unknown or the id malformed, then 404 or 400', async () => {
    expect((await upload(`/api-system/clusters/${randomUUID()}/logo`, 'logo', PNG, 'a.png', 'image/png')).status).toBe(
      404,
    );
    expect(
      (await upload(`/api-system/business-units/${randomUUID()}/avatar`, 'avatar', PNG, 'a.png', 'image/png')).status,
    ).toBe(404);
    expect((await upload('/api-system/clusters/nope/logo', 'logo', PNG, 'a.png', 'image/png')).status).toBe(400);
  });

  it('when the caller has cluster.update on the cluster, then it uploads; on another cluster 404 and read-only 403, and nothing is stored', async () => {
    const mine = (await aCluster(t)).id;
    const theirs = (await aCluster(t)).id;
    const theirBu = (await aBusinessUnit(t, { cluster_id: theirs })).id;
    const myBu = (await aBusinessUnit(t, { cluster_id: mine })).id;
    const updater = (await aUserWith(t, [['cluster.update', mine]])).token;
    expect((await upload(`/api-system/clusters/${mine}/logo`, 'logo', PNG, 'a.png', 'image/png', updater)).status).toBe(
      200,
    );
    expect(
      (await upload(`/api-system/business-units/${myBu}/logo`, 'logo', PNG, 'a.png', 'image/png', updater)).status,
    ).toBe(200);
    const denied = await upload(`/api-system/clusters/${theirs}/logo`, 'logo', PNG, 'a.png', 'image/png', updater);
    expect(denied.status).toBe(404); // no grant on that cluster: it is not there for them, as for a missing id
    expect(denied.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(
      (await upload(`/api-system/business-units/${theirBu}/avatar`, 'avatar', PNG, 'a.png', 'image/png', updater))
        .status,
    ).toBe(404);
    expect(await keyOf('clusters', theirs, 'logo_key')).toBeNull();
    expect(await keyOf('business_units', theirBu, 'avatar_key')).toBeNull();
    const reader = (await aUserWith(t, [['cluster.read', mine]])).token;
    expect(
      (await upload(`/api-system/clusters/${mine}/avatar`, 'avatar', PNG, 'a.png', 'image/png', reader)).status,
    ).toBe(403);
  });

  /** DELETE of an image, with the record's ETag as If-Match when one is given. */
  const removeImage = (path: string, token = admin, etag?: string) =>
    t.fetch(path, { method: 'DELETE', token, headers: etag ? { 'If-Match': etag } : {} });
  const etagOf = async (path: string) => (await t.fetch(path, { token: admin })).headers.get('ETag')!;

  it('when a logo is removed with the current ETag, then 204, reads carry no logo, the object is gone and an event names it', async () => {
    const id = (await aCluster(t)).id;
    expect((await upload(`/api-system/clusters/${id}/logo`, 'logo', PNG, 'a.png', 'image/png')).status).toBe(200);
    const key = (await keyOf('clusters', id, 'logo_key'))!;
    const res = await removeImage(`/api-system/clusters/${id}/logo`, admin, await etagOf(`/api-system/clusters/${id}`));
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await keyOf('clusters', id, 'logo_key')).toBeNull();
    expect(await t.storage.exists(key)).toBe(false);
    const read = (await (await t.fetch(`/api-system/clusters/${id}`, { token: admin })).json()) as Cluster;
    expect(read.logo).toBeUndefined();
    const events = await t.knex('audit_events').where({ action: 'deleteClusterLogo', target_id: id });
    expect(events).toHaveLength(1);
  });

  it('when the ETag is stale, then 412 problem and the avatar stays', async () => {
    const bu = (await aBusinessUnit(t)).id;
    expect((await upload(`/api-system/business-units/${bu}/avatar`, 'avatar', PNG, 'a.png', 'image/png')).status).toBe(
      200,
    );
    const read = await t.fetch(`/api-system/business-units/${bu}`, { token: admin });
    const stale = read.headers.get('ETag')!;
    const { cluster_id, code, name } = (await read.json()) as BusinessUnit;
    // Someone saves the business unit in between: its version moves on.
    const saved = await t.fetch(`/api-system/business-units/${bu}`, {
      method: 'PUT',
      token: admin,
      json: { cluster_id, code, name, description: 'changed elsewhere' },
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const res = await removeImage(`/api-system/business-units/${bu}/avatar`, admin, stale);
    expect(res.status).toBe(412);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(await keyOf('business_units', bu, 'avatar_key')).not.toBeNull();
    expect(
      (await removeImage(`/api-system/business-units/${bu}/avatar`, admin, saved.headers.get('ETag')!)).status,
    ).toBe(204);
    expect(await keyOf('business_units', bu, 'avatar_key')).toBeNull();
  });

  it('when no image is set, then the removal changes nothing and records no event', async () => {
    const id = (await aCluster(t)).id;
    expect((await removeImage(`/api-system/clusters/${id}/avatar`)).status).toBe(204);
    expect(await t.knex('audit_events').where({ action: 'deleteClusterAvatar', target_id: id })).toHaveLength(0);
  });

  it('when the caller may not upload, then it may not remove: read-only 403, another cluster 404, unknown 404', async () => {
    const mine = (await aCluster(t)).id;
    const theirs = (await aCluster(t)).id;
    const myBu = (await aBusinessUnit(t, { cluster_id: mine })).id;
    for (const path of [`/api-system/clusters/${mine}/logo`, `/api-system/business-units/${myBu}/logo`])
      expect((await upload(path, 'logo', PNG, 'a.png', 'image/png')).status).toBe(200);
    const reader = (await aUserWith(t, [['cluster.read', mine]])).token;
    expect((await removeImage(`/api-system/clusters/${mine}/logo`, reader)).status).toBe(403);
    const updater = (await aUserWith(t, [['cluster.update', mine]])).token;
    expect((await removeImage(`/api-system/clusters/${theirs}/logo`, updater)).status).toBe(404);
    expect((await removeImage(`/api-system/business-units/${randomUUID()}/logo`, updater)).status).toBe(404);
    expect((await removeImage('/api-system/clusters/nope/logo', updater)).status).toBe(400);
    expect(await keyOf('clusters', mine, 'logo_key')).not.toBeNull();
    expect((await removeImage(`/api-system/business-units/${myBu}/logo`, updater)).status).toBe(204);
    expect(await keyOf('business_units', myBu, 'logo_key')).toBeNull();
  });
});
