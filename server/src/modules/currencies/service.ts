import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import { currencyRepository, type CurrencyRow } from './repository.js';

type Currency = Schemas['Currency'];

function present(c: CurrencyRow): Currency {
  return {
    id: c.id,
    code: c.code,
    name: c.name,
    symbol: c.symbol ?? '',
    decimal_places: c.decimal_places,
    description: c.description,
    is_active: c.is_active,
  };
}

export function currencyService({ knex }: { knex: Knex }) {
  const repo = currencyRepository({ knex });
  return {
    async list(activeOnly: boolean): Promise<Schemas['CurrencyList']> {
      return { data: (await repo.list({ activeOnly })).map(present) };
    },

    /** A business unit's default currency, or undefined when the id names none. */
    async find(db: Knex | Knex.Transaction, id: string): Promise<Currency | undefined> {
      const row = await repo.find(db, id);
      return row && present(row);
    },
  };
}

export type CurrencyService = ReturnType<typeof currencyService>;
