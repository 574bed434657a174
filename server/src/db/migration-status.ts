// Which migrations the database holds against the ones this server knows (start-up check, /readyz, `npm run migrate`).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { migrations } from './migrations/index.js';

export interface MigrationStatus {
  /** Recorded in knex_migrations, oldest first. */
  applied: string[];
  /** Known to this server, not yet applied. */
  pending: string[];
  /** Recorded in the database but unknown to this server: a newer version migrated it. */
  unknown: string[];
}

/** What the database holds against the migrations this server knows. */
export async function migrationStatus(knex: Knex): Promise<MigrationStatus> {
  const known = migrations.map((m) => m.name);
  const applied = (await knex.schema.hasTable('knex_migrations'))
    ? ((await knex('knex_migrations').orderBy('id').pluck('name')) as string[])
    : [];
  return {
    applied,
    pending: known.filter((name) => !applied.includes(name)),
    unknown: applied.filter((name) => !known.includes(name)),
  };
}

/** Whether an embedded database was ever created in `dir` (PGlite's cluster marker; a bare directory is none). */
export function embeddedDatabaseExists(dir: string): boolean {
  return existsSync(path.join(dir, 'PG_VERSION'));
}
