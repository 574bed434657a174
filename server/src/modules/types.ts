import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Router } from 'express';
import type { Config } from '../config.js';
import type { StoragePort } from '../storage/port.js';

/** What every module router gets. Use `deps.knex` (pass `trx` inside transactions: PGlite has one connection). */
export interface ModuleDeps {
  config: Config;
  knex: Knex;
  storage: StoragePort;
  logger: Logger;
}

/** A module exports one of these; it returns a router whose routes use full paths (e.g. `/api-system/clusters`). */
export type ModuleRouterFactory = (deps: ModuleDeps) => Router;
