import type { Knex } from 'knex';
import type { CurrencyRow } from '../business-units/repository.js';

export function currencyRepository(knex: Knex) {
  return {
    async list(opts: { activeOnly: boolean }): Promise<CurrencyRow[]> {
      const qb = knex('currencies').select('id', 'code', 'name', 'symbol', 'decimal_places', 'description', 'is_active').orderBy('code', 'asc');
      if (opts.activeOnly) qb.where('is_active', true);
      return qb;
    },
  };
}
