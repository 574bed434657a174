import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { fromRaMessages, mergeMessages, type Messages } from '../lib/messages';
import * as app from './app';
import * as clusters from '../resources/clusters/i18n';
import * as businessUnits from '../resources/business-units/i18n';
import * as printTemplateMappings from '../resources/print-template-mappings/i18n';
import * as users from '../resources/users/i18n';
import * as auditLog from '../audit-log/i18n';
import * as account from '../account/i18n';
import * as memberImport from '../member-import/i18n';
import * as sso from '../sso/i18n';
import * as serviceAccounts from '../resources/service-accounts/i18n';
import * as webhooks from '../resources/webhooks/i18n';
import * as security from '../security/i18n';

/**
 * The English of every folder the first screen may show, merged here once. Each folder keeps its Thai beside it in
 * `i18n.th.ts`; `./thai.ts` merges those and loads the first time Thai is chosen, so the first download carries one
 * language. The workspace's and the domain dashboards' words load with their screens (see `ScreenMessages`).
 */
export const englishModules = {
  app: app.en,
  clusters: clusters.en,
  businessUnits: businessUnits.en,
  printTemplateMappings: printTemplateMappings.en,
  users: users.en,
  auditLog: auditLog.en,
  account: account.en,
  memberImport: memberImport.en,
  sso: sso.en,
  serviceAccounts: serviceAccounts.en,
  webhooks: webhooks.en,
  security: security.en,
} satisfies Record<string, Messages>;

const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'th', name: 'ไทย' },
] as const;

export const en = mergeMessages(fromRaMessages(englishMessages), ...Object.values(englishModules));

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
