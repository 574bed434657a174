import type { Knex } from 'knex';
import { migrationStatus, type MigrationStatus } from '../../db/migration-status.js';
import { ServiceUnavailableError } from '../../http/errors.js';
import { operations } from '../../http/handler.js';

const DATABASE_UNREACHABLE = 'The service cannot reach its database.';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Why a reachable database is not the schema this server serves, or null when it is. */
export function schemaProblem({ pending, unknown }: MigrationStatus): string | null {
  if (unknown.length > 0) {
    return `The database has ${plural(unknown.length, 'migration')} this version of the server does not know (${unknown.join(', ')}): a newer version migrated it.`;
  }
  if (pending.length > 0) {
    return `The database lacks ${plural(pending.length, 'migration')} of this version (${pending.join(', ')}): run \`npm run migrate -- up\` or restart the server, which migrates at start.`;
  }
  return null;
}

export function healthRoutes(deps: { knex: Knex; version: string }) {
  return operations({
    getHealth: async () => {
      try {
        await deps.knex.raw('select 1');
      } catch {
        throw new ServiceUnavailableError(DATABASE_UNREACHABLE);
      }
      return { status: 200, body: { status: 'ok', database: 'ok', version: deps.version } };
    },

    getReadiness: async () => {
      let status: MigrationStatus;
      try {
        status = await migrationStatus(deps.knex);
      } catch {
        throw new ServiceUnavailableError(DATABASE_UNREACHABLE);
      }
      const problem = schemaProblem(status);
      if (problem) throw new ServiceUnavailableError(problem);
      const body = {
        status: 'ready' as const,
        database: 'ok' as const,
        migrations: { applied: status.applied.length, latest: status.applied.at(-1) ?? null },
        version: deps.version,
      };
      return { status: 200, body };
    },
  });
}
