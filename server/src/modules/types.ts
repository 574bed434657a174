import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { ChangeFeed } from '../db/changes.js';
import type { StoragePort } from '../storage/port.js';

/** What the modules are built from. Use `knex` (pass `trx` inside transactions: PGlite has one connection). */
export interface ModuleDeps {
  config: Config;
  knex: Knex;
  storage: StoragePort;
  logger: Logger;
  /** Committed changes, for the caches that must forget them (a never-live feed when the app was built without one). */
  changes: ChangeFeed;
}
