// The saved clusters that let a first `npm start` skip initdb and the migrations.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, migrateLatest, migrationSource } from '../../server/src/db/index.js';
import { templateForNewDatabase, writeEmptyTemplate, writeSchemaTemplate } from '../../server/src/db/template.js';
import { rawRows, type UserRecord } from '../support/records.js';

const work = mkdtempSync(path.join(tmpdir(), 'template-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the saved database templates', () => {
  const files = { empty: path.join(work, 'empty.tar'), schema: path.join(work, 'pglite-x-schema-current.tar') };
  beforeAll(async () => {
    await writeEmptyTemplate(files.empty);
    await writeSchemaTemplate(files.schema, files.empty);
  }, 120_000);

  it('when a new data directory starts from the schema template, then it has every table, nothing to migrate, no users, and persists', async () => {
    const dir = path.join(work, 'db');
    const template = templateForNewDatabase(dir, files);
    expect(template).toBeInstanceOf(Blob);

    const db = await createDatabase({ database: { engine: 'pglite', dir } }, { pgliteTemplate: template });
    const [, pending] = (await db.knex.migrate.list({ migrationSource })) as [unknown[], unknown[]];
    expect(pending, 'every migration is already applied').toEqual([]);
    expect(await db.knex<UserRecord>('users').count({ n: '*' }).first()).toMatchObject({ n: 0 });
    await db
      .knex('currencies')
      .insert({ code: 'THB', name: 'Thai Baht', symbol: '฿', decimal_places: 2, is_active: true });
    const [trgm] = await rawRows<{ close: boolean }>(
      db.knex.raw("select similarity('andaman', 'andamen') > 0.3 as close"),
    );
    expect(trgm?.close).toBe(true);
    await db.close();

    expect(templateForNewDatabase(dir, files), 'an initialised directory never takes a template again').toBeUndefined();
    const reopened = await createDatabase({ database: { engine: 'pglite', dir } });
    expect(await reopened.knex('currencies').pluck('code')).toEqual(['THB']);
    await reopened.close();
  }, 120_000);

  it('when only the empty template exists (the migrations changed since install), then a new directory takes it and migrates', async () => {
    const onlyEmpty = { empty: files.empty, schema: path.join(work, 'pglite-x-schema-other.tar') };
    const db = await createDatabase(
      { database: { engine: 'pglite', dir: null } },
      { pgliteTemplate: templateForNewDatabase(null, onlyEmpty) },
    );
    await migrateLatest(db.knex);
    const [tables] = await rawRows<{ n: number }>(
      db.knex.raw("select count(*)::int as n from pg_tables where schemaname = 'public' and tablename = 'clusters'"),
    );
    expect(tables?.n).toBe(1);
    await db.close();
  }, 120_000);

  it('when a newer schema template is written, then older ones of this PGlite version are removed', async () => {
    const dir = mkdtempSync(path.join(work, 'cache-'));
    const older = path.join(dir, path.basename(files.schema).replace('current', 'older'));
    writeFileSync(older, 'stale');
    const newer = await writeSchemaTemplate(path.join(dir, path.basename(files.schema)), files.empty);
    expect(existsSync(older)).toBe(false);
    expect(existsSync(newer)).toBe(true);
  }, 120_000);

  it('when no template was saved, then a new directory initialises itself', () => {
    expect(
      templateForNewDatabase(path.join(work, 'other'), {
        schema: path.join(work, 'none.tar'),
        empty: path.join(work, 'missing.tar'),
      }),
    ).toBeUndefined();
  });
});
