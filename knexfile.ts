// Config for the knex CLI (`npx knex --knexfile knexfile.ts migrate:status`). The server itself does not
// read this file: it opens the database through server/src/db (createDatabase + migrateLatest).
// Without DATABASE_URL the CLI opens the embedded PGlite under DATA_DIR/db, so stop the server first.
import type { Knex } from 'knex';
import ClientPGLite from 'knex-pglite';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import path from 'node:path';
import { migrationSource } from './server/src/db/migrations/index.js';

const databaseUrl = process.env.DATABASE_URL;

const config: Knex.Config = databaseUrl
  ? { client: 'pg', connection: databaseUrl, migrations: { migrationSource } }
  : {
      client: ClientPGLite,
      connection: () =>
        ({
          pglite: new PGlite(path.resolve(process.env.DATA_DIR ?? './var', 'db'), { extensions: { pg_trgm } }),
        }) as unknown as Knex.StaticConnectionConfig,
      migrations: { migrationSource },
    };

export default config;
