import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { Messages } from '../lib/messages';
import { en } from './english';

const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'th', name: 'ไทย' },
] as const;

/** The messages of a locale: English at once, Thai (with English underneath) once its chunk has loaded. */
const messagesOf = (locale: string): Messages | Promise<Messages> =>
  locale === 'th' ? import('./thai').then((thai) => thai.th) : en;

const LOCALE_KEY = 'locale';

function savedLocale(): string {
  try {
    const stored = localStorage.getItem(LOCALE_KEY);
    if (stored && LOCALES.some((l) => l.locale === stored)) return stored;
  } catch {
    // storage unavailable: fall through to English
  }
  return 'en';
}

// Every tree already holds react-admin's English underneath; spreading it again only tells the types so. The provider
// starts in English, whose messages it needs at once; `restoreSavedLocale` switches to the operator's saved language.
const base = polyglotI18nProvider(
  (locale) => {
    const tree = messagesOf(locale);
    return tree instanceof Promise ? tree.then((t) => ({ ...englishMessages, ...t })) : { ...englishMessages, ...tree };
  },
  'en',
  [...LOCALES],
  {
    allowMissing: true,
  },
);

export const i18nProvider = {
  ...base,
  changeLocale: async (locale: string) => {
    try {
      localStorage.setItem(LOCALE_KEY, locale);
    } catch {
      // not persisted; still switch
    }
    return base.changeLocale(locale);
  },
};

/**
 * Switches to the language the operator chose last, before the first render, so that a Thai console never shows
 * English while its messages load. Resolves in English when they cannot load (the console still works).
 */
export async function restoreSavedLocale(): Promise<void> {
  const locale = savedLocale();
  if (locale === base.getLocale()) return;
  try {
    await base.changeLocale(locale);
  } catch {
    // the Thai chunk did not load (offline, a new deployment): stay in English
  }
}
