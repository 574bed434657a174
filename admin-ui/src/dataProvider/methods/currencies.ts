import type { Currency } from '../../types';
import type { ApiClient } from '../api';
import { unwrap } from '../outcome';

/** The currency lookup of the business-unit form. */
export function currencyMethods(c: ApiClient) {
  return {
    async getCurrencies(params: { active_only?: boolean } = {}): Promise<Currency[]> {
      return unwrap(await c.GET('/api-system/currencies', { params: { query: params } })).data;
    },
  };
}
