import type { SettingName } from './config-schema.js';

/** Where and how spans are exported (the OpenTelemetry SDK's standard OTEL_* settings); exporter `none` = no tracing. */
export interface TracingConfig {
  exporter: 'otlp' | 'console' | 'none';
  /** The OTLP traces URL (`…/v1/traces`). */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  /** Sent with every export (a collector's API key): never logged. */
  headers: Record<string, string>;
  serviceName: string;
  /** The share of new traces kept (a request that arrives inside a sampled trace is always kept). */
  sampleRatio: number;
}

const EXPORTERS = ['otlp', 'console', 'none'] as const;
const PROTOCOLS = ['http/protobuf', 'http/json'] as const;
/** The OTLP/HTTP default when an exporter is asked for without an endpoint (the specification's). */
const DEFAULT_ENDPOINT = 'http://localhost:4318';

function httpUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Reads the OTEL_* settings; off unless an exporter or an OTLP endpoint is named. */
export function tracingOf(read: (name: SettingName) => string | undefined, problems: string[]): TracingConfig {
  const base = read('OTEL_EXPORTER_OTLP_ENDPOINT');
  const tracesUrl = read('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const exporterRaw = read('OTEL_TRACES_EXPORTER') ?? ((base ?? tracesUrl) ? 'otlp' : 'none');
  let exporter: TracingConfig['exporter'] = 'none';
  if ((EXPORTERS as readonly string[]).includes(exporterRaw)) exporter = exporterRaw as TracingConfig['exporter'];
  else
    problems.push(
      `OTEL_TRACES_EXPORTER must be otlp, console or none (got "${exporterRaw}"); set OTEL_EXPORTER_OTLP_ENDPOINT to export over OTLP/HTTP`,
    );
  for (const [name, value] of [
    ['OTEL_EXPORTER_OTLP_ENDPOINT', base],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', tracesUrl],
  ] as const)
    if (value !== undefined && !httpUrl(value))
      problems.push(`${name} must be an http(s) URL like http://otel-collector:4318 (got "${value}")`);
  const url = tracesUrl ?? `${(base ?? DEFAULT_ENDPOINT).replace(/\/+$/, '')}/v1/traces`;

  const protocolRaw = read('OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf';
  let protocol: TracingConfig['protocol'] = 'http/protobuf';
  if ((PROTOCOLS as readonly string[]).includes(protocolRaw)) protocol = protocolRaw as TracingConfig['protocol'];
  else
    problems.push(
      `OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (got "${protocolRaw}"; gRPC is not supported: use the collector's OTLP/HTTP port, 4318)`,
    );

  const headers: Record<string, string> = {};
  for (const pair of (read('OTEL_EXPORTER_OTLP_HEADERS') ?? '').split(',').filter((p) => p.trim())) {
    const at = pair.indexOf('=');
    if (at <= 0) {
      // The value may be a key: the message names only the position.
      problems.push('OTEL_EXPORTER_OTLP_HEADERS must be comma-separated name=value pairs (one has no name or "=")');
      continue;
    }
    headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
  }

  const ratioRaw = read('OTEL_TRACES_SAMPLER_ARG');
  const sampleRatio = ratioRaw === undefined ? 1 : Number(ratioRaw);
  if (!(sampleRatio >= 0 && sampleRatio <= 1))
    problems.push(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, the share of traces kept (got "${ratioRaw}")`);

  return {
    exporter,
    url,
    protocol,
    headers,
    serviceName: read('OTEL_SERVICE_NAME') ?? 'platform-admin',
    sampleRatio: sampleRatio >= 0 && sampleRatio <= 1 ? sampleRatio : 1,
  };
}
