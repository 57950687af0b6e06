/**
 * The OTLP/HTTP span exporter tracing sends to, JSON or protobuf as configured. Only the chosen
 * exporter package is imported, on demand (each pulls in its own serializers).
 */
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { cjsExport } from '../cjs-export.js';
import type { TracingConfig } from '../config.js';

/** OTEL_EXPORTER_OTLP_ENDPOINT is the receiver's base URL; traces go to its /v1/traces. */
export const tracesUrl = (endpoint: string) => `${endpoint.replace(/\/+$/, '')}/v1/traces`;

export async function exporterFor(config: TracingConfig): Promise<SpanExporter> {
  const options = { url: tracesUrl(config.endpoint) };
  // CommonJS packages: a destructured import() comes out undefined in the bundle (cjs-export.ts).
  const Exporter =
    config.protocol === 'http/json'
      ? cjsExport(await import('@opentelemetry/exporter-trace-otlp-http'), 'OTLPTraceExporter')
      : cjsExport(await import('@opentelemetry/exporter-trace-otlp-proto'), 'OTLPTraceExporter');
  return new Exporter(options);
}
