/**
 * Outgoing webhooks assembled: the subscription service the routes call and the delivery
 * worker. `start()` syncs the env subscription and starts delivering; an instance that never
 * calls it still writes the outbox (another instance, or its next start, delivers).
 */
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Store } from '../../store/store.js';
import type { KeySource } from '../oauth/vault.js';
import { WebhookDispatcher } from './dispatcher.js';
import { SubscriptionService } from './subscriptions.js';
import { systemResolver, type Resolver } from './target-guard.js';

export interface OutgoingWebhooks {
  subscriptions: SubscriptionService;
  dispatcher: WebhookDispatcher;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Each attempt's bound: long enough for a slow receiver, short enough to keep the queue moving. */
const ATTEMPT_TIMEOUT_MS = 10_000;

export function createOutgoingWebhooks(o: {
  config: Config['webhooksOut'];
  store: Store;
  keys: KeySource;
  logger: Logger;
  now: () => number;
  resolve?: Resolver;
}): OutgoingWebhooks {
  const resolve = o.resolve ?? systemResolver;
  const common = { store: o.store, keys: o.keys, now: o.now, allowPrivate: o.config.allowPrivate, resolve };
  const subscriptions = new SubscriptionService({ ...common, logger: o.logger, env: o.config.env });
  const dispatcher = new WebhookDispatcher({
    ...common,
    logger: o.logger.child({ component: 'webhooks-out' }),
    retry: o.config.retry,
    timeoutMs: ATTEMPT_TIMEOUT_MS,
  });
  return {
    subscriptions,
    dispatcher,
    async start() {
      await subscriptions.syncEnv();
      dispatcher.start();
    },
    stop: () => dispatcher.stop(),
  };
}
