/**
 * Every setting the server reads from its environment, declared once. `loadConfig` reads a variable only by a name in
 * this table (and takes its plain default from here); `scripts/gen-config-docs.ts` writes `.env.example` and
 * `docs/configuration.md` from it, and `npm run check:generated` fails when either is out of date. A setting added to
 * the loader without a row here does not compile.
 */
export interface Setting {
  name: string;
  group: SettingGroup;
  /** The value used when the variable is unset or blank, when it is a fixed one the loader parses like any other. */
  default?: string;
  /** What happens when unset, when no single value says it (computed, generated, or nothing). */
  unset?: string;
  /** What it means, in one or two sentences of Markdown. */
  meaning: string;
  /** A value for `.env.example` when the default says little (commented out there). */
  example?: string;
  /** Required with NODE_ENV=production. */
  requiredInProduction?: boolean;
}

export type SettingGroup =
  | 'Server'
  | 'Database and files'
  | 'Accounts'
  | 'Sign-in protection'
  | 'Rate limits'
  | 'Webhooks'
  | 'Metrics'
  | 'Tracing';

export const SETTING_GROUPS: readonly SettingGroup[] = [
  'Server',
  'Database and files',
  'Accounts',
  'Sign-in protection',
  'Rate limits',
  'Webhooks',
  'Metrics',
  'Tracing',
];

export const SETTINGS = [
  {
    name: 'NODE_ENV',
    group: 'Server',
    default: 'development',
    meaning:
      '`development`, `production` or `test`. `production` requires the secrets below, turns response validation off and the demo data off, and `npm start` then runs the build in `dist/`.',
    example: 'production',
  },
  { name: 'PORT', group: 'Server', default: '3000', meaning: 'HTTP port of the console, the API and the docs.' },
  {
    name: 'HOST',
    group: 'Server',
    default: '127.0.0.1',
    meaning: 'Interface to listen on (`0.0.0.0` for every interface, as in a container).',
    example: '0.0.0.0',
  },
  {
    name: 'PUBLIC_BASE_URL',
    group: 'Server',
    unset: 'the address a request arrived at',
    meaning:
      'The address clients use (`https://admin.example.com`, optionally with a path). Named as the server in `/openapi.json`, `/openapi.yaml`, `/docs` and the code samples; when `https`, every answer’s CSP upgrades insecure requests.',
    example: 'https://admin.example.com',
  },
  {
    name: 'TRUST_PROXY',
    group: 'Server',
    default: 'false',
    meaning:
      'Behind a reverse proxy or load balancer: the number of proxies in front of the server (`1` behind one load balancer), or their addresses / subnets (`loopback`, `10.0.0.0/8`). Their `X-Forwarded-Proto`/`-For` then count: the client address of the rate limits, the logs and each write’s record, and a request they say arrived over TLS gets `upgrade-insecure-requests`. `true` (trust every hop, so any client names its own address) is refused in production and warned about otherwise.',
    example: '1',
  },
  {
    name: 'CORS_ORIGINS',
    group: 'Server',
    unset: 'same origin only (no CORS headers)',
    meaning:
      'Comma-separated origins allowed to call the API from another origin (see [Security headers and CORS](operations.md#security-headers-and-cors)).',
    example: 'https://console.example.com',
  },
  {
    name: 'CONSOLE_DIR',
    group: 'Server',
    unset: '`dist/console` in a build, else `admin-ui/dist`',
    meaning: 'Console build to serve (the end-to-end tests serve their own development build).',
  },
  {
    name: 'LOG_LEVEL',
    group: 'Server',
    unset: '`info` (`silent` with `NODE_ENV=test`)',
    meaning: 'pino log level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.',
  },
  {
    name: 'VALIDATE_RESPONSES',
    group: 'Server',
    unset: '`true`, but `false` with `NODE_ENV=production`',
    meaning: 'Check every answer against the contract (a mismatch is a 500); for development and tests.',
  },
  {
    name: 'DATA_DIR',
    group: 'Database and files',
    default: './var',
    meaning:
      'The embedded database (`db/`), local images (`uploads/`), the generated signing secret and backups (`backups/`).',
  },
  {
    name: 'DATABASE_URL',
    group: 'Database and files',
    unset: 'the embedded database in `DATA_DIR/db`',
    meaning:
      'PostgreSQL 15+ connection string (`postgres://` or `postgresql://`); `memory://` for a throw-away embedded database.',
    example: 'postgres://app:secret@db:5432/platform',
  },
  {
    name: 'STORAGE',
    group: 'Database and files',
    default: 'local',
    meaning: '`local` (files under `DATA_DIR/uploads`, HMAC-signed URLs served by the app) or `gcs`.',
  },
  { name: 'GCS_BUCKET', group: 'Database and files', meaning: 'Bucket for `STORAGE=gcs` (required there).' },
  {
    name: 'GCS_KEY_FILE',
    group: 'Database and files',
    meaning: 'Service-account JSON key; V4 signed URLs are signed with it offline. Takes precedence over the next.',
  },
  {
    name: 'GOOGLE_APPLICATION_CREDENTIALS',
    group: 'Database and files',
    meaning: 'The same key, under the name Google’s libraries read.',
  },
  {
    name: 'GCS_API_ENDPOINT',
    group: 'Database and files',
    meaning: 'Another GCS JSON API address (the tests point it at a fake).',
  },
  {
    name: 'ADMIN_USERNAME',
    group: 'Accounts',
    default: 'admin',
    meaning: 'The super admin created on the first start of an empty database.',
  },
  {
    name: 'ADMIN_PASSWORD',
    group: 'Accounts',
    default: 'admin123',
    requiredInProduction: true,
    meaning: 'Its password (at least 6 characters); the default is for local use only.',
    example: '<a strong password>',
  },
  {
    name: 'SEED_DEMO',
    group: 'Accounts',
    unset: '`true`, but `false` with `NODE_ENV=production`',
    meaning:
      'Whether the first start of an empty database creates the demo tenants, accounts, mappings and documents; without it only the admin, the currencies and the report templates.',
  },
  {
    name: 'DEMO_PASSWORD',
    group: 'Accounts',
    default: 'demo1234',
    meaning: 'Password of the demo accounts (required with `NODE_ENV=production` and `SEED_DEMO=true`).',
  },
  {
    name: 'SECOND_FACTOR_REQUIRED',
    group: 'Accounts',
    unset: '`privileged` with `NODE_ENV=production`, else `none`',
    meaning:
      'Who must set up a second factor (an authenticator app or a passkey) before anything else: `none`, `privileged` (super admins and holders of any platform-wide key) or `everyone`. A super admin can override it in the console (Second factor policy); the stored choice wins while it exists.',
    example: 'privileged',
  },
  {
    name: 'WEBAUTHN_RP_ID',
    group: 'Accounts',
    unset: 'the host name of `PUBLIC_BASE_URL`, else of the console the request came from',
    meaning:
      'The WebAuthn relying party id passkeys are bound to: the console’s host name or a parent domain of it (`example.com` for `admin.example.com`). Changing it later makes every registered passkey unusable.',
    example: 'admin.example.com',
  },
  {
    name: 'WEBAUTHN_ORIGINS',
    group: 'Accounts',
    unset: 'the origin of `PUBLIC_BASE_URL`, else the console’s own origin (same host as the request)',
    meaning:
      'The origins (comma-separated) a passkey answer may come from, e.g. `https://admin.example.com`; each must be the relying party id’s host or under it.',
    example: 'https://admin.example.com',
  },
  {
    name: 'JWT_SECRET',
    group: 'Accounts',
    unset: 'generated into `DATA_DIR/jwt-secret`',
    requiredInProduction: true,
    meaning:
      'Signs access tokens (at least 32 characters); set the same value on every replica. Without it the server warns at start: replicas would each generate their own and refuse each other’s tokens.',
    example: '<a random string of 32 characters or more>',
  },
  {
    name: 'OIDC_PROVIDERS',
    group: 'Accounts',
    unset: 'local sign-in only',
    meaning:
      'Single sign-on: a JSON array of OpenID Connect providers (see [Single sign-on](operations.md#single-sign-on)).',
  },
  {
    name: 'AUTH_RATE_PER_IP',
    group: 'Sign-in protection',
    default: '20/20s',
    meaning:
      'Sign-in requests per client address (or per browser with a device cookie): 20 in each window of 20 s, the window starting with the first request. Written `<requests>/<seconds>s`, as every limit here.',
  },
  {
    name: 'AUTH_RATE_REFRESH',
    group: 'Sign-in protection',
    default: '60/60s',
    meaning:
      'Token refreshes and sign-outs per client address, on a bucket of their own: a sign-in flood never signs anyone out.',
  },
  {
    name: 'AUTH_HASH_CONCURRENCY',
    group: 'Sign-in protection',
    unset: 'half the cores (1–4)',
    meaning: 'Password hashes (scrypt) running at once; the other cores stay free for signed-in users.',
  },
  {
    name: 'AUTH_HASH_QUEUE',
    group: 'Sign-in protection',
    default: '32',
    meaning:
      'Password checks waiting for a hash slot, per lane (clean sign-ins; the rest); beyond it, 429 at once for that lane only.',
  },
  {
    name: 'RATE_LIMIT_PER_CREDENTIAL',
    group: 'Rate limits',
    default: '600/60s',
    meaning:
      'Requests per signed-in credential (an account, whichever of its sessions sends them) on every operation but sign-in: 600 in each window of 60 s, the window starting with the first request. Beyond it, 429 with `Retry-After` (see [Rate limits](operations.md#rate-limits)).',
  },
  {
    name: 'RATE_LIMIT_PER_ADDRESS',
    group: 'Rate limits',
    default: '600/60s',
    meaning:
      'Requests per client address (as `TRUST_PROXY` resolves it; IPv6 by its /64) without a credential: probes, stored files, and requests whose credential is refused. Sign-in keeps its own limits above.',
  },
  {
    name: 'RATE_LIMIT_REDIS_URL',
    group: 'Rate limits',
    unset: 'limits kept in each replica’s memory',
    meaning:
      'A Redis (`redis://` or `rediss://`) that replicas share their limits through, sign-in’s included. While it does not answer, each replica counts in its own memory, and says so in its log.',
    example: 'redis://redis:6379',
  },
  {
    name: 'RATE_LIMIT_REDIS_PREFIX',
    group: 'Rate limits',
    default: 'rate-limit',
    meaning: 'The prefix of the keys in that Redis, so that several deployments can share one.',
  },
  {
    name: 'WEBHOOK_ALLOW_PRIVATE_TARGETS',
    group: 'Webhooks',
    default: 'false',
    meaning:
      'Let webhooks reach private, loopback and link-local addresses, and plain `http`: for development and tests only. Off, a webhook URL must be https and resolve to public addresses only (see [Webhooks](webhooks.md)).',
  },
  {
    name: 'WEBHOOK_TIMEOUT_SECONDS',
    group: 'Webhooks',
    default: '10',
    meaning:
      'How long a receiver has to answer a delivery (1–60 s) before the attempt counts as failed; a replica that dies mid-attempt leaves the delivery to another 5 s after that.',
  },
  {
    name: 'METRICS_PORT',
    group: 'Metrics',
    unset: 'no metrics kept or served',
    meaning:
      'Serve Prometheus metrics at `/metrics` on this port, a listener of its own (never the public port; see [Metrics](operations.md#metrics)).',
    example: '9464',
  },
  {
    name: 'METRICS_HOST',
    group: 'Metrics',
    default: '127.0.0.1',
    meaning: 'Interface of the metrics listener; wider than loopback without `METRICS_TOKEN`, the server warns.',
  },
  {
    name: 'METRICS_TOKEN',
    group: 'Metrics',
    unset: 'no token asked',
    meaning: 'A bearer token (at least 16 characters) every scrape must send: `Authorization: Bearer <token>`.',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    group: 'Tracing',
    unset: 'no traces (unless `OTEL_TRACES_EXPORTER` asks for them)',
    meaning:
      'OpenTelemetry collector to send traces to over OTLP/HTTP; spans go to `<endpoint>/v1/traces` (see [Traces](operations.md#traces)).',
    example: 'http://otel-collector:4318',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    group: 'Tracing',
    unset: '`OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`',
    meaning: 'The full URL spans are sent to, when it is not the endpoint above plus `/v1/traces`.',
  },
  {
    name: 'OTEL_TRACES_EXPORTER',
    group: 'Tracing',
    unset: '`otlp` when an endpoint is set, else `none`',
    meaning:
      '`otlp` (to the endpoint; `http://localhost:4318` when none is set), `console` (spans printed to stdout, for a look on one machine) or `none`.',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    group: 'Tracing',
    default: 'http/protobuf',
    meaning: '`http/protobuf` or `http/json` (gRPC is not supported: use the collector’s OTLP/HTTP port).',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_HEADERS',
    group: 'Tracing',
    unset: 'none',
    meaning:
      'Headers sent with every export, as `name=value` pairs separated by commas (a hosted collector’s API key); never logged.',
    example: 'x-api-key=replace-me',
  },
  {
    name: 'OTEL_SERVICE_NAME',
    group: 'Tracing',
    default: 'platform-admin',
    meaning: 'The `service.name` every span carries.',
  },
  {
    name: 'OTEL_TRACES_SAMPLER_ARG',
    group: 'Tracing',
    default: '1',
    meaning:
      'Share of new traces kept, from 0 to 1 (`0.1` keeps one in ten); a request that arrives in a sampled trace (`traceparent`) is always kept.',
  },
] as const satisfies readonly Setting[];

export type SettingName = (typeof SETTINGS)[number]['name'];

const BY_NAME = new Map<string, Setting>(SETTINGS.map((s) => [s.name, s]));

/** The table's fixed default of a setting, if it has one. */
export function defaultOf(name: SettingName): string | undefined {
  return BY_NAME.get(name)?.default;
}
