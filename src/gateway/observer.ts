/**
 * What the gateway reports about its own work (upstream calls, token refreshes, webhook
 * deliveries), as plain callbacks: the services stay free of any metrics library, and the HTTP
 * layer (http/metrics.ts) turns these into Prometheus series.
 */
import type { RateLabel } from './platform/budget.js';

/** One attempt at the platform: how it ended. */
export type UpstreamOutcome =
  | 'ok'
  | 'client_error'
  | 'unauthorized'
  | 'rate_limited'
  | 'server_error'
  | 'timeout'
  | 'network_error'
  | 'circuit_open'
  | 'budget_exhausted';

export type RefreshOutcome = 'ok' | 'refused' | 'error';

export type WebhookOutcome = 'accepted' | 'ignored' | 'duplicate' | 'url_validation' | 'rejected';

export interface GatewayObserver {
  upstream(label: RateLabel, group: string, outcome: UpstreamOutcome): void;
  refresh(outcome: RefreshOutcome): void;
  webhook(outcome: WebhookOutcome): void;
}

export const NO_OBSERVER: GatewayObserver = {
  upstream: () => undefined,
  refresh: () => undefined,
  webhook: () => undefined,
};
