import { describe, expect, it } from 'vitest';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { withScreenMessages } from './ScreenMessages';

const consoleI18n = (locale: 'en' | 'th') =>
  polyglotI18nProvider(
    () => ({ ...englishMessages, app: { common: { close: locale === 'en' ? 'Close' : 'ปิด' } } }),
    locale,
    [{ locale, name: locale }],
    {
      allowMissing: true,
    },
  );

const screen = {
  en: { audit: { greeting: 'Hello %{name}', events: 'One event |||| %{smart_count} events', only_en: 'English only' } },
  th: { audit: { greeting: 'สวัสดี %{name}', events: '%{smart_count} เหตุการณ์' } },
};

describe('screen messages', () => {
  it('translate the screen’s keys in the current locale, with interpolation and plurals', () => {
    const en = withScreenMessages(consoleI18n('en'), [screen]);
    expect(en.translate('audit.greeting', { name: 'Somchai' })).toBe('Hello Somchai');
    expect(en.translate('audit.events', { smart_count: 3 })).toBe('3 events');
    const th = withScreenMessages(consoleI18n('th'), [screen]);
    expect(th.translate('audit.greeting', { name: 'Somchai' })).toBe('สวัสดี Somchai');
    expect(th.translate('audit.only_en')).toBe('English only');
  });

  it('leave every other key to the console’s translations', () => {
    const th = withScreenMessages(consoleI18n('th'), [screen]);
    expect(th.translate('app.common.close')).toBe('ปิด');
    expect(th.translate('app.unknown', { _: 'fallback' })).toBe('fallback');
  });
});
