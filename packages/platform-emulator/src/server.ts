/**
 * buildEmulator: the platform emulator as its own Fastify app — OAuth server, REST under /v2
 * from the group modules, the hosted-MCP stand-in, webhooks out, and the /_sandbox control API.
 * It keeps its state in the data dir (state.ts) and never reads the environment.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext, EmulatorModule } from './context.js';
import { registerControl } from './control.js';
import { controlBodyParser } from './control-guard.js';
import { formatViolation } from './contract/check.js';
import { ContractLog } from './contract/log.js';
import { authenticator, createContext, type PageTokens } from './emulator-context.js';
import { Faults } from './faults.js';
import { registerOAuth, revokeAllTokens, type EmulatorStats } from './oauth.js';
import type { EmulatorOptions } from './options.js';
import { createPlatformApp } from './platform-app.js';
import { registerQuirks, type Quirks } from './quirks.js';
import { RateLimiter } from './rate-limit.js';
import { dayOf, demoUserFor, loadState, seedAll } from './seed-all.js';
import { EmulatorState } from './state.js';
import { registerHostedMcp } from './routes/hosted-mcp.js';
import { appDeauthorizedEvent, VALIDATION_INTERVAL_MS, WebhookSender } from './webhooks.js';

export { demoUserFor, seedAll } from './seed-all.js';

export interface Emulator {
  app: FastifyInstance;
  context: EmulatorContext;
  stats: () => EmulatorStats;
  webhooks: WebhookSender;
  faults: Faults;
  /** The contract violations seen (contract/log.ts). */
  contract: ContractLog;
  reset: () => void;
  /** Saves the state now, once; false when that failed (logged). */
  save: () => boolean;
  close: () => Promise<void>;
}

/** What the emulator holds between requests; `st` is replaced by a reset. */
interface Parts {
  options: EmulatorOptions;
  modules: EmulatorModule[];
  st: EmulatorState;
  stateLog: EmulatorOptions['logger'];
  stats: EmulatorStats;
  limiter: RateLimiter;
  quirks: Quirks;
  faults: Faults;
  webhooks: WebhookSender;
  pageTokens: PageTokens;
  contract: ContractLog;
}

export function buildEmulator(options: EmulatorOptions, modules: EmulatorModule[]): Emulator {
  const demo = demoUserFor(options.seed);
  const stateLog = options.logger.child({ component: 'sandbox-state' });
  const p = createParts(options, modules, stateLog);
  const app = createPlatformApp(options, p);
  const knownScopes = new Set<string>();
  const state = () => p.st;
  const authenticate = authenticator(options, state);
  const context = createContext({ ...p, app, demo, state, knownScopes, authenticate });

  registerOAuth(app, {
    options,
    state,
    demo: () => demo,
    stats: p.stats,
    allScopes: () => [...knownScopes],
    contract: p.contract,
  });
  for (const m of modules) m.register(context);
  // The hosted-MCP stand-in needs the meetings (and recordings) data.
  if (modules.some((m) => m.name === 'meetings'))
    registerHostedMcp(app, {
      ctx: context,
      authenticate: (req) => authenticate(req).auth,
      contract: p.contract,
    });

  const reset = () => resetParts(p);
  p.webhooks.scheduleValidation(options.webhookValidationIntervalMs ?? VALIDATION_INTERVAL_MS);
  registerControlApi(app, p, context, reset);

  return {
    app,
    context,
    stats: () => p.stats,
    webhooks: p.webhooks,
    faults: p.faults,
    contract: p.contract,
    reset,
    save: () => p.st.flush(),
    close: async () => {
      p.webhooks.close();
      await app.close();
      p.st.flush();
    },
  };
}

function createParts(
  options: EmulatorOptions,
  modules: EmulatorModule[],
  stateLog: Parts['stateLog'],
): Parts {
  const st = loadState(options, modules, stateLog);
  const contract = new ContractLog(options.now);
  const contractLog = options.logger.child({ component: 'sandbox-contract' });
  contract.listen((v) => contractLog.warn({ violation: v }, formatViolation(v)));
  return {
    options,
    modules,
    st,
    stateLog,
    stats: {
      tokenGrants: { authorization_code: 0, refresh_token: 0, account_credentials: 0, client_credentials: 0 },
      requests: {},
      rejectedRefreshTokens: 0,
      lastAccessToken: null,
      lastRefreshToken: null,
    },
    limiter: new RateLimiter(options.now, options.dailyLimits),
    quirks: { omitRateLimitHeaders: options.omitRateLimitHeaders ?? false },
    faults: new Faults(),
    webhooks: new WebhookSender({
      url: () => options.webhookUrl,
      secret: options.webhookSecret,
      retryDelaysMs: options.webhookRetryDelaysMs,
      now: options.now,
      logger: options.logger,
    }),
    pageTokens: new Map(),
    contract,
  };
}

/** Fresh demo data for today; issued tokens survive it (the demo account is the same one). */
function resetParts(p: Parts): void {
  const { options } = p;
  const fresh = EmulatorState.fresh(
    options.dataDir,
    dayOf(options.now()),
    seedAll(p.modules, options.seed, dayOf(options.now())),
    p.stateLog,
  );
  fresh.file.access = p.st.file.access;
  fresh.file.refresh = p.st.file.refresh;
  // A retry of the old state's save must not overwrite the new one.
  p.st.dispose();
  p.st = fresh;
  p.st.changed();
  p.faults.clear();
  p.limiter.reset();
  p.quirks.omitRateLimitHeaders = options.omitRateLimitHeaders ?? false;
  p.pageTokens.clear();
}

function registerControlApi(
  app: FastifyInstance,
  p: Parts,
  context: EmulatorContext,
  reset: () => void,
): void {
  const { options, webhooks } = p;
  const control = {
    faults: p.faults,
    contract: p.contract,
    webhooks,
    stats: () => p.stats,
    expireTokens: () => {
      const now = options.now().getTime();
      for (const t of Object.values(p.st.file.access)) t.expiresAt = Math.min(t.expiresAt, now);
      p.st.changed();
    },
    revokeTokens: () => revokeAllTokens(p.st),
    deauthorize: async () => {
      const revoked = revokeAllTokens(p.st);
      const event = appDeauthorizedEvent({
        accountId: context.demo.accountId,
        userId: context.demo.id,
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        now: options.now(),
      });
      return { revoked, delivery: await webhooks.send(event) };
    },
    emit: (event: string, object: unknown) => {
      const obj = (object ?? {}) as Record<string, unknown>;
      if (!p.modules.some((m) => m.emit?.(context, event, obj))) context.webhooks.emit(event, obj);
    },
    reset,
  };
  // Its own scope: the control routes take JSON only (an empty body too), the platform's keep theirs.
  void app.register(function controlApi(scope, _opts, done) {
    controlBodyParser(scope);
    registerQuirks(scope, p.quirks);
    registerControl(scope, control);
    done();
  });
}
