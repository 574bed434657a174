/** The Intl locale of a console language. */
export const localeTag = (locale: string): string => (locale === 'th' ? 'th-TH' : 'en-US');

/**
 * An amount of money, written one way everywhere: Intl.NumberFormat with the currency's ISO code and its own
 * number of decimals ("THB 1,500.00", "USD 250.25"), so amounts in different currencies are never confused.
 */
export function formatAmount(value: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(localeTag(locale), { style: 'currency', currency, currencyDisplay: 'code' }).format(
      value,
    );
  } catch {
    // A code Intl does not know: the number in the locale, then the code as given.
    return `${new Intl.NumberFormat(localeTag(locale)).format(value)} ${currency}`;
  }
}
