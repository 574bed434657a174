import express from 'express';
import { handle } from '../../http/handler.js';
import { authOf } from '../../http/permissions.js';
import type { ModuleDeps } from '../types.js';
import { currencyService } from './service.js';

export function currenciesRouter({ knex }: ModuleDeps): express.Router {
  const currencies = currencyService({ knex });
  const r = express.Router();
  r.get('/api-system/currencies', handle('listCurrencies', async ({ req, query }) => ({ status: 200, body: await currencies.list(authOf(req), query) })));
  return r;
}
