// The docs' curl samples (the bundle's `x-codeSamples`) work on a fresh `npm start`: the product starts as the e2e
// suite starts it (the demo data on a new embedded database), the login sample signs in as the demo admin, and every
// other sample runs with `curl` as a reader would paste it, with only the address and the token put in. Each answers
// its documented success status. The samples that change state run after the reads that need the state they change.
// The demo also holds the records the examples show, with the same ids, codes and names (server/src/db/seed/story.ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess, waitForHttp, type Started } from '../support/processes.js';
import { wellFormedPng } from '../support/images.js';
import { loadBundledSpec, operationsOf } from '../support/spec.js';
import { shownExamples } from '../spec/examples.js';
import { STORY_IDS } from '../../server/src/db/seed/story.js';
import { NOT_RUNNABLE, RUN_LAST } from './samples-order.js';

const SAMPLE_BASE = 'http://127.0.0.1:3000';
/** The refresh token the auth samples send: a reader puts in theirs, as the test does. */
const EXAMPLE_REFRESH_TOKEN = '3q2-7wAAAAB0b2tlbi1leGFtcGxlLXZhbHVl';
const spec = loadBundledSpec();
type Sample = { label: string; source: string };
const operations = operationsOf(spec).map((op) => {
  const samples = (op as unknown as { 'x-codeSamples'?: Sample[] })['x-codeSamples'] ?? [];
  const success = Object.keys(op.responses)
    .filter((s) => /^[23]\d\d$/.test(s))
    .map(Number)
    .sort((a, b) => a - b);
  return { id: op.operationId!, curl: samples.find((s) => s.label === 'curl')!.source, success };
});

const work = mkdtempSync(path.join(os.tmpdir(), 'samples-'));
const curlHome = path.join(work, 'curl-home');
let server: Started | null = null;
let baseUrl = '';

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = startProcess('node_modules/.bin/tsx', ['scripts/start.ts'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: '',
    SKIP_UI_BUILD: '1',
    LOG_LEVEL: 'warn',
  });
  await waitForHttp(`${baseUrl}/readyz`, 90_000).catch((e: unknown) => {
    throw new Error(`the server did not start:\n${server?.output()}\n${String(e)}`);
  });
  // What a reader has beside the samples: the images the upload samples send. The curl configuration only reports the
  // status after the body, so the samples themselves run unchanged.
  for (const name of ['logo.png', 'avatar.png']) writeFileSync(path.join(work, name), wellFormedPng(4, 4));
  mkdirSync(curlHome, { recursive: true });
  writeFileSync(path.join(curlHome, '.curlrc'), 'silent\nwrite-out = "\\n%{http_code}"\n');
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** Runs one sample in a shell, as pasted, with the address and the token a reader would put in. */
function run(source: string, token: string): { status: number; body: string } {
  const out = execFileSync('bash', ['-c', source.replaceAll(SAMPLE_BASE, baseUrl)], {
    cwd: work,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, TOKEN: token, CURL_HOME: curlHome, HOME: curlHome },
  });
  const at = out.lastIndexOf('\n');
  return { status: Number(out.slice(at + 1)), body: out.slice(0, at) };
}

describe('the demo holds the records the examples show', () => {
  const shown = shownExamples(spec);
  const exampleOf = (operationId: string, where = '200') =>
    shown.find((e) => e.operationId === operationId && e.where === where)!.value as Record<string, unknown>;
  const pick = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

  it('the cluster, business unit, users, memberships, mapping, template and currency of the examples, by their ids', async () => {
    const login = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin123' }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const get = async (p: string) => {
      const res = await fetch(`${baseUrl}${p}`, { headers: { authorization: `Bearer ${access_token}` } });
      expect(res.status, p).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    };
    const same = async (operationId: string, p: string, keys: string[]) => {
      const wanted = pick(exampleOf(operationId), keys);
      expect(pick(await get(p), keys), `${operationId} ${p}`).toEqual(wanted);
      return wanted;
    };

    const cluster = await same('getCluster', `/api-system/clusters/${STORY_IDS.clusterA}`, [
      'id',
      'code',
      'name',
      'alias_name',
      'max_license_bu',
    ]);
    expect(cluster).toMatchObject({ id: STORY_IDS.clusterA, code: 'CL-A' });
    const unit = await same('getBusinessUnit', `/api-system/business-units/${STORY_IDS.buPkt}`, [
      'id',
      'code',
      'name',
      'alias_name',
      'cluster_id',
      'cluster_name',
      'is_hq',
    ]);
    expect(unit).toMatchObject({ id: STORY_IDS.buPkt, code: 'A-PKT' });
    await same('getUser', `/api-system/users/${STORY_IDS.somchai}`, [
      'id',
      'username',
      'firstname',
      'lastname',
      'display_name',
    ]);
    await same('getPrintTemplateMapping', `/api-system/print-template-mappings/${STORY_IDS.poMapping}`, [
      'id',
      'document_type',
      'report_template_id',
      'is_default',
      'display_label',
      'template_name',
    ]);

    // The examples' last editor (a record's audit trail) is the demo's editor-a.
    const editor = (exampleOf('getCluster').audit as { updated: { id: string; name: string } }).updated;
    expect(pick(await get(`/api-system/users/${editor.id}`), ['id', 'display_name'])).toEqual({
      id: STORY_IDS.editorA,
      display_name: editor.name,
    });

    const permissions = (await get('/api/user/permission/platform')) as { user: Record<string, unknown> };
    const shownAdmin = (exampleOf('getPlatformPermissions') as { user: Record<string, unknown> }).user;
    expect(pick(permissions.user, ['id', 'username', 'display_name'])).toEqual(
      pick(shownAdmin, ['id', 'username', 'display_name']),
    );

    const rowOf = async (operationId: string, p: string, keys: string[]) => {
      const wanted = pick((exampleOf(operationId).data as Array<Record<string, unknown>>)[0]!, keys);
      const rows = (await get(p)).data as Array<Record<string, unknown>>;
      expect(
        rows.map((r) => pick(r, keys)),
        `${operationId} ${p}`,
      ).toContainEqual(wanted);
    };
    await rowOf('listClusterUsers', `/api-system/user/clusters/${STORY_IDS.clusterA}`, [
      'id',
      'user_id',
      'cluster_id',
      'username',
      'parent_bu_id',
      'parent_bu_name',
    ]);
    await rowOf('listBusinessUnitUsers', `/api-system/user/business-units/${STORY_IDS.buPkt}`, [
      'id',
      'user_id',
      'business_unit_id',
      'username',
    ]);
    await rowOf('listReportTemplates', `/api-system/report-templates?perpage=100`, [
      'id',
      'name',
      'report_group',
      'kind',
    ]);
    await rowOf('listCurrencies', `/api-system/currencies`, ['id', 'code', 'name']);
  });
});

describe('the docs’ curl samples on a fresh npm start', () => {
  it('every sample is run, or is named with the reason it cannot run on a fresh demo', () => {
    const ids = operations.map((o) => o.id);
    for (const id of [...Object.keys(NOT_RUNNABLE), ...RUN_LAST]) expect(ids, id).toContain(id);
  });

  it('each answers its documented success status', () => {
    const login = operations.find((o) => o.id === 'login')!;
    const signedIn = run(login.curl, '');
    expect(signedIn.status, signedIn.body).toBe(200);
    const tokens = JSON.parse(signedIn.body) as { access_token: string; refresh_token: string };

    const runnable = operations.filter((o) => o.id !== 'login' && !(o.id in NOT_RUNNABLE));
    const ordered = [
      ...runnable.filter((o) => !RUN_LAST.includes(o.id)),
      ...RUN_LAST.map((id) => runnable.find((o) => o.id === id)!),
    ];
    const failed: string[] = [];
    for (const op of ordered) {
      const { status, body } = run(
        op.curl.replaceAll(EXAMPLE_REFRESH_TOKEN, tokens.refresh_token),
        tokens.access_token,
      );
      if (!op.success.includes(status))
        failed.push(`${op.id}: ${status} (documented ${op.success.join(' or ')}) ${body.slice(0, 300)}`);
    }
    expect(failed).toEqual([]);
    expect(ordered.length).toBeGreaterThan(60);
  });
});
