import { mergeMessages, type Messages } from '../lib/messages';
import { en, englishModules } from './english';
import { raThai } from './raThai';
import * as app from './app.th';
import * as clusters from '../resources/clusters/i18n.th';
import * as businessUnits from '../resources/business-units/i18n.th';
import * as printTemplateMappings from '../resources/print-template-mappings/i18n.th';
import * as users from '../resources/users/i18n.th';
import * as auditLog from '../audit-log/i18n.th';
import * as account from '../account/i18n.th';
import * as memberImport from '../member-import/i18n.th';
import * as sso from '../sso/i18n.th';
import * as serviceAccounts from '../resources/service-accounts/i18n.th';
import * as webhooks from '../resources/webhooks/i18n.th';
import * as security from '../security/i18n.th';

/** The Thai of every folder `englishModules` names: the type refuses a folder whose English has no Thai. */
export const thaiModules: Record<keyof typeof englishModules, Messages> = {
  app: app.th,
  clusters: clusters.th,
  businessUnits: businessUnits.th,
  printTemplateMappings: printTemplateMappings.th,
  users: users.th,
  auditLog: auditLog.th,
  account: account.th,
  memberImport: memberImport.th,
  sso: sso.th,
  serviceAccounts: serviceAccounts.th,
  webhooks: webhooks.th,
  security: security.th,
};

/** Each folder's English beside its Thai, for the checks that both say the same things. */
export const messageModules = (Object.keys(englishModules) as (keyof typeof englishModules)[]).map((name) => ({
  name,
  en: englishModules[name],
  th: thaiModules[name],
}));

/** Thai alone, without English underneath: what i18n/thai.test.tsx renders the screens with. */
export const thaiOnly = mergeMessages(raThai, ...Object.values(thaiModules));
// English stays underneath as a last resort; the Thai test fails on any key a screen shows that Thai lacks.
export const th = mergeMessages(en, thaiOnly);

export const messages: Record<string, Messages> = { en, th };
