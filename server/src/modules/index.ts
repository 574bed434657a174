import type { ModuleRouterFactory } from './types.js';
import { authRouter } from './auth/routes.js';
import { healthRouter } from './health/routes.js';
import { clustersRouter } from './clusters/routes.js';
import { businessUnitsRouter } from './business-units/routes.js';
import { membershipsRouter } from './memberships/routes.js';
import { usersRouter } from './users/routes.js';
import { brandingRouter } from './branding/routes.js';
import { currenciesRouter } from './currencies/routes.js';
import { printTemplateMappingsRouter } from './print-template-mappings/routes.js';
import { reportTemplatesRouter } from './report-templates/routes.js';
import { widgetsRouter } from './widgets/routes.js';
import { datasetsRouter } from './datasets/routes.js';
import { feedsRouter } from './feeds/routes.js';

export type { ModuleDeps, ModuleRouterFactory } from './types.js';

/**
 * The one place where resource modules register. Append your module's router factory to this list;
 * each router declares full paths from the contract (`/api-system/...`, `/api/proxy/api/...`).
 * Authentication, contract validation and problem+json errors are applied by the app around all of them.
 */
export const moduleRouters: ModuleRouterFactory[] = [
  healthRouter,
  authRouter,
  clustersRouter,
  businessUnitsRouter,
  membershipsRouter,
  usersRouter,
  brandingRouter,
  currenciesRouter,
  printTemplateMappingsRouter,
  reportTemplatesRouter,
  widgetsRouter,
  datasetsRouter,
  feedsRouter,
];
