import type { DataProvider } from 'react-admin';
import { api as defaultApi, type Api } from './api';
import { createCrudOps } from './crud';
import { createCrudVerbs } from './crudVerbs';
import { createEtagStore } from './etagStore';
import { toAuditQuery } from './auditLogQuery';
import { accountMethods } from './methods/account';
import { bulkMethods } from './methods/bulk';
import { currencyMethods } from './methods/currencies';
import { exportMethods } from './methods/exports';
import { feedMethods } from './methods/feeds';
import { memberMethods } from './methods/members';
import { memberImportMethods } from './methods/memberImport';
import { printMappingMethods } from './methods/printMappings';
import { recordMethods } from './methods/records';
import { serviceAccountMethods } from './methods/serviceAccounts';
import { secondFactorMethods } from './methods/secondFactors';
import { ssoMethods } from './methods/sso';
import { userMethods } from './methods/users';
import { userSessionMethods } from './methods/userSessions';
import { webhookMethods } from './methods/webhooks';
import { workspaceMethods } from './methods/workspace';

/** react-admin's CRUD verbs plus the contract's other calls as custom methods (`useAppDataProvider()`). */
export function createDataProvider(api: Api = defaultApi) {
  const c = api.client;
  // One store for every write of a record, so an image removal names the version the record page read.
  const etags = createEtagStore();
  const users = userMethods(c);
  return {
    ...createCrudVerbs(createCrudOps(c, etags), {
      'audit-log': (params) => users.listAuditEvents(toAuditQuery(params)),
    }),
    ...recordMethods(c, etags),
    ...currencyMethods(c),
    ...memberMethods(c),
    ...printMappingMethods(c),
    ...workspaceMethods(c),
    ...feedMethods(c),
    ...users,
    ...ssoMethods(c),
    ...serviceAccountMethods(c),
    ...webhookMethods(c),
    ...accountMethods(c),
    ...secondFactorMethods(c),
    ...userSessionMethods(c),
    ...exportMethods(c),
    ...bulkMethods(c),
    ...memberImportMethods(api),
  } satisfies DataProvider;
}

export type AppDataProvider = ReturnType<typeof createDataProvider>;

export const dataProvider = createDataProvider();
