import express from 'express';
import { HttpError } from '../../http/errors.js';
import { handle } from '../../http/handler.js';
import type { ModuleDeps } from '../types.js';

export function healthRouter({ knex, config }: ModuleDeps): express.Router {
  const r = express.Router();
  r.get(
    '/healthz',
    handle('getHealth', async () => {
      try {
        await knex.raw('select 1');
      } catch {
        throw new HttpError(503, 'The service cannot reach its database.');
      }
      return { status: 200, body: { status: 'ok', database: 'ok', version: config.version } };
    }),
  );
  return r;
}
