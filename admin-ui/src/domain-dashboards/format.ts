import { useLocaleState } from 'react-admin';

/** Number and date formatting in the console's locale. */
export function useFormatters() {
  const [locale] = useLocaleState();
  const tag = locale === 'th' ? 'th-TH' : 'en-US';
  const numberFormat = new Intl.NumberFormat(tag, { maximumFractionDigits: 2 });
  const currencyFormat = new Intl.NumberFormat(tag, { style: 'currency', currency: 'THB', maximumFractionDigits: 0 });
  const compactFormat = new Intl.NumberFormat(tag, { notation: 'compact' });
  return {
    compact: (n: number) => compactFormat.format(n),
    number: (n: number) => numberFormat.format(n),
    currency: (n: number) => currencyFormat.format(n),
    percent: (n: number) => `${numberFormat.format(n)}%`,
    /** `YYYY-MM-DD` dates are shown as they are (they carry no time zone). */
    date: (d: string) => d,
  };
}
