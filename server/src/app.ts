import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import express, { type Express, type Request, type RequestHandler } from 'express';
import helmet from 'helmet';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { StoragePort } from './storage/port.js';
import { isLocalStorage } from './storage/index.js';
import { requestLogger } from './http/logging.js';
import { authenticate, byCredentialKind, requireAccess } from './http/auth.js';
import { cors } from './http/cors.js';
import { assertEveryOperationHandled, dispatch } from './http/handler.js';
import { checkUpload, multipartUpload } from './http/multipart.js';
import { identifyOperation, operationsOf } from './http/operations.js';
import { limitJsonDepth } from './http/json-depth.js';
import { canonicalQuery } from './http/query-encoding.js';
import { callerRateLimits, signInRateLimit } from './http/rate-limit.js';
import { createRateLimitStore, type RateLimitStore } from './http/rate-limit-store.js';
import { apiNotFound, problemHandler } from './http/problem.js';
import { API_SPEC_PATH, loadApiSpec } from './http/spec.js';
import { consoleSite, publishedContract, referenceDocs } from './http/static.js';
import { createHandlers, createServices, type AppHandlers } from './modules/index.js';
import { staticChangeFeed, type ChangeFeed } from './db/changes.js';
import { deviceCookies } from './modules/auth/device-cookie.js';
import type { Metrics } from './observability/metrics.js';
import type { Tracing } from './observability/tracing.js';

export interface AppDeps {
  config: Config;
  db: { knex: Knex };
  storage: StoragePort;
  logger: Logger;
  /** Replaces some operations' handlers (for tests of the request pipeline itself). */
  handlerOverrides?: Partial<AppHandlers>;
  /** Committed changes (`openChangeFeed`); without one, caches always read through to the database. */
  changes?: ChangeFeed;
  /** Request, pool and cache metrics (METRICS_PORT); served by a listener of their own, never by this app. */
  metrics?: Metrics;
  /**
   * Where the rate limits count (`createRateLimitStore`, shared through Redis with RATE_LIMIT_REDIS_URL); its owner
   * closes it. Without one, this app counts in its own memory.
   */
  rateLimits?: RateLimitStore;
  /** Spans for requests, SQL statements and storage calls (OTEL_* settings); without it none are made. */
  tracing?: Tracing;
}

/** The package root: the repository, or the built tree `npm run build` writes to dist/. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The console build: `dist/console` in a built tree, `admin-ui/dist` in the repository. */
const CONSOLE_DIRS = [path.join(ROOT, 'console'), path.join(ROOT, 'admin-ui', 'dist')];

/** Paths the contract covers; everything else (console, docs) bypasses the validator. */
const CONTRACT_PATH = /^\/(api|api-system|files)(\/|$)|^\/(healthz|readyz)\/?$/;
/** The same paths, as mount points: every answer there is counted on a rate limit and says so. */
const CONTRACT_MOUNTS = ['/api', '/api-system', '/files', '/healthz', '/readyz'];

/**
 * `upgrade-insecure-requests` makes the browser fetch every script and style over https: right behind TLS, a white
 * page over plain HTTP (HOST=0.0.0.0 on a LAN). Sent only when the public address is https, or when a trusted proxy
 * (TRUST_PROXY) says this request reached it over TLS. Strict-Transport-Security follows the same rule.
 */
function upgradesInsecureRequests(config: Config): (req: Request) => boolean {
  const publicHttps = config.publicBaseUrl?.startsWith('https:') ?? false;
  return (req) => publicHttps || (config.trustProxy !== false && req.secure);
}

function securityHeaders(upgradeInsecure: (req: Request) => boolean): RequestHandler {
  const policy = (upgrade: boolean) =>
    helmet({
      contentSecurityPolicy: {
        directives: {
          // Signed image URLs may point at the bucket (GCS); the console uses inline styles (emotion).
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          'style-src': ["'self'", "'unsafe-inline'"],
          'upgrade-insecure-requests': upgrade ? [] : null,
        },
      },
      crossOriginResourcePolicy: { policy: 'same-site' },
      // HSTS means something only over TLS (RFC 6797 forbids it over plain HTTP): it goes with the upgrade.
      strictTransportSecurity: upgrade,
    });
  const [plain, upgrading] = [policy(false), policy(true)];
  return (req, res, next) => (upgradeInsecure(req) ? upgrading : plain)(req, res, next);
}

/** Builds the express app (no listen): logging, security headers, auth, contract validation, modules, errors. */
export function createApp({
  config,
  db,
  storage,
  logger,
  handlerOverrides,
  changes = staticChangeFeed(),
  metrics,
  rateLimits = createRateLimitStore({ redisUrl: null, redisPrefix: config.rateLimits.redisPrefix }),
  tracing,
}: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // ETags mean "record version" here (If-Match); no automatic body hashes.
  app.set('etag', false);

  // X-Forwarded-Proto/-For count only from the proxies TRUST_PROXY names (req.secure, req.protocol, req.ip).
  app.set('trust proxy', config.trustProxy);
  const upgradeInsecure = upgradesInsecureRequests(config);

  if (metrics) app.use(metrics.observeRequests);
  app.use(requestLogger(logger));
  app.use(securityHeaders(upgradeInsecure));
  app.use(cors(config.corsOrigins));
  // HEAD is GET without the body (RFC 9110): the contract lists GETs only, so let HEAD reach them as a GET.
  // Node decided when the request arrived that a HEAD response carries no body, so none is sent.
  app.use((req, _res, next) => {
    if (req.method === 'HEAD' && CONTRACT_PATH.test(req.path)) req.method = 'GET';
    next();
  });
  const spec = loadApiSpec();
  const operations = operationsOf(spec);
  // What each request addresses, and so what it requires, comes from the contract. The request validator below
  // checks the request against this same match (req.contractRoute), rather than matching the path again. Matched
  // before the sign-in limits, so a refused sign-in is logged and counted under its operation.
  app.use(identifyOperation(operations));
  if (tracing) {
    app.use(tracing.requests);
    tracing.queries(db.knex);
    storage = tracing.storage(storage);
  }
  if (metrics) app.use(metrics.observeExports);
  // Sign-in floods are refused here, before the body is parsed, a password hashed or the database asked.
  // A browser with a device cookie counts on its own bucket; refresh and sign-out on buckets of their own.
  const devices = deviceCookies({ secret: config.jwtSecret });
  app.use('/api/auth', signInRateLimit(rateLimits, config.signIn, { deviceOf: (req) => devices.ofRequest(req) }));
  const callerLimits = callerRateLimits(rateLimits, config.rateLimits);
  app.use(express.json({ limit: '1mb', type: ['application/json', 'application/*+json'] }));
  app.use(limitJsonDepth);

  const deps = { config, knex: db.knex, storage, logger, changes };
  const services = createServices(deps);
  const handlers = { ...createHandlers({ ...deps, services }), ...handlerOverrides };
  assertEveryOperationHandled(
    operations.map((op) => op.id),
    handlers,
  );

  // API answers carry short-lived signed URLs and change with every write: browsers must not replay a cached copy
  // (a conditional GET after a logo upload was answered 304 with the old record).
  app.use(['/api', '/api-system'], (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(
    ['/api', '/api-system'],
    authenticate(
      byCredentialKind({
        apiToken: (token, origin) => services.apiTokens.caller(token, origin),
        accessToken: (token) => services.auth.caller(token),
      }),
    ),
    requireAccess,
  );
  // Every other request to an operation counts on its principal's quota once authenticated, else its address's.
  app.use(CONTRACT_MOUNTS, callerLimits.perCaller);
  // Only upload operations take multipart, and only after authentication and the access rule: an anonymous or
  // unauthorised caller never gets a 5 MB body buffered and inspected.
  const parseMultipart = multipartUpload();
  app.use((req, res, next) => (req.operation?.upload ? parseMultipart(req, res, next) : next()), checkUpload());

  app.use(canonicalQuery);
  app.use(
    OpenApiValidator.middleware({
      apiSpec: API_SPEC_PATH,
      validateApiSpec: false,
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true, allErrors: true },
      validateResponses: config.validateResponses ? { removeAdditional: false } : false,
      validateSecurity: false,
      fileUploader: false,
      ignorePaths: (p: string) => !CONTRACT_PATH.test(p),
    }),
  );

  if (isLocalStorage(storage)) app.use(storage.router());
  app.use(dispatch(handlers, changes));
  app.use(['/api', '/api-system', '/files', '/healthz', '/readyz'], apiNotFound);

  app.use(publishedContract({ specPath: API_SPEC_PATH, publicBaseUrl: config.publicBaseUrl }));
  app.get(
    ['/docs', '/docs/'],
    referenceDocs({ root: ROOT, specPath: API_SPEC_PATH, publicBaseUrl: config.publicBaseUrl, upgradeInsecure }),
  );
  const site = consoleSite(config.consoleDir ?? CONSOLE_DIRS.find((dir) => existsSync(dir)) ?? CONSOLE_DIRS[1]!);
  app.use(site.files);
  // What the console's files did not answer, whatever the method: its page at `/`, else a 404 problem naming what exists.
  app.use(site.spaFallback);

  // A request refused before its turn (unauthenticated, unparsable, forbidden) is counted too, and may become a 429.
  app.use(CONTRACT_MOUNTS, callerLimits.refused);
  app.use(problemHandler);
  return app;
}
