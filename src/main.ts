/**
 * Composition root: parse the environment, build every service (the store, the brand versions
 * the brand publishes through, the brand, secrets, Redis, metrics, the gateway and its dashboard
 * sessions; the emulator in sandbox mode), build the app from them, listen, link the demo account
 * in sandbox mode, and close gracefully on SIGTERM/SIGINT; main() reads as those steps. An
 * emulator child that exits is started again (child-process.ts); the gateway sends nothing to its
 * port while it is down. The only file besides config.ts that sees process.env.
 */
import path from 'node:path';
import { BrandService } from './brand/brand-service.js';
import { BrandVersions, versionHook } from './brand/brand-versions.js';
import { BrandInvalidError } from './brand/problems.js';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { appGateway, type AppDeps } from './app-deps.js';
import { buildApp } from './app.js';
import { cjsExport } from './cjs-export.js';
import { ConfigError, parseConfig, withSandboxWiring, type Config } from './config.js';
import { createGateway, type Gateway } from './gateway/gateway.js';
import { autolinkOverHttp } from './gateway/oauth/autolink.js';
import { apiKeyFile, loadSecrets, storedApiKey, type GatewaySecrets } from './gateway/secrets.js';
import { TargetRefused } from './gateway/webhooks-out/target-guard.js';
import { createMetrics } from './http/metrics.js';
import { prettyTerminal } from './log-terminal.js';
import { createLogger } from './log.js';
import { openMode, privateDir } from './core/private-files.js';
import { forkSandbox, type SandboxProcess } from '@fleetgate/platform-emulator/child-process';
import { createStore } from './store/create-store.js';
import { SchemaAheadError } from './store/migration-state.js';
import type { Store } from './store/store.js';
import type { Tracing } from './tracing/current.js';
import { startTracing } from './tracing/start.js';

type Terminal = Awaited<ReturnType<typeof prettyTerminal>> | undefined;

function fail(message: string): never {
  process.stderr.write(`fleetgate: ${message}\n`);
  process.exit(1);
}

/**
 * Why the API key is refused, if it is: a placeholder or a low-entropy key (key-strength.ts),
 * configured or saved by an earlier start. The estimator is loaded only when there is one.
 */
async function keyRefusal(config: Config): Promise<string | undefined> {
  const key = config.apiKey ?? storedApiKey(config.dataDir);
  if (key === undefined) return undefined;
  const weakness = (await import('./core/key-strength.js')).apiKeyWeakness(key);
  const source =
    config.apiKey !== undefined ? 'FLEETGATE_API_KEY' : `the API key in ${apiKeyFile(config.dataDir)}`;
  return weakness && `${source} is refused: ${weakness}`;
}

function readConfig(): Config {
  try {
    return withSandboxWiring(parseConfig(process.env));
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}

/** Tracing, then the logger: each of the app and the gateway asks once, as it is built, whether to trace. */
async function startLogging(config: Config) {
  const traces = await startTracing(config.tracing);
  const terminal =
    config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY)
      ? await prettyTerminal()
      : undefined;
  const logger = createLogger(config.logLevel, terminal);
  return { traces, terminal, logger };
}

function checkDataDir(config: Config, logger: Logger): void {
  // Owner-only when made here: the store, the keys and the emulator's state live in it (the
  // brand cache, made first below, would otherwise make it with the umask's mode).
  privateDir(config.dataDir);
  // One made by hand (or by mkdir -p under a umask of 022) may be open to others: say so, once.
  const dataDirMode = openMode(config.dataDir);
  if (dataDirMode) {
    const dir = path.resolve(config.dataDir);
    logger.warn(
      { dir, mode: dataDirMode },
      `the data dir ${dir} is open to other users (mode ${dataDirMode}) and holds the API key, the encryption keys and the store: run chmod 700 ${dir}`,
    );
  }
}

/**
 * Sandbox mode: the platform emulator runs beside the service in its own process, keeping its
 * state in the data dir. It starts while the service builds its app; linking waits for it.
 */
function forkEmulator(
  config: Config,
  logger: Logger,
  terminal: Terminal,
): Promise<SandboxProcess> | undefined {
  const sandboxStarting: Promise<SandboxProcess> | undefined = config.sandbox.enabled
    ? forkSandbox({
        dataDir: path.resolve(config.dataDir, 'sandbox'),
        logger,
        env: process.env,
        ...(terminal ? { stdout: terminal } : {}),
      })
    : undefined;
  // Never an unhandled rejection: the failure is reported where the sandbox is awaited.
  sandboxStarting?.catch(() => undefined);
  return sandboxStarting;
}

async function openStore(config: Config, logger: Logger): Promise<Store> {
  let store: Store;
  try {
    store = await createStore({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
    });
  } catch (err) {
    if (err instanceof SchemaAheadError) fail(err.message);
    throw err;
  }
  // A newer release migrated the database (a rolling upgrade under way, or this instance rolled
  // back): it serves as it is, migrating nothing, and says so once here, and in readiness and
  // the status report until it is upgraded.
  const schema = await store.schema();
  if (schema.unknown.length > 0)
    logger.warn(
      { code: schema.code, database: schema.database, unknownMigrations: schema.unknown },
      'this code is older than the database: a newer release has migrated it; serving without migrating',
    );
  return store;
}

async function startBrand(config: Config, logger: Logger, versions: BrandVersions): Promise<BrandService> {
  try {
    return await BrandService.start({
      dir: config.brandDir,
      baseUrl: config.publicUrl,
      cacheDir: path.join(config.dataDir, 'cache'),
      logger,
      version: versionHook(versions, logger),
    });
  } catch (err) {
    if (err instanceof BrandInvalidError) fail(err.message);
    throw err;
  }
}

/** Loaded only when configured: the embedded default never needs it. CommonJS (cjs-export.ts). */
async function connectRedis(config: Config, logger: Logger): Promise<Redis | undefined> {
  const redis = config.redisUrl
    ? new (cjsExport(await import('ioredis'), 'Redis'))(config.redisUrl, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
      })
    : undefined;
  redis?.on('error', (err) => logger.warn({ err: err.message }, 'redis unavailable'));
  return redis;
}

/** Every service the app is given, and what the process closes at the end. */
interface Services {
  store: Store;
  brand: BrandService;
  secrets: GatewaySecrets;
  redis: Redis | undefined;
  gateway: Gateway;
  deps: AppDeps;
}

/**
 * Store, brand (each load publishes its tokens as a brand version in the store, through the one
 * BrandVersions the app serves them from), secrets, Redis, metrics, the gateway. `sandbox` is the
 * emulator once it is up: the gateway asks it about each platform request.
 */
async function buildServices(
  config: Config,
  logger: Logger,
  sandbox: () => SandboxProcess | undefined,
): Promise<Services> {
  const store = await openStore(config, logger);
  const brandVersions = new BrandVersions(store);
  const brand = await startBrand(config, logger, brandVersions);
  const secrets = loadSecrets({
    dataDir: config.dataDir,
    apiKey: config.apiKey,
    encryptionKey: config.encryptionKey,
  });
  const redis = await connectRedis(config, logger);
  const metrics = createMetrics();
  const gateway = createGateway({
    observer: metrics.observer,
    // While the emulator child is down (it is being restarted), nothing is sent to its port:
    // whatever holds it then is not the emulator. Nothing calls the platform before it is up.
    ...(config.sandbox.enabled ? { platformGate: (url: string) => sandbox()?.refusal(url) } : {}),
    ...(redis ? { redis } : {}),
    config,
    store,
    keys: secrets.keys,
    logger,
    brandName: () => brand.current.source.info.name,
    funnels: () => brand.current.themes.keys,
  });
  const deps: AppDeps = {
    config,
    logger,
    brand,
    gateway: appGateway(gateway, secrets, brandVersions),
    metrics,
    ...(redis ? { redis } : {}),
  };
  return { store, brand, secrets, redis, gateway, deps };
}

/** Outgoing webhooks (the env subscription is synced and the delivery worker starts), retention. */
async function startWorkers(gateway: Gateway): Promise<void> {
  try {
    await gateway.outgoing.start();
  } catch (err) {
    if (err instanceof TargetRefused) fail(`FLEETGATE_WEBHOOK_URL: ${err.message}`);
    throw err;
  }
  gateway.retention.start();
}

/** Links the platform account at start where it can; says how the link stands, for the banner. */
async function linkAtStart(
  config: Config,
  logger: Logger,
  services: Services,
  sandbox: SandboxProcess | undefined,
): Promise<string> {
  const { gateway, secrets } = services;
  const selfBase = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const link = await services.store.getLink();
  if (!link || link.status !== 'linked') {
    try {
      if (config.video.accountId) {
        await gateway.link.linkServerToServer();
        return 'linked with server-to-server credentials';
      } else if (sandbox && config.sandbox.autolink) {
        await autolinkOverHttp({ selfBase, apiKey: secrets.apiKey });
        return 'demo account linked through the OAuth flow';
      } else return `not linked: open ${config.publicUrl}/api/video/oauth/start with the API key`;
    } catch (err) {
      logger.error({ err }, 'linking at start failed');
      return 'linking at start failed (see the log); link through /api/video/oauth/start';
    }
  }
  // Tokens this instance cannot open (their key is missing, or altered): say which key, once;
  // nothing is relinked or rewritten over them, so restoring the key brings the link back.
  const problem = gateway.tokens.problem(link);
  if (!problem) return `linked as ${link.email}`;
  logger.error(
    { keyId: problem.keyId, reason: problem.reason, column: problem.column },
    `${problem.cause}; ${problem.remedy}`,
  );
  return `needs relinking: ${problem.cause}`;
}

/** SIGTERM and SIGINT close everything, in order, and exit; a second signal changes nothing. */
function closeOnSignals(
  logger: Logger,
  app: FastifyInstance,
  services: Services,
  sandbox: SandboxProcess | undefined,
  traces: Tracing | undefined,
): void {
  const { brand, gateway, store, redis } = services;
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // Order matters: stop accepting and let in-flight requests finish (they may still need the
    // emulator, the brand and the store), then stop what they used, the store last.
    // A kept-alive socket whose request finishes during close turns idle afterwards; sweep
    // such sockets so close() completes once the last request is answered.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    void app
      .close()
      .then(() => clearInterval(sweep))
      .then(() => Promise.allSettled([brand.close(), sandbox?.close(), gateway.close()]))
      .then(() => Promise.allSettled([store.close(), redis?.quit()]))
      // Last: the spans of everything above are flushed to the receiver.
      .then(() => traces?.shutdown())
      .then(() => {
        logger.info('shut down cleanly');
        process.exit(0);
      })
      .catch((err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

function printBanner(
  config: Config,
  linkNote: string,
  sandbox: SandboxProcess | undefined,
  secrets: GatewaySecrets,
): void {
  process.stdout.write(
    [
      '',
      `fleetgate is up: ${config.publicUrl}`,
      `  brand API     ${config.publicUrl}/api/brand`,
      `  agent guide   ${config.publicUrl}/llms.txt`,
      `  documents     ${config.publicUrl}/static/fleet/docs/`,
      `  MCP           ${config.publicUrl}/mcp`,
      `  gateway       ${config.publicUrl}/api/video/status (${linkNote})`,
      `  gateway MCP   ${config.publicUrl}/api/video/mcp (API key as Bearer)`,
      `  dashboard     ${config.publicUrl}/dashboard`,
      ...(sandbox
        ? [`  emulator      ${sandbox.baseUrl} (platform REST /v2, OAuth /oauth, control /_sandbox)`]
        : []),
      // The key itself only to a person at a terminal: piped, stdout is a log stream, kept and
      // shipped elsewhere, so it gets the file's path alone.
      ...(secrets.generatedApiKey
        ? process.stdout.isTTY
          ? [
              ``,
              `  API key (shown once; also saved in ${apiKeyFile(config.dataDir)}):`,
              `  ${secrets.generatedApiKey}`,
            ]
          : [
              ``,
              `  API key generated and saved in ${apiKeyFile(config.dataDir)} (printed only on a terminal)`,
            ]
        : []),
      '',
    ].join('\n'),
  );
}

async function main(): Promise<void> {
  const config = readConfig();
  // Loaded and checked while the start sets up logging and forks the emulator; the verdict
  // comes before the store or the brand is touched.
  const keyRefused = keyRefusal(config);
  // Never an unhandled rejection: a failure is reported where the verdict is awaited.
  keyRefused.catch(() => undefined);
  const { traces, terminal, logger } = await startLogging(config);
  checkDataDir(config, logger);
  const sandboxStarting = forkEmulator(config, logger, terminal);
  const refused = await keyRefused;
  if (refused) fail(refused);
  // Set once the emulator is up (below); the gateway asks it about each platform request.
  let sandbox: SandboxProcess | undefined;
  const services = await buildServices(config, logger, () => sandbox);
  const app = buildApp(services.deps);
  // Before listening: the gateway is wired to the emulator's port, and must not serve a request
  // (or send a credential) to whatever else holds that port when the emulator cannot.
  try {
    sandbox = await sandboxStarting;
  } catch (err) {
    fail(`the emulator did not start: ${err instanceof Error ? err.message : String(err)}`);
  }
  await app.listen({ port: config.port, host: config.host });
  // After listening: following the folder is not needed to serve what was just loaded, and
  // setting the watcher up (~50 ms here) would only delay readiness.
  if (config.brandWatch) await services.brand.watch();
  await startWorkers(services.gateway);
  const linkNote = await linkAtStart(config, logger, services, sandbox);
  // Before the banner: a person who sees it may press Ctrl-C at once, and releasing the held
  // log lines below takes a while on a terminal.
  closeOnSignals(logger, app, services, sandbox, traces);
  printBanner(config, linkNote, sandbox, services.secrets);
  // The start's log lines, held on a terminal so the banner came first.
  terminal?.release();
}

void main();
