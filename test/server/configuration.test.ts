// The service's configuration: the documented defaults, what each setting selects, one error that lists every wrong
// setting, what production requires, and the start-up warnings.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/config.js';
import { startupWarnings } from '../../server/src/main.js';

describe('configuration', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('when nothing is set, then the documented local defaults apply', () => {
    const c = loadConfig({ DATA_DIR: dataDir });
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir,
      database: { engine: 'pglite', dir: path.join(dataDir, 'db') },
      admin: { username: 'admin', password: 'admin123' },
      demoPassword: 'demo1234',
      seedDemo: true,
      storage: { driver: 'local', dir: path.join(dataDir, 'uploads') },
      validateResponses: true,
    });
  });

  it('when JWT_SECRET is absent, then a secret is generated once and kept across restarts', () => {
    const a = loadConfig({ DATA_DIR: dataDir });
    const b = loadConfig({ DATA_DIR: dataDir });
    expect(a.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(b.jwtSecret).toBe(a.jwtSecret);
    expect(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(a.jwtSecret);
  });

  it('when DATABASE_URL and STORAGE=gcs are set, then PostgreSQL and the bucket are selected', () => {
    const c = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://u@db:5432/app',
      STORAGE: 'gcs',
      GCS_BUCKET: 'b',
      GCS_API_ENDPOINT: 'http://127.0.0.1:1',
    });
    expect(c.database).toEqual({ engine: 'postgres', url: 'postgres://u@db:5432/app' });
    expect(c.storage).toEqual({ driver: 'gcs', bucket: 'b', keyFile: null, apiEndpoint: 'http://127.0.0.1:1' });
  });

  it('when several settings are wrong, then one error lists each of them', () => {
    let err: unknown;
    try {
      loadConfig({
        DATA_DIR: dataDir,
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        STORAGE: 's3',
        LOG_LEVEL: 'loud',
        VALIDATE_RESPONSES: 'maybe',
        JWT_SECRET: 'short',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems;
    expect(problems).toHaveLength(6);
    for (const name of ['PORT', 'DATABASE_URL', 'STORAGE', 'LOG_LEVEL', 'VALIDATE_RESPONSES', 'JWT_SECRET']) {
      expect(problems.some((p) => p.startsWith(name))).toBe(true);
    }
  });

  it('when OIDC_PROVIDERS is wrong, then each bad entry is named with what to write', () => {
    const problemsOf = (raw: string) => {
      try {
        loadConfig({ DATA_DIR: dataDir, OIDC_PROVIDERS: raw });
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    expect(problemsOf('{not json')).toEqual([
      expect.stringMatching(/^OIDC_PROVIDERS must be a JSON array like .*it is not JSON$/),
    ]);
    expect(problemsOf('{"id":"x"}')).toEqual([expect.stringMatching(/^OIDC_PROVIDERS must be a JSON array/)]);
    const entries = [
      { id: 'Entra ID', issuer: 'https://login.example.com', client_id: 'a' },
      { id: 'plain', issuer: 'http://idp.example.com', client_id: 'a' },
      { id: 'noclient', issuer: 'https://login.example.com' },
      { id: 'domains', issuer: 'https://login.example.com', client_id: 'a', allowed_email_domains: ['not a domain'] },
      { id: 'ok', issuer: 'https://login.example.com', client_id: 'a' },
      { id: 'ok', issuer: 'https://login.example.com', client_id: 'b' },
    ];
    expect(problemsOf(JSON.stringify(entries))).toEqual([
      expect.stringMatching(/^OIDC_PROVIDERS\[0\]\.id must be lower-case letters/),
      expect.stringMatching(/^OIDC_PROVIDERS\[1\]\.issuer must be the provider's https issuer URL/),
      expect.stringMatching(/^OIDC_PROVIDERS\[2\]\.client_id is required/),
      expect.stringMatching(
        /^OIDC_PROVIDERS\[3\]\.allowed_email_domains must list domains .*"not a domain" is not one/,
      ),
      'OIDC_PROVIDERS[5].id "ok" is used twice',
    ]);
    const [loopback] = loadConfig({
      DATA_DIR: dataDir,
      OIDC_PROVIDERS: JSON.stringify([{ id: 'local', issuer: 'http://127.0.0.1:8080', client_id: 'a' }]),
    }).oidcProviders;
    expect(loopback).toMatchObject({
      id: 'local',
      displayName: 'local',
      scopes: ['openid', 'email', 'profile'],
      jitProvisioning: false,
      clientSecret: null,
      clockToleranceSeconds: 30,
    });
  });

  it('when STORAGE=gcs lacks its bucket, then that is named', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, STORAGE: 'gcs' })).toThrow(/GCS_BUCKET is required/);
  });

  it('when NODE_ENV=production, then JWT_SECRET and ADMIN_PASSWORD are required, no demo is seeded unless asked, and responses are not validated by default', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' })).toThrow(/JWT_SECRET is required/);
    expect(() => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' })).toThrow(/ADMIN_PASSWORD is required/);
    const production = {
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      JWT_SECRET: 'p'.repeat(40),
      ADMIN_PASSWORD: 'strong-pass',
    };
    const c = loadConfig(production);
    expect(c.seedDemo).toBe(false);
    expect(c.validateResponses).toBe(false);
    // Asking for the demo in production needs its own password, never the documented default.
    expect(() => loadConfig({ ...production, SEED_DEMO: 'true' })).toThrow(
      /DEMO_PASSWORD is required when NODE_ENV=production and SEED_DEMO=true/,
    );
    expect(loadConfig({ ...production, SEED_DEMO: 'true', DEMO_PASSWORD: 'other-pass' })).toMatchObject({
      seedDemo: true,
      demoPassword: 'other-pass',
    });
    expect(() => loadConfig({ DATA_DIR: dataDir, SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO must be true or false/);
  });

  it('when JWT_SECRET is not set outside production, then a start-up warning says what it means for replicas', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-admin-warn-'));
    try {
      const [warning] = startupWarnings(loadConfig({ DATA_DIR: dataDir }));
      expect(warning).toMatch(
        /JWT_SECRET is not set.*Replicas.*refuse each other's tokens.*same JWT_SECRET on every replica/,
      );
      expect(startupWarnings(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'k'.repeat(40) }))).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
