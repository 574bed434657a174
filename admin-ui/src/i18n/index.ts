import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { raThai } from './raThai';
import { fromRaMessages, mergeMessages, type MessageModule, type Messages } from '../lib/messages';
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
 * Every folder contributes its own `{ en, th }` messages; they are merged here once. The workspace's and the domain
 * dashboards' words load with their screens (see `ScreenMessages`).
 */
export const messageModules: MessageModule[] = [
  app,
  clusters,
  businessUnits,
  printTemplateMappings,
  users,
  auditLog,
  account,
  memberImport,
  sso,
  serviceAccounts,
  webhooks,
  security,
];

const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'th', name: 'ไทย' },
] as const;

const en = mergeMessages(fromRaMessages(englishMessages), ...messageModules.map((m) => m.en));
/** Thai alone, without English underneath: what i18n/thai.test.tsx renders the screens with. */
export const thaiOnly = mergeMessages(raThai, ...messageModules.map((m) => m.th));
// English stays underneath as a last resort; the Thai test fails on any key a screen shows that Thai lacks.
const th = mergeMessages(en, thaiOnly);

export const messages: Record<string, Messages> = { en, th };

const LOCALE_KEY = 'locale';

function initialLocale(): string {
  try {
    const stored = localStorage.getItem(LOCALE_KEY);
    if (stored && stored in messages) return stored;
  } catch {
    // storage unavailable: fall through to English
  }
  return 'en';
}

// Every tree already holds react-admin's English underneath; spreading it again only tells the types so.
const base = polyglotI18nProvider(
  (locale) => ({ ...englishMessages, ...(messages[locale] ?? en) }),
  initialLocale(),
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
