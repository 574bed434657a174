import type { Knex } from 'knex';

export interface CurrencyRow {
  id: string;
  code: string;
  name: string;
  symbol: string | null;
  decimal_places: number;
  description: string | null;
  is_active: boolean;
}

const COLUMNS = ['id', 'code', 'name', 'symbol', 'decimal_places', 'description', 'is_active'];

export function currencyRepository({ knex }: { knex: Knex }) {
  return {
    async list(opts: { activeOnly: boolean }): Promise<CurrencyRow[]> {
      const qb = knex('currencies').select(COLUMNS).orderBy('code', 'asc');
      if (opts.activeOnly) qb.where('is_active', true);
      return qb;
    },

    async find(db: Knex | Knex.Transaction, id: string): Promise<CurrencyRow | undefined> {
      return db('currencies').select(COLUMNS).where({ id }).first<CurrencyRow | undefined>();
    },
  };
}
