import { operations } from '../../http/handler.js';
import type { CurrencyService } from './service.js';

export function currencyRoutes({ currencies }: { currencies: CurrencyService }) {
  return operations({
    listCurrencies: async ({ query }) => ({ status: 200, body: await currencies.list(query.active_only ?? false) }),
  });
}
