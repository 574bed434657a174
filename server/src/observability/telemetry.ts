import { context, propagation, trace } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { TracingConfig } from '../config-tracing.js';
import { createTracing, type Tracing } from './tracing.js';

/** The OpenTelemetry SDK of this process, started; `shutdown` sends what is left and unregisters it. */
export interface Telemetry {
  tracing: Tracing;
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  /** Spans go here, one by one, instead of the configured exporter (the tests' in-memory exporter). */
  spanExporter?: SpanExporter;
}

/**
 * Starts `@opentelemetry/sdk-node` when tracing is configured (or an exporter is handed in), else returns null and
 * loads nothing: the SDK and its exporters are imported here, on demand. No automatic instrumentation: the spans are
 * the ones `createTracing` makes.
 */
export async function startTelemetry(
  config: TracingConfig & { version: string },
  options: TelemetryOptions = {},
): Promise<Telemetry | null> {
  if (config.exporter === 'none' && !options.spanExporter) return null;
  const { NodeSDK, tracing } = await import('@opentelemetry/sdk-node');
  let processor;
  if (options.spanExporter) processor = new tracing.SimpleSpanProcessor(options.spanExporter);
  else if (config.exporter === 'console')
    processor = new tracing.SimpleSpanProcessor(new tracing.ConsoleSpanExporter());
  else {
    const { OTLPTraceExporter } =
      config.protocol === 'http/json'
        ? await import('@opentelemetry/exporter-trace-otlp-http')
        : await import('@opentelemetry/exporter-trace-otlp-proto');
    processor = new tracing.BatchSpanProcessor(new OTLPTraceExporter({ url: config.url, headers: config.headers }));
  }
  const sdk = new NodeSDK({
    serviceName: config.serviceName,
    spanProcessors: [processor],
    sampler: new tracing.ParentBasedSampler({ root: new tracing.TraceIdRatioBasedSampler(config.sampleRatio) }),
    instrumentations: [],
  });
  sdk.start();
  const tracer = trace.getTracer('platform-admin', config.version);
  return {
    tracing: createTracing(tracer),
    async shutdown() {
      try {
        await sdk.shutdown();
      } finally {
        // The SDK leaves its tracer provider, context manager and propagator registered process-wide.
        trace.disable();
        context.disable();
        propagation.disable();
      }
    },
  };
}
