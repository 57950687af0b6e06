/**
 * Starts tracing when it is configured (OTEL_EXPORTER_OTLP_ENDPOINT): the OpenTelemetry SDK and
 * the chosen OTLP exporter are imported here, on demand, so a service without tracing never
 * loads them.
 */
import type { TracingConfig } from '../config.js';
import { setTracing, type Tracing } from './current.js';

export async function startTracing(config: TracingConfig | undefined): Promise<Tracing | undefined> {
  if (!config) return undefined;
  const { createTracing } = await import('./sdk.js');
  const t = await createTracing(config);
  setTracing(t);
  return t;
}
