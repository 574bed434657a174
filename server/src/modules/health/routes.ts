import type { Knex } from 'knex';
import { HttpError } from '../../core/errors.js';
import { operations } from '../../http/handler.js';

export function healthRoutes(deps: { knex: Knex; version: string }) {
  return operations({
    getHealth: async () => {
      try {
        await deps.knex.raw('select 1');
      } catch {
        throw new HttpError(503, 'The service cannot reach its database.');
      }
      return { status: 200, body: { status: 'ok', database: 'ok', version: deps.version } };
    },
  });
}
