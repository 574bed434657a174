// The client package as a front-end team gets it: `npm pack` of client/ (built with tsc by its prepack), installed
// with npm into a project of its own outside the repository, then used from that project against a running server
// (the stateful mock: the real server with the demo data): it signs in, lists clusters, refreshes before an expired
// access token and after a 401, and signs out. A TypeScript file of the project compiles against the package's types.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess, waitForHttp, type Started } from '../support/processes.js';
import { consumerTypeErrors } from '../support/typecheck.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(path.join(os.tmpdir(), 'client-package-'));
const project = path.join(work, 'project');
let server: Started | null = null;
let baseUrl = '';
let tarball = '';

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: 'pipe',
    env: { ...process.env, npm_config_fund: 'false' },
  });

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = startProcess('node_modules/.bin/tsx', ['scripts/mock-stateful.ts'], {
    MOCK_PORT: String(port),
    LOG_LEVEL: 'warn',
  });
  npm(['pack', '--silent', '--pack-destination', work], path.join(ROOT, 'client'));
  tarball = path.join(
    work,
    readdirSync(work).find((f) => f.endsWith('.tgz'))!,
  );
  mkdirSync(project, { recursive: true });
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: {} }),
  );
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
  await waitForHttp(`${baseUrl}/readyz`, 60_000).catch((e: unknown) => {
    throw new Error(`the server did not start:\n${server?.output()}\n${String(e)}`);
  });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

const CONSUMER = `
import { createAdminSession, SignInError } from '@platform-admin/client';

const baseUrl = process.argv[2];
const out = {};
const seen = [];
const session = createAdminSession({ baseUrl, onTokens: (t) => seen.push(t ? 'tokens' : 'ended') });

try {
  await session.login('admin', 'wrong-password');
} catch (e) {
  out.wrongPassword = { name: e.name, status: e.status, isSignInError: e instanceof SignInError };
}
const first = await session.login('admin', 'admin123');
const list = await session.api.GET('/api-system/clusters', { params: { query: { search: 'andaman' } } });
out.clusters = list.data.data.map((c) => c.code);

// An access token past its expiry: the session refreshes before the call.
session.tokens().expiresAt = Date.now() - 1;
const beforeExpired = session.tokens().refreshToken;
out.afterExpiry = (await session.api.GET('/api/user/permission/platform')).response.status;
out.refreshedOnExpiry = session.tokens().refreshToken !== beforeExpired;

// An access token the server refuses (401): the session refreshes once and sends the call again.
session.tokens().accessToken = first.accessToken.slice(0, -4) + 'AAAA';
const before401 = session.tokens().refreshToken;
const retried = await session.api.GET('/api-system/clusters/{id}', {
  params: { path: { id: list.data.data[0].id } },
});
out.after401 = retried.response.status;
out.refreshedOn401 = session.tokens().refreshToken !== before401;

// The old refresh token is single use: an explicit refresh works with the current one.
out.explicitRefresh = typeof (await session.refresh()).accessToken;

const lastRefresh = session.tokens().refreshToken;
await session.logout();
out.afterLogout = session.tokens();
const reuse = await fetch(baseUrl + '/api/auth/refresh-token', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ refresh_token: lastRefresh }),
});
out.refreshAfterLogout = reuse.status;
out.seen = seen;
console.log(JSON.stringify(out));
`;

const TYPED = `
import { createAdminSession, type SessionTokens } from '@platform-admin/client';

const session = createAdminSession({ baseUrl: 'http://127.0.0.1:3000' });
const tokens: SessionTokens = await session.login('admin', 'admin123');
const { data, error } = await session.api.GET('/api-system/clusters/{id}', { params: { path: { id: 'x' } } });
if (error) throw new Error(error.detail);
const code: string = data.code;
// @ts-expect-error: the contract has no such path
await session.api.GET('/api-system/no-such-path');
console.log(tokens.expiresAt, code);
`;

describe('the client package', () => {
  it('installs from its npm pack tarball with openapi-fetch, the built client and the contract’s types, nothing else', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    // npm packs the package's README whatever `files` says; beside it, only the build and package.json.
    expect(listing.filter((file) => file !== 'package/README.md')).toEqual([
      'package/dist/index.d.ts',
      'package/dist/index.js',
      'package/dist/schema.d.ts',
      'package/package.json',
    ]);
    const installed = readdirSync(path.join(project, 'node_modules'));
    expect(installed).toEqual(expect.arrayContaining(['@platform-admin', 'openapi-fetch']));
  });

  it('signs in, lists clusters, refreshes on expiry and on a 401, and signs out, from a project of its own', () => {
    writeFileSync(path.join(project, 'consumer.mjs'), CONSUMER);
    const out: unknown = JSON.parse(
      execFileSync(process.execPath, ['consumer.mjs', baseUrl], { cwd: project, encoding: 'utf8' }),
    );
    expect(out).toEqual({
      wrongPassword: { name: 'SignInError', status: 401, isSignInError: true },
      clusters: ['CL-A'],
      afterExpiry: 200,
      refreshedOnExpiry: true,
      after401: 200,
      refreshedOn401: true,
      explicitRefresh: 'string',
      afterLogout: null,
      refreshAfterLogout: 401,
      seen: ['tokens', 'tokens', 'tokens', 'tokens', 'ended'],
    });
  });

  it('type-checks a consumer’s TypeScript against the installed package (tsc)', () => {
    writeFileSync(path.join(project, 'typed.ts'), TYPED);
    const output = consumerTypeErrors(project, ['typed.ts']);
    expect(output).toBe('');
  });
});
