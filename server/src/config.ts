import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { oidcProvidersOf, type OidcProviderConfig } from './config-oidc.js';
import { defaultOf, type SettingName } from './config-schema.js';
import { tracingOf, type TracingConfig } from './config-tracing.js';

export type NodeEnv = 'development' | 'production' | 'test';

export type DatabaseConfig =
  { engine: 'pglite'; /** null = in-memory (tests, mock) */ dir: string | null } | { engine: 'postgres'; url: string };

export type StorageConfig =
  | { driver: 'local'; dir: string }
  | { driver: 'gcs'; bucket: string; keyFile: string | null; apiEndpoint: string | null };

export interface Config {
  nodeEnv: NodeEnv;
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  admin: { username: string; password: string };
  demoPassword: string;
  /** Whether a first start creates the demo tenants and accounts (SEED_DEMO; default: not in production). */
  seedDemo: boolean;
  jwtSecret: string;
  storage: StorageConfig;
  logLevel: string;
  validateResponses: boolean;
  /** Origins allowed to call the API from a browser (CORS); empty = same origin only, no CORS headers. */
  corsOrigins: string[];
  /** Where the console build is served from; null = the build next to the server (dist/console or admin-ui/dist). */
  consoleDir: string | null;
  /** The address clients use (scheme, host, optional port and path, no trailing slash); the published spec and docs name it. */
  publicBaseUrl: string | null;
  /**
   * Express's `trust proxy`: false, a hop count, or addresses/subnets of the proxies whose X-Forwarded-* headers count.
   * `true` (trust every hop, so every client names its own address) is refused in production.
   */
  trustProxy: boolean | number | string[];
  /** Sign-in protection on /api/auth/*: token buckets per client (sign-in, and refresh apart), and concurrent password hashes. */
  signIn: {
    perClient: { limit: number; windowSeconds: number };
    refresh: { limit: number; windowSeconds: number };
    hashConcurrency: number;
    hashQueue: number;
  };
  /** Every other operation: a quota per credential, and per client address without one; shared through Redis when set. */
  rateLimits: {
    perCredential: { limit: number; windowSeconds: number };
    perAddress: { limit: number; windowSeconds: number };
    /** RATE_LIMIT_REDIS_URL; null = each replica counts in its own memory. */
    redisUrl: string | null;
    redisPrefix: string;
  };
  /** OpenID Connect providers for single sign-on (OIDC_PROVIDERS); empty = local sign-in only. */
  oidcProviders: OidcProviderConfig[];
  /** Webhook deliveries: whether private, loopback and link-local targets (and http) are allowed (development, tests). */
  webhooks: { allowPrivateTargets: boolean; timeoutSeconds: number };
  /** Who must have a second factor (SECOND_FACTOR_REQUIRED), and where passkeys are bound (WEBAUTHN_*; null: derived). */
  secondFactor: {
    required: 'none' | 'privileged' | 'everyone';
    rpId: string | null;
    origins: string[];
  };
  /** The Prometheus endpoint's own listener (METRICS_PORT); null port = no metrics kept or served. */
  metrics: { port: number | null; host: string; token: string | null };
  /** OpenTelemetry traces (OTEL_* settings); exporter `none` = off. */
  tracing: TracingConfig;
  /** Where the signing secret came from: the environment, or a file generated into DATA_DIR (one per data directory). */
  jwtSecretSource: 'env' | 'generated';
  version: string;
}

/** Thrown with every problem found, one line each, so an operator can fix them in one go. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const JWT_SECRET_FILE = 'jwt-secret';

function packageVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    return (require('../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** A setting's value as written (untrimmed; passwords keep their spaces), or undefined when unset. */
function rawOf(env: NodeJS.ProcessEnv, name: SettingName): string | undefined {
  return env[name];
}

/** A setting's trimmed value, or undefined when unset or blank. */
function valueOf(env: NodeJS.ProcessEnv, name: SettingName): string | undefined {
  const v = rawOf(env, name);
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/**
 * Reads and validates the environment, by the settings of config-schema.ts. When JWT_SECRET is absent (outside production) a secret is
 * generated once and kept in DATA_DIR so restarts keep issued tokens valid.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const str = (name: SettingName): string | undefined => valueOf(env, name);
  /** The value, else the table's default. */
  const orDefault = (name: SettingName): string | undefined => str(name) ?? defaultOf(name);

  const nodeEnvRaw = orDefault('NODE_ENV') ?? 'development';
  let nodeEnv: NodeEnv = 'development';
  if (nodeEnvRaw === 'development' || nodeEnvRaw === 'production' || nodeEnvRaw === 'test') nodeEnv = nodeEnvRaw;
  else problems.push(`NODE_ENV must be one of development, production, test (got "${nodeEnvRaw}")`);

  let port = 3000;
  const portRaw = orDefault('PORT');
  if (portRaw !== undefined) {
    const n = Number(portRaw);
    if (!/^\d+$/.test(portRaw) || n < 0 || n > 65535)
      problems.push(`PORT must be an integer between 0 and 65535 (got "${portRaw}")`);
    else port = n;
  }

  const host = orDefault('HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(orDefault('DATA_DIR') ?? './var');
  const consoleDirRaw = str('CONSOLE_DIR');
  const consoleDir = consoleDirRaw === undefined ? null : path.resolve(consoleDirRaw);

  const { database } = databaseOf(env, dataDir, problems);

  const adminUsername = orDefault('ADMIN_USERNAME') ?? 'admin';
  if (!/^[A-Za-z0-9._@-]{1,100}$/.test(adminUsername))
    problems.push('ADMIN_USERNAME may contain only letters, digits and . _ @ - (1–100 characters)');
  const adminPassword = rawOf(env, 'ADMIN_PASSWORD') ?? defaultOf('ADMIN_PASSWORD') ?? 'admin123';
  if (adminPassword.length < 6) problems.push('ADMIN_PASSWORD must have at least 6 characters');
  if (nodeEnv === 'production' && rawOf(env, 'ADMIN_PASSWORD') === undefined)
    problems.push('ADMIN_PASSWORD is required when NODE_ENV=production (the default is for local use only)');
  const seedDemoRaw = str('SEED_DEMO');
  if (seedDemoRaw !== undefined && !/^(true|false|1|0)$/.test(seedDemoRaw))
    problems.push('SEED_DEMO must be true or false');
  const seedDemo = seedDemoRaw === undefined ? nodeEnv !== 'production' : seedDemoRaw === 'true' || seedDemoRaw === '1';
  const demoPassword = rawOf(env, 'DEMO_PASSWORD') ?? defaultOf('DEMO_PASSWORD') ?? 'demo1234';
  if (demoPassword.length < 6) problems.push('DEMO_PASSWORD must have at least 6 characters');
  // With the demo, a first start creates demo accounts; a published default must never guard them live.
  if (nodeEnv === 'production' && seedDemo && rawOf(env, 'DEMO_PASSWORD') === undefined)
    problems.push(
      'DEMO_PASSWORD is required when NODE_ENV=production and SEED_DEMO=true (the demo accounts must not share the documented default)',
    );

  let jwtSecret = str('JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) problems.push('JWT_SECRET must have at least 32 characters');
  if (jwtSecret === undefined && nodeEnv === 'production')
    problems.push('JWT_SECRET is required when NODE_ENV=production (replicas must share it)');

  let storage: StorageConfig = { driver: 'local', dir: path.join(dataDir, 'uploads') };
  const storageDriver = orDefault('STORAGE') ?? 'local';
  if (storageDriver === 'gcs') {
    const bucket = str('GCS_BUCKET');
    const keyFile = str('GCS_KEY_FILE') ?? str('GOOGLE_APPLICATION_CREDENTIALS') ?? null;
    const apiEndpoint = str('GCS_API_ENDPOINT') ?? null;
    if (bucket === undefined) problems.push('GCS_BUCKET is required when STORAGE=gcs');
    if (keyFile !== null && !existsSync(keyFile))
      problems.push(`GCS_KEY_FILE / GOOGLE_APPLICATION_CREDENTIALS points to a missing file: ${keyFile}`);
    if (apiEndpoint !== null && !/^https?:\/\//.test(apiEndpoint))
      problems.push('GCS_API_ENDPOINT must be an http(s) URL');
    storage = { driver: 'gcs', bucket: bucket ?? '', keyFile, apiEndpoint };
  } else if (storageDriver !== 'local') {
    problems.push(`STORAGE must be "local" or "gcs" (got "${storageDriver}")`);
  }

  const logLevel = str('LOG_LEVEL') ?? (nodeEnv === 'test' ? 'silent' : 'info');
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);

  let validateResponses = nodeEnv !== 'production';
  const vr = str('VALIDATE_RESPONSES');
  if (vr !== undefined) {
    if (['1', 'true', 'on', 'yes'].includes(vr.toLowerCase())) validateResponses = true;
    else if (['0', 'false', 'off', 'no'].includes(vr.toLowerCase())) validateResponses = false;
    else problems.push(`VALIDATE_RESPONSES must be true or false (got "${vr}")`);
  }

  const privateTargets = orDefault('WEBHOOK_ALLOW_PRIVATE_TARGETS') ?? 'false';
  const webhooks = {
    allowPrivateTargets: ['1', 'true', 'on', 'yes'].includes(privateTargets.toLowerCase()),
    timeoutSeconds: countOf(orDefault('WEBHOOK_TIMEOUT_SECONDS'), 'WEBHOOK_TIMEOUT_SECONDS', 10, 1, 60, problems),
  };
  if (!webhooks.allowPrivateTargets && !['0', 'false', 'off', 'no'].includes(privateTargets.toLowerCase()))
    problems.push(`WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false (got "${privateTargets}")`);

  const corsOrigins: string[] = [];
  for (const raw of (str('CORS_ORIGINS') ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)) {
    let origin: string | null = null;
    try {
      const u = new URL(raw);
      if (
        (u.protocol === 'http:' || u.protocol === 'https:') &&
        u.origin === raw.replace(/\/$/, '') &&
        !u.username &&
        !u.password
      )
        origin = u.origin;
    } catch {
      /* reported below */
    }
    if (origin) corsOrigins.push(origin);
    else
      problems.push(
        `CORS_ORIGINS must be a comma-separated list of origins like https://console.example.com (scheme, host, optional port; no path, no "*"): "${raw}" is not one`,
      );
  }

  let publicBaseUrl: string | null = null;
  const publicBaseUrlRaw = str('PUBLIC_BASE_URL');
  if (publicBaseUrlRaw !== undefined) {
    publicBaseUrl = publicBaseUrlOf(publicBaseUrlRaw);
    if (publicBaseUrl === null)
      problems.push(
        `PUBLIC_BASE_URL must be an http(s) URL like https://admin.example.com or https://example.com/admin (no query, fragment or credentials): "${publicBaseUrlRaw}" is not one`,
      );
  }

  const requiredRaw = str('SECOND_FACTOR_REQUIRED');
  let secondFactorRequired: Config['secondFactor']['required'] = nodeEnv === 'production' ? 'privileged' : 'none';
  if (requiredRaw === 'none' || requiredRaw === 'privileged' || requiredRaw === 'everyone')
    secondFactorRequired = requiredRaw;
  else if (requiredRaw !== undefined)
    problems.push(`SECOND_FACTOR_REQUIRED must be none, privileged or everyone (got "${requiredRaw}")`);
  const rpId = str('WEBAUTHN_RP_ID')?.toLowerCase() ?? null;
  if (rpId !== null && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(rpId))
    problems.push(`WEBAUTHN_RP_ID must be a host name like admin.example.com (got "${rpId}")`);
  const webauthnOrigins: string[] = [];
  for (const raw of (str('WEBAUTHN_ORIGINS') ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)) {
    let origin: string | null = null;
    try {
      const u = new URL(raw);
      if ((u.protocol === 'http:' || u.protocol === 'https:') && u.origin === raw.replace(/\/$/, '')) origin = u.origin;
    } catch {
      /* reported below */
    }
    if (origin) webauthnOrigins.push(origin);
    else
      problems.push(
        `WEBAUTHN_ORIGINS must be a comma-separated list of origins like https://admin.example.com: "${raw}" is not one`,
      );
  }

  let trustProxy: boolean | number | string[] = false;
  const trustProxyRaw = orDefault('TRUST_PROXY');
  if (trustProxyRaw !== undefined) {
    const parsed = trustProxyOf(trustProxyRaw);
    if (parsed === null)
      problems.push(
        `TRUST_PROXY must be false, a number of proxy hops, or a comma-separated list of proxy addresses or subnets (got "${trustProxyRaw}")`,
      );
    else if (parsed === true && nodeEnv === 'production') problems.push(TRUST_PROXY_TRUE_REFUSED);
    else trustProxy = parsed;
  }

  const signIn = {
    perClient: rateOf(orDefault('AUTH_RATE_PER_IP'), 'AUTH_RATE_PER_IP', DEFAULT_RATE_PER_IP, problems),
    refresh: rateOf(orDefault('AUTH_RATE_REFRESH'), 'AUTH_RATE_REFRESH', DEFAULT_RATE_REFRESH, problems),
    hashConcurrency: countOf(
      str('AUTH_HASH_CONCURRENCY'),
      'AUTH_HASH_CONCURRENCY',
      defaultHashConcurrency(),
      1,
      64,
      problems,
    ),
    hashQueue: countOf(orDefault('AUTH_HASH_QUEUE'), 'AUTH_HASH_QUEUE', 32, 0, 100_000, problems),
  };

  const redisUrl = str('RATE_LIMIT_REDIS_URL') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\/[^\s]+$/.test(redisUrl))
    problems.push(
      `RATE_LIMIT_REDIS_URL must be a redis:// or rediss:// URL, like redis://redis:6379 (got "${redisUrl}")`,
    );
  const redisPrefix = orDefault('RATE_LIMIT_REDIS_PREFIX') ?? 'rate-limit';
  if (!/^[A-Za-z0-9._:-]{1,100}$/.test(redisPrefix))
    problems.push('RATE_LIMIT_REDIS_PREFIX may contain only letters, digits and . _ : - (1–100 characters)');
  const rateLimits = {
    perCredential: rateOf(
      orDefault('RATE_LIMIT_PER_CREDENTIAL'),
      'RATE_LIMIT_PER_CREDENTIAL',
      DEFAULT_RATE_PER_CREDENTIAL,
      problems,
    ),
    perAddress: rateOf(
      orDefault('RATE_LIMIT_PER_ADDRESS'),
      'RATE_LIMIT_PER_ADDRESS',
      DEFAULT_RATE_PER_ADDRESS,
      problems,
    ),
    redisUrl,
    redisPrefix,
  };

  const oidcProviders = oidcProvidersOf(str('OIDC_PROVIDERS'), problems);

  const metricsPortRaw = str('METRICS_PORT');
  const metrics = {
    port: metricsPortRaw === undefined ? null : countOf(metricsPortRaw, 'METRICS_PORT', 0, 0, 65535, problems),
    host: orDefault('METRICS_HOST') ?? '127.0.0.1',
    token: str('METRICS_TOKEN') ?? null,
  };
  if (metrics.token !== null && metrics.token.length < 16)
    problems.push('METRICS_TOKEN must have at least 16 characters');
  if (metrics.port !== null && metrics.port !== 0 && metrics.port === port)
    problems.push('METRICS_PORT must differ from PORT: metrics are never served on the public port');
  const tracing = tracingOf(str, problems);

  if (problems.length > 0) throw new ConfigError(problems);

  const jwtSecretSource = jwtSecret === undefined ? 'generated' : 'env';
  jwtSecret ??= persistedSecret(dataDir);

  return {
    nodeEnv,
    port,
    host,
    dataDir,
    database,
    admin: { username: adminUsername, password: adminPassword },
    demoPassword,
    seedDemo,
    jwtSecret,
    storage,
    logLevel,
    validateResponses,
    corsOrigins,
    consoleDir,
    publicBaseUrl,
    trustProxy,
    signIn,
    rateLimits,
    oidcProviders,
    webhooks,
    secondFactor: { required: secondFactorRequired, rpId, origins: webauthnOrigins },
    metrics,
    tracing,
    jwtSecretSource,
    version: packageVersion(),
  };
}

/** DATA_DIR and DATABASE_URL alone: what the database tools (`npm run migrate`, `backup`, `restore`) need. */
export function loadDatabaseConfig(env: NodeJS.ProcessEnv = process.env): {
  dataDir: string;
  database: DatabaseConfig;
} {
  const problems: string[] = [];
  const dataDir = path.resolve(valueOf(env, 'DATA_DIR') ?? defaultOf('DATA_DIR') ?? './var');
  const { database } = databaseOf(env, dataDir, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return { dataDir, database };
}

function databaseOf(env: NodeJS.ProcessEnv, dataDir: string, problems: string[]): { database: DatabaseConfig } {
  let database: DatabaseConfig = { engine: 'pglite', dir: path.join(dataDir, 'db') };
  const databaseUrl = valueOf(env, 'DATABASE_URL');
  if (databaseUrl !== undefined) {
    if (databaseUrl === 'memory://') database = { engine: 'pglite', dir: null };
    else if (!/^postgres(ql)?:\/\//.test(databaseUrl))
      problems.push('DATABASE_URL must start with postgres:// or postgresql://');
    else {
      try {
        new URL(databaseUrl);
        database = { engine: 'postgres', url: databaseUrl };
      } catch {
        problems.push('DATABASE_URL is not a valid URL');
      }
    }
  }
  return { database };
}

/** `https://Example.com:8443/admin/` → `https://example.com:8443/admin`; null when it is not a plain http(s) base URL. */
function publicBaseUrlOf(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.username || u.password || u.search || u.hash || raw.includes('?') || raw.includes('#')) return null;
  const base = `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  // The address is written into the published spec and the docs page: only characters that need no escaping there.
  return /^https?:\/\/[A-Za-z0-9.\-[\]:]+(\/[A-Za-z0-9._~\-/%]*)?$/.test(base) ? base : null;
}

/**
 * 20 sign-in requests per address (or device) in 20 seconds; 60 token refreshes per address a minute (an office
 * behind one address refreshes every 15 minutes per signed-in person).
 */
const DEFAULT_RATE_PER_IP = { limit: 20, windowSeconds: 20 };
const DEFAULT_RATE_REFRESH = { limit: 60, windowSeconds: 60 };
/**
 * 600 requests a minute per credential and per anonymous address: a console page asks for a dozen, a person never
 * comes near it, and a runaway script is held to ten a second, a small share of what one replica serves.
 */
const DEFAULT_RATE_PER_CREDENTIAL = { limit: 600, windowSeconds: 60 };
const DEFAULT_RATE_PER_ADDRESS = { limit: 600, windowSeconds: 60 };

/** Why TRUST_PROXY=true is refused in production, and what to write instead (one line). */
export const TRUST_PROXY_TRUE_REFUSED =
  'TRUST_PROXY=true trusts every X-Forwarded-For hop, so any client can choose its own address (and escape the sign-in limits): write the number of proxies in front of the server (TRUST_PROXY=1 behind one load balancer) or their addresses (TRUST_PROXY=10.0.0.0/8)';

/** What an operator should know about TRUST_PROXY outside production. */
export function trustProxyWarnings(config: Pick<Config, 'trustProxy' | 'nodeEnv'>): string[] {
  if (config.trustProxy !== true || config.nodeEnv === 'production') return [];
  return [
    "TRUST_PROXY=true lets every client choose its own address through X-Forwarded-For; it is refused in production: write a hop count (TRUST_PROXY=1) or the proxies' addresses instead.",
  ];
}

/**
 * Half the cores (1 to 4): a hash takes a whole core for tens of milliseconds, and the other half stays free for the
 * signed-in users' requests however many sign-ins arrive.
 */
export function defaultHashConcurrency(): number {
  return Math.max(1, Math.min(4, Math.floor(os.availableParallelism() / 2)));
}

/** `20/20s` (or `20/20`): 20 requests per 20 seconds, counted in windows that start with a key's first request. */
function rateOf(
  raw: string | undefined,
  name: string,
  fallback: { limit: number; windowSeconds: number },
  problems: string[],
): { limit: number; windowSeconds: number } {
  if (raw === undefined) return fallback;
  const m = /^(\d{1,9})\s*\/\s*(\d{1,7})\s*s?$/i.exec(raw);
  const limit = m ? Number(m[1]) : 0;
  const windowSeconds = m ? Number(m[2]) : 0;
  if (!m || limit < 1 || windowSeconds < 1) {
    problems.push(
      `${name} must be requests per window in seconds, like 20/20s (20 requests in each window of 20 seconds), both at least 1 (got "${raw}")`,
    );
    return fallback;
  }
  return { limit, windowSeconds };
}

function countOf(
  raw: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
  problems: string[],
): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
    return fallback;
  }
  return n;
}

const PROXY_ADDRESS = /^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)$/;

function trustProxyOf(raw: string): boolean | number | string[] | null {
  const v = raw.toLowerCase();
  if (['true', 'on', 'yes'].includes(v)) return true;
  if (['false', 'off', 'no'].includes(v)) return false;
  // A hop count: 1 = the address the nearest proxy saw (express's own meaning of a number).
  if (/^\d{1,2}$/.test(v)) return Number(v) === 0 ? false : Number(v);
  const list = raw
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  return list.length > 0 && list.every((a) => PROXY_ADDRESS.test(a)) ? list : null;
}

function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, JWT_SECRET_FILE);
  if (existsSync(file)) {
    const s = readFileSync(file, 'utf8').trim();
    if (s.length >= 32) return s;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
