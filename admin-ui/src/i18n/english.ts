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
 * The English of every folder the first screen may show, merged once. Each folder keeps its Thai beside it in
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

/** The console's English, over react-admin's own. */
export const en = mergeMessages(fromRaMessages(englishMessages), ...Object.values(englishModules));
