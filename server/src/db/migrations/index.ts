import type { Knex } from 'knex';
import * as m0001 from './0001_auth.js';
import * as m0002 from './0002_tenancy.js';
import * as m0003 from './0003_printing_workspace.js';
import * as m0004 from './0004_bench_indexes.js';
import * as m0005 from './0005_unique_bu_code.js';
import * as m0006 from './0006_audit_events.js';
import * as m0007 from './0007_accounts.js';
import * as m0008 from './0008_change_notifications.js';
import * as m0009 from './0009_audit_import_id.js';
import * as m0010 from './0010_single_sign_on.js';
import * as m0011 from './0011_audit_by_construction.js';
import * as m0012 from './0012_audit_labels.js';
import * as m0013 from './0013_service_accounts.js';
import * as m0014 from './0014_webhooks.js';
import * as m0015 from './0015_second_factor.js';
import * as m0016 from './0016_keyset_indexes.js';
import * as m0017 from './0017_sso_second_step.js';
import * as m0018 from './0018_webhook_sign_in_event.js';

interface Migration {
  name: string;
  /** The knex CLI lists migrations by `file`. */
  file: string;
  /** A migration module's own functions: plain functions, not methods of an object. */
  up: (knex: Knex) => Promise<void>;
  down: (knex: Knex) => Promise<void>;
}

/** Ordered list; add a new migration by importing it and appending it here (never rename old names). */
export const migrations: Migration[] = [
  { name: '0001_auth', file: '0001_auth', ...m0001 },
  { name: '0002_tenancy', file: '0002_tenancy', ...m0002 },
  { name: '0003_printing_workspace', file: '0003_printing_workspace', ...m0003 },
  { name: '0004_bench_indexes', file: '0004_bench_indexes', ...m0004 },
  { name: '0005_unique_bu_code', file: '0005_unique_bu_code', ...m0005 },
  { name: '0006_audit_events', file: '0006_audit_events', ...m0006 },
  { name: '0007_accounts', file: '0007_accounts', ...m0007 },
  { name: '0008_change_notifications', file: '0008_change_notifications', ...m0008 },
  { name: '0009_audit_import_id', file: '0009_audit_import_id', ...m0009 },
  { name: '0010_single_sign_on', file: '0010_single_sign_on', ...m0010 },
  { name: '0011_audit_by_construction', file: '0011_audit_by_construction', ...m0011 },
  { name: '0012_audit_labels', file: '0012_audit_labels', ...m0012 },
  { name: '0013_service_accounts', file: '0013_service_accounts', ...m0013 },
  { name: '0014_webhooks', file: '0014_webhooks', ...m0014 },
  { name: '0015_second_factor', file: '0015_second_factor', ...m0015 },
  { name: '0016_keyset_indexes', file: '0016_keyset_indexes', ...m0016 },
  { name: '0017_sso_second_step', file: '0017_sso_second_step', ...m0017 },
  { name: '0018_webhook_sign_in_event', file: '0018_webhook_sign_in_event', ...m0018 },
];

/** Static source: knex never scans a directory (that fails for .ts under vitest). */
export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: () => Promise.resolve(migrations),
  getMigrationName: (m) => m.name,
  getMigration: (m) => Promise.resolve({ up: m.up, down: m.down }),
};
