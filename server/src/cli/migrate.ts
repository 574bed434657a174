// `npm run migrate -- [up|status|down]`: the schema of the configured database (DATABASE_URL, else the embedded one
// in DATA_DIR/db, which must not be open in a running server). `up` applies what is pending (the server also does at
// start), `status` lists applied, pending and unknown migrations (exit 1 unless current), `down` rolls back the most
// recent one. `status` and `down` create nothing: on a data directory without a database they say so and stop.
import { pathToFileURL } from 'node:url';
import { ConfigError, loadDatabaseConfig } from '../config.js';
import {
  createDatabase,
  migrateDownOne,
  migrateLatest,
  migrationStatus,
  redactUrl,
  type Database,
} from '../db/index.js';
import { embeddedDatabaseExists } from '../db/migration-status.js';
import { templateForNewDatabase } from '../db/template.js';

const COMMANDS = ['up', 'status', 'down'] as const;
type Command = (typeof COMMANDS)[number];

export interface MigrateResult {
  output: string[];
  exitCode: number;
}

export function describeDatabase(config: ReturnType<typeof loadDatabaseConfig>): string {
  const db = config.database;
  if (db.engine === 'postgres') return `PostgreSQL at ${redactUrl(db.url)}`;
  return db.dir === null ? 'an in-memory embedded database' : `the embedded database in ${db.dir}`;
}

async function open(config: ReturnType<typeof loadDatabaseConfig>): Promise<Database> {
  const template = config.database.engine === 'pglite' ? templateForNewDatabase(config.database.dir) : undefined;
  return createDatabase(config, { pgliteTemplate: template });
}

/** Runs one command; returns what to print and the exit code (errors are thrown). */
export async function migrate(command: string, env: NodeJS.ProcessEnv = process.env): Promise<MigrateResult> {
  if (!COMMANDS.includes(command as Command))
    return { output: [`Unknown command "${command}". Use: npm run migrate -- up | status | down`], exitCode: 2 };
  const config = loadDatabaseConfig(env);
  const { database } = config;
  // Opening an embedded database creates one (tens of megabytes): a question about its schema, or a roll-back of a
  // schema that was never made, must not.
  if (
    command !== 'up' &&
    database.engine === 'pglite' &&
    database.dir !== null &&
    !embeddedDatabaseExists(database.dir)
  )
    return {
      output: [`no database at ${database.dir} yet: the first \`npm start\` or \`npm run migrate\` creates it`],
      exitCode: 0,
    };
  const db = await open(config);
  const output = [`Database: ${describeDatabase(config)}`];
  try {
    if (command === 'up') {
      const before = await migrationStatus(db.knex);
      await migrateLatest(db.knex);
      output.push(before.pending.length === 0 ? 'Already up to date.' : `Applied ${before.pending.join(', ')}.`);
    } else if (command === 'down') {
      const undone = await migrateDownOne(db.knex);
      output.push(undone ? `Rolled back ${undone}.` : 'Nothing to roll back: no migration is applied.');
    }
    const status = await migrationStatus(db.knex);
    const list = (names: string[]) => (names.length ? names.join(', ') : 'none');
    output.push(
      `Applied (${status.applied.length}): ${list(status.applied)}`,
      `Pending (${status.pending.length}): ${list(status.pending)}`,
    );
    if (status.unknown.length)
      output.push(
        `Unknown to this version (${status.unknown.length}): ${list(status.unknown)} — a newer version of the server migrated this database.`,
      );
    const current = status.pending.length === 0 && status.unknown.length === 0;
    if (command === 'status') output.push(current ? 'The schema is current.' : 'The schema is not current.');
    return { output, exitCode: command === 'status' && !current ? 1 : 0 };
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  try {
    const { output, exitCode } = await migrate(process.argv[2] ?? 'up');
    (exitCode === 2 ? process.stderr : process.stdout).write(`${output.join('\n')}\n`);
    process.exitCode = exitCode;
  } catch (err) {
    process.stderr.write(`${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
