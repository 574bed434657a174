// The documented configuration is the one the server reads: `.env.example` and docs/configuration.md are generated
// from the settings table, the loader takes its fixed defaults from the same table, and no row names a variable the
// loader never reads.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.js';
import { SETTINGS } from '../../server/src/config-schema.js';
import { configDocs } from '../../scripts/gen-config-docs.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'config-docs-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('configuration documents', () => {
  it('when the committed .env.example and docs/configuration.md are read, then they are what the table generates', () => {
    for (const [file, expected] of Object.entries(configDocs())) {
      expect(readFileSync(file, 'utf8'), `${file} is stale: run npm run gen:config-docs`).toBe(expected);
    }
  });

  it('when every setting with a fixed default is set to it, then the configuration is the one loaded without them', () => {
    const base = { DATA_DIR: dataDir, JWT_SECRET: 'j'.repeat(40) };
    const withDefaults: Record<string, string> = { ...base };
    for (const s of SETTINGS) if ('default' in s && s.name !== 'DATA_DIR') withDefaults[s.name] = s.default;
    expect(Object.keys(withDefaults).length).toBeGreaterThan(10);
    expect(loadConfig(withDefaults)).toEqual(loadConfig(base));
  });

  it('when a setting has a fixed default, then changing it changes what is loaded (the loader reads the table)', () => {
    const base = { DATA_DIR: dataDir, JWT_SECRET: 'j'.repeat(40) };
    expect(loadConfig({ ...base, PORT: '3001' }).port).toBe(3001);
    expect(loadConfig({ ...base, METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({
      port: 9464,
      host: '10.0.0.5',
      token: null,
    });
  });

  it('when the loader sources are read, then every setting in the table is read there and documented', () => {
    const source = ['server/src/config.ts', 'server/src/config-oidc.ts', 'server/src/config-tracing.ts']
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const doc = configDocs()['docs/configuration.md']!;
    const envExample = configDocs()['.env.example']!;
    for (const { name } of SETTINGS) {
      expect(source, name).toContain(`'${name}'`);
      expect(doc, name).toContain(`| \`${name}\` |`);
      expect(envExample, name).toMatch(new RegExp(`^# ${name}=`, 'm'));
    }
  });
});
