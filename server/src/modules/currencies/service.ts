import type { Knex } from 'knex';
import type { components } from '../../../../openapi/generated/schema.js';
import { ForbiddenError } from '../../http/errors.js';
import { boolFilter } from '../../http/pagination.js';
import { canAnywhere, type AuthContext } from '../../http/permissions.js';
import { presentCurrency } from '../business-units/service.js';
import { currencyRepository } from './repository.js';

type CurrencyList = components['schemas']['CurrencyList'];

export function currencyService(deps: { knex: Knex }) {
  const repo = currencyRepository(deps.knex);
  return {
    async list(auth: AuthContext, query: Record<string, unknown>): Promise<CurrencyList> {
      if (!canAnywhere(auth.permissions, 'cluster.read')) throw new ForbiddenError('Missing permission cluster.read (on any cluster)');
      const rows = await repo.list({ activeOnly: boolFilter(query.active_only, 'active_only') ?? false });
      return { data: rows.map(presentCurrency) };
    },
  };
}
