import type { OperationHandlers, HandledOperationId } from '../http/handler.js';
import type { ModuleDeps } from './types.js';
import { auditTrail } from './audit/service.js';
import { auditRoutes } from './audit/routes.js';
import { auditReverts } from './audit/revert.js';
import { authService } from './auth/service.js';
import { authRoutes } from './auth/routes.js';
import { brandingService } from './branding/service.js';
import { brandingRoutes } from './branding/routes.js';
import { businessUnitService } from './business-units/service.js';
import { businessUnitRoutes } from './business-units/routes.js';
import { clusterService } from './clusters/service.js';
import { clusterRoutes } from './clusters/routes.js';
import { currencyService } from './currencies/service.js';
import { currencyRoutes } from './currencies/routes.js';
import { datasetService } from './datasets/service.js';
import { datasetRoutes } from './datasets/routes.js';
import { feedService } from './feeds/service.js';
import { feedRoutes } from './feeds/routes.js';
import { healthRoutes } from './health/routes.js';
import { memberDirectory, membershipService } from './memberships/service.js';
import { membershipRoutes } from './memberships/routes.js';
import { membershipImportService } from './memberships/import/service.js';
import { membershipImportRoutes } from './memberships/import/routes.js';
import { identityProviders } from './sso/providers.js';
import { ssoRoutes } from './sso/routes.js';
import { ssoService } from './sso/service.js';
import { mappingService } from './print-template-mappings/service.js';
import { printTemplateMappingRoutes } from './print-template-mappings/routes.js';
import { reportTemplateService } from './report-templates/service.js';
import { reportTemplateRoutes } from './report-templates/routes.js';
import { serviceAccountService } from './service-accounts/service.js';
import { apiTokenService } from './service-accounts/tokens.js';
import { serviceAccountRoutes } from './service-accounts/routes.js';
import { userService } from './users/service.js';
import { userRoutes } from './users/routes.js';
import { userSessionRoutes } from './users/user-sessions-routes.js';
import { userSessionService } from './users/user-sessions.js';
import { secondFactorRoutes } from './second-factor/routes.js';
import { secondFactorService } from './second-factor/service.js';
import { widgetService } from './widgets/service.js';
import { widgetRoutes } from './widgets/routes.js';
import { webhookService } from './webhooks/service.js';
import { webhookRoutes } from './webhooks/routes.js';

export type { ModuleDeps } from './types.js';

/** Every operation's handler. The type lists them all, so an operation added to the contract fails the build until handled. */
export type AppHandlers = Pick<OperationHandlers, HandledOperationId>;

/**
 * The composition root: each service is built once, with the services it uses handed in, so modules depend on each
 * other in one direction only (memberships ← business units ← clusters; datasets ← widgets) and never on another
 * module's repository. See docs/adding-a-resource.md.
 */
export function createServices({ knex, storage, logger, config, changes }: ModuleDeps) {
  const audit = auditTrail({ knex, storage });
  const providers = identityProviders({ configs: config.oidcProviders });
  const reauth = (id: string) => {
    const p = providers.find(id);
    return p && { hours: p.reauthHours, displayName: p.displayName };
  };
  const secondFactors = secondFactorService({
    knex,
    serverSecret: config.jwtSecret,
    audit,
    configured: config.secondFactor.required,
    relyingParty: {
      rpId: config.secondFactor.rpId,
      origins: config.secondFactor.origins,
      publicBaseUrl: config.publicBaseUrl,
    },
  });
  const auth = authService({
    knex,
    jwtSecret: config.jwtSecret,
    audit,
    changes,
    reauth,
    secondFactors,
    secondFactorRequired: config.secondFactor.required,
  });
  const clusters = clusterService({ knex, storage, audit });
  const currencies = currencyService({ knex });
  const businessUnits = businessUnitService({ knex, storage, audit, clusters, currencies, members: memberDirectory() });
  const memberships = membershipService({ knex, audit, clusters, businessUnits });
  const widgets = widgetService({ knex, audit });
  const mappings = mappingService({ knex, audit, changes });
  const serviceAccounts = serviceAccountService({ knex, audit });
  return {
    serviceAccounts,
    apiTokens: apiTokenService({ knex, audit, accounts: serviceAccounts, logger }),
    audit,
    auth,
    secondFactors,
    clusters,
    currencies,
    businessUnits,
    memberships,
    membershipImport: membershipImportService({ knex, audit }),
    sso: ssoService({ knex, logger, audit, auth, providers }),
    widgets,
    datasets: datasetService({ knex, pinnedDatasetIds: widgets.pinnedDatasetIds }),
    users: userService({ knex, audit }),
    userSessions: userSessionService({ knex, audit }),
    branding: brandingService({ knex, storage, logger, audit }),
    mappings,
    reverts: auditReverts({ knex, targets: { clusters, businessUnits, mappings } }),
    reportTemplates: reportTemplateService({ knex }),
    feeds: feedService({ knex }),
    webhooks: webhookService({ knex, audit, allowPrivateTargets: config.webhooks.allowPrivateTargets }),
  };
}

export type Services = ReturnType<typeof createServices>;

export function createHandlers({ services, ...deps }: ModuleDeps & { services: Services }): AppHandlers {
  return {
    ...healthRoutes({ knex: deps.knex, version: deps.config.version }),
    ...authRoutes({ auth: services.auth }),
    ...ssoRoutes({ sso: services.sso, publicBaseUrl: deps.config.publicBaseUrl }),
    ...auditRoutes({ audit: services.audit, reverts: services.reverts }),
    ...clusterRoutes({ clusters: services.clusters }),
    ...businessUnitRoutes({ businessUnits: services.businessUnits }),
    ...membershipRoutes({ memberships: services.memberships }),
    ...membershipImportRoutes({ imports: services.membershipImport }),
    ...userRoutes({ users: services.users }),
    ...userSessionRoutes({ sessions: services.userSessions }),
    ...secondFactorRoutes({ factors: services.secondFactors }),
    ...serviceAccountRoutes({ accounts: services.serviceAccounts, tokens: services.apiTokens }),
    ...brandingRoutes({ branding: services.branding }),
    ...currencyRoutes({ currencies: services.currencies }),
    ...printTemplateMappingRoutes({ mappings: services.mappings }),
    ...reportTemplateRoutes({ templates: services.reportTemplates }),
    ...widgetRoutes({ widgets: services.widgets }),
    ...datasetRoutes({ datasets: services.datasets }),
    ...feedRoutes({ feeds: services.feeds }),
    ...webhookRoutes({ webhooks: services.webhooks }),
  };
}
