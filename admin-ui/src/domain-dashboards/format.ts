import { useLocaleState } from 'react-admin';
import { formatAmount, localeTag } from '../lib/amounts';

/** The currency of the domain dashboards' sample figures. */
const SAMPLE_CURRENCY = 'THB';

/** Number, amount and date formatting in the console's locale. */
export function useFormatters() {
  const [locale] = useLocaleState();
  const tag = localeTag(locale);
  const numberFormat = new Intl.NumberFormat(tag, { maximumFractionDigits: 2 });
  const compactFormat = new Intl.NumberFormat(tag, { notation: 'compact' });
  return {
    compact: (n: number) => compactFormat.format(n),
    number: (n: number) => numberFormat.format(n),
    /** An amount in its currency (the sample figures are in baht). */
    amount: (n: number, currency: string = SAMPLE_CURRENCY) => formatAmount(n, currency, locale),
    percent: (n: number) => `${numberFormat.format(n)}%`,
    /** `YYYY-MM-DD` dates are shown as they are (they carry no time zone). */
    date: (d: string) => d,
  };
}
