import { useFormat } from '../lib/format';

/** The currency of the domain dashboards' sample figures. */
const SAMPLE_CURRENCY = 'THB';

/** Number, amount and date formatting in the console's locale: the console's one format, amounts in baht. */
export function useFormatters() {
  const format = useFormat();
  return {
    compact: format.compact,
    number: format.number,
    /** An amount in its currency (the sample figures are in baht). */
    amount: (n: number, currency: string = SAMPLE_CURRENCY) => format.amount(n, currency),
    percent: format.percent,
    date: format.date,
  };
}
