// The saved empty cluster that lets a first `npm start` skip initdb.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, migrateLatest } from '../../server/src/db/index.js';
import { emptyTemplateFor, writeEmptyTemplate } from '../../server/src/db/template.js';

const work = mkdtempSync(path.join(tmpdir(), 'template-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the empty database template', () => {
  it('when a new data directory starts from the template, then it migrates, keeps pg_trgm and persists', async () => {
    const file = await writeEmptyTemplate(path.join(work, 'empty.tar'));
    const dir = path.join(work, 'db');
    const template = emptyTemplateFor(dir, file);
    expect(template).toBeInstanceOf(Blob);

    const db = await createDatabase({ database: { engine: 'pglite', dir } }, { pgliteTemplate: template });
    await migrateLatest(db.knex);
    await db.knex('currencies').insert({ code: 'THB', name: 'Thai Baht', symbol: '฿', decimal_places: 2, is_active: true });
    const trgm = await db.knex.raw("select similarity('andaman', 'andamen') > 0.3 as close");
    expect(trgm.rows[0].close).toBe(true);
    await db.close();

    expect(emptyTemplateFor(dir, file), 'an initialised directory never takes the template again').toBeUndefined();
    const reopened = await createDatabase({ database: { engine: 'pglite', dir } });
    expect(await reopened.knex('currencies').pluck('code')).toEqual(['THB']);
    await reopened.close();
  }, 120_000);

  it('when no template was saved, then a new directory initialises itself', () => {
    expect(emptyTemplateFor(path.join(work, 'other'), path.join(work, 'missing.tar'))).toBeUndefined();
  });
});
