import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { StoragePort } from '../storage/port.js';

/** What the modules are built from. Use `knex` (pass `trx` inside transactions: PGlite has one connection). */
export interface ModuleDeps {
  config: Config;
  knex: Knex;
  storage: StoragePort;
  logger: Logger;
}
