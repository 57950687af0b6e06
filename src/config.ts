/**
 * Configuration: one zod schema over the environment, parsed once at start.
 * Nothing else in src/ reads process.env; main.ts passes the parsed Config down.
 * parseConfig throws ConfigError listing every problem, not just the first.
 */
import * as z from 'zod';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';
import { isSecret } from './core/webhook-signature.js';

const flag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');
const port = z.coerce.number().int().min(0).max(65535);
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));
const url = (what: string) =>
  z
    .string()
    .refine(
      (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol),
      `${what} must be an http(s) URL`,
    );

/** The daily quotas' names, as SANDBOX_DAILY_LIMITS and FLEETGATE_DAILY_QUOTAS spell them. */
export type DailyQuotaName = 'light' | 'medium' | 'heavy' | 'resource_intensive' | 'meeting_writes_per_user';
const DAILY_NAME = '(light|medium|heavy|resource_intensive|meeting_writes_per_user)';
const dailyList = (what: string) =>
  z
    .string()
    .regex(
      new RegExp(`^${DAILY_NAME}=\\d+(,${DAILY_NAME}=\\d+)*$`, 'i'),
      `${what} looks like meeting_writes_per_user=100,heavy=30000 (names: light, medium, heavy, resource_intensive, meeting_writes_per_user)`,
    );

const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: optionalString.pipe(url('PUBLIC_URL').optional()),
  FLEETGATE_DATA_DIR: z.string().min(1).default('./data'),
  REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'REDIS_URL must start with redis:// or rediss://')
      .optional(),
  ),
  FLEETGATE_DB_SCHEMA: optionalString.pipe(
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'FLEETGATE_DB_SCHEMA must be a lowercase SQL identifier')
      .optional(),
  ),
  FLEETGATE_REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/)
    .default('fleetgate'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
      .optional(),
  ),
  FLEETGATE_API_KEY: optionalString.pipe(
    z.string().min(24, 'FLEETGATE_API_KEY must be at least 24 characters').optional(),
  ),
  FLEETGATE_ENCRYPTION_KEY: optionalString.pipe(
    z
      .string()
      .refine(
        (v) => Buffer.from(v, 'base64').length === 32,
        'FLEETGATE_ENCRYPTION_KEY must be base64 of 32 bytes',
      )
      .optional(),
  ),
  BRAND_DIR: z.string().min(1).default('./brand'),
  BRAND_WATCH: flag.default(true),
  VIDEO_CLIENT_ID: optionalString,
  VIDEO_CLIENT_SECRET: optionalString,
  VIDEO_ACCOUNT_ID: optionalString,
  VIDEO_REDIRECT_URI: optionalString.pipe(url('VIDEO_REDIRECT_URI').optional()),
  VIDEO_WEBHOOK_SECRET: optionalString,
  VIDEO_API_BASE: url('VIDEO_API_BASE').default('https://api.zoom.us/v2'),
  VIDEO_OAUTH_BASE: url('VIDEO_OAUTH_BASE').default('https://zoom.us'),
  VIDEO_MCP_URL: optionalString.pipe(url('VIDEO_MCP_URL').optional()),
  FLEETGATE_SANDBOX: optionalString.pipe(flag.optional()),
  SANDBOX_PORT: port.optional(),
  FLEETGATE_SANDBOX_AUTOLINK: flag.default(true),
  SANDBOX_CLIENT_ID: z.string().min(1).default('sandbox-client'),
  SANDBOX_CLIENT_SECRET: z.string().min(1).default('sandbox-secret'),
  SANDBOX_WEBHOOK_SECRET: z.string().min(1).default('sandbox-webhook-secret'),
  SANDBOX_REDIRECT_URIS: optionalString,
  SANDBOX_WEBHOOK_URL: optionalString.pipe(url('SANDBOX_WEBHOOK_URL').optional()),
  SANDBOX_SCOPES: optionalString,
  SANDBOX_ACCESS_TTL: z.coerce.number().int().min(1).max(86_400).default(3599),
  SANDBOX_RATE_LIMITS: flag.default(true),
  SANDBOX_AUTO_APPROVE: flag.default(true),
  SANDBOX_DAILY_LIMITS: optionalString.pipe(dailyList('SANDBOX_DAILY_LIMITS').optional()),
  // The platform re-validates webhook endpoints every 72 h; 0 never (at most 24 days, a timer's range).
  SANDBOX_WEBHOOK_VALIDATION_HOURS: z.coerce.number().min(0).max(596).default(72),
  FLEETGATE_REFRESH_MARGIN: z.coerce.number().int().min(0).max(86_400).default(120),
  FLEETGATE_RATE_BUDGETS: optionalString.pipe(
    z
      .string()
      .regex(
        /^(light|medium|heavy|resource_intensive)=\d+(,(light|medium|heavy|resource_intensive)=\d+)*$/i,
        'FLEETGATE_RATE_BUDGETS looks like light=30,medium=20,heavy=10,resource_intensive=10',
      )
      .optional(),
  ),
  FLEETGATE_DAILY_QUOTAS: optionalString.pipe(dailyList('FLEETGATE_DAILY_QUOTAS').optional()),
  FLEETGATE_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  FLEETGATE_WEBHOOK_URL: optionalString.pipe(url('FLEETGATE_WEBHOOK_URL').optional()),
  FLEETGATE_WEBHOOK_SECRET: optionalString.pipe(
    z
      .string()
      .refine(isSecret, 'FLEETGATE_WEBHOOK_SECRET must be whsec_ followed by base64 of 24 to 64 bytes')
      .optional(),
  ),
  FLEETGATE_WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  FLEETGATE_WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(5000),
  FLEETGATE_WEBHOOK_RETRY_MAX_MS: z.coerce.number().int().min(1).max(86_400_000).default(3_600_000),
  FLEETGATE_WEBHOOK_RETRY_FOR: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .default(86_400),
  MCP_ALLOWED_ORIGINS: optionalString,
  FLEETGATE_RATE_LIMIT_WINDOW: z.coerce.number().int().min(1).max(86_400).default(60),
  FLEETGATE_RATE_LIMIT_API: z.coerce.number().int().min(0).max(1_000_000).default(600),
  FLEETGATE_RATE_LIMIT_MCP: z.coerce.number().int().min(0).max(1_000_000).default(600),
  FLEETGATE_RATE_LIMIT_LOGIN: z.coerce.number().int().min(0).max(1_000_000).default(10),
  FLEETGATE_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(50).max(600_000).default(15_000),
  FLEETGATE_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(50).max(600_000).default(10_000),
  FLEETGATE_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1024),
  // Well below the global cap, so one address cannot take it all; 0: no per-address limit.
  FLEETGATE_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).max(1_000_000).default(64),
  FLEETGATE_TRUST_PROXY: optionalString.transform((v, ctx) => {
    if (v === undefined) return undefined;
    try {
      return parseTrustProxy(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `must be ${(err as Error).message}` });
      return z.NEVER;
    }
  }),
  // At least a day: the platform retries a delivery 5, 20 and 60 minutes after the first try.
  FLEETGATE_RECEIPT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  FLEETGATE_IDEMPOTENCY_RETENTION_HOURS: z.coerce.number().int().min(1).max(87_600).default(24),
  // Finished outgoing-webhook deliveries (the delivery log); pending ones are never pruned.
  FLEETGATE_DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  // OpenTelemetry's own variables (DESIGN.md): tracing is on when the endpoint is set.
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString.pipe(url('OTEL_EXPORTER_OTLP_ENDPOINT').optional()),
  OTEL_EXPORTER_OTLP_PROTOCOL: optionalString.pipe(
    z
      .enum(['http/json', 'http/protobuf'], {
        error: (i) =>
          `must be http/json or http/protobuf, not ${JSON.stringify(i.input)} (OTLP over gRPC is not supported)`,
      })
      .optional(),
  ),
  OTEL_SERVICE_NAME: optionalString,
});

/** Where traces go (OTLP over HTTP); undefined, nothing is traced. */
export interface TracingConfig {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the receiver's base URL (traces go to its /v1/traces). */
  endpoint: string;
  protocol: 'http/json' | 'http/protobuf';
  serviceName: string;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use (default: the connection's search_path). */
  databaseSchema: string | undefined;
  /** Shares rate budgets (and later rate limits) across instances. */
  redisUrl: string | undefined;
  redisPrefix: string;
  apiKey: string | undefined;
  encryptionKey: string | undefined;
  brandDir: string;
  brandWatch: boolean;
  video: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    accountId: string | undefined;
    redirectUri: string;
    webhookSecret: string | undefined;
    apiBase: string;
    oauthBase: string;
    /** The platform's hosted MCP server (AI ask and agentic search); undefined: fall back to REST retrieval. */
    mcpUrl: string | undefined;
  };
  sandbox: {
    enabled: boolean;
    port: number;
    autolink: boolean;
    clientId: string;
    clientSecret: string;
    webhookSecret: string;
    /** Allowed OAuth redirect URIs; default: the gateway's callback. */
    redirectUris: string[];
    /** Where the emulator delivers webhooks; default: the gateway's intake. */
    webhookUrl: string;
    /** Scopes granted; undefined grants everything except webinar scopes. */
    scopes: string[] | undefined;
    accessTtl: number;
    rateLimits: boolean;
    autoApprove: boolean;
    /** SANDBOX_DAILY_LIMITS as given (validated); the emulator reads it. */
    dailyLimits: string | undefined;
    /** How often the emulator re-validates the webhook endpoint, hours (0 never). */
    webhookValidationHours: number;
  };
  gateway: {
    refreshMarginSeconds: number;
    upstreamTimeoutMs: number;
    /** Calls per second (per minute for resource_intensive) the gateway allows itself, by label. */
    budgets: Partial<Record<'LIGHT' | 'MEDIUM' | 'HEAVY' | 'RESOURCE_INTENSIVE', number>>;
    /** The platform's daily quotas the gateway counts against (FLEETGATE_DAILY_QUOTAS), by name. */
    dailyQuotas: Partial<Record<DailyQuotaName, number>>;
  };
  /** Outgoing webhooks to the business application. */
  webhooksOut: {
    /** The env subscription (every event type); both or neither are set. */
    env: { url: string; secret: string } | undefined;
    /** Let subscribers sit on loopback and private networks (tests, same-network receivers). */
    allowPrivate: boolean;
    retry: { baseMs: number; maxMs: number; forMs: number };
  };
  /** Origins allowed to call /mcp from a browser; requests without Origin always pass. */
  mcpAllowedOrigins: string[];
  /**
   * Our own API's rate limits per window (0 = unlimited): requests for `api` and `mcp`; failed
   * authentications per IP (wrong API keys and sign-ins) before a lockout for `login`.
   */
  rateLimits: { windowMs: number; api: number; mcp: number; login: number };
  /** Our HTTP server's limits on slow and numerous clients (server-limits.ts). */
  http: {
    /** The whole request, head and body, must have arrived within this. */
    requestTimeoutMs: number;
    /** The request's head must have arrived within this (at most requestTimeoutMs). */
    headersTimeoutMs: number;
    /** Connections open at once; more are closed unanswered. */
    maxConnections: number;
    /** Connections open at once from one address (per /64 for IPv6), a believed proxy's aside; 0: no limit. */
    maxConnectionsPerIp: number;
  };
  /** Whose X-Forwarded-For is believed (FLEETGATE_TRUST_PROXY); undefined: nobody's. */
  trustProxy: TrustProxy | undefined;
  /** How long receipts, idempotency keys and finished deliveries are kept (retention.ts). */
  retention: { receiptsMs: number; idempotencyMs: number; deliveriesMs: number };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** `auto`: readable lines on a terminal (held until the start banner), JSON lines otherwise. */
  logFormat: z.infer<typeof envSchema>['LOG_FORMAT'];
  tracing: TracingConfig | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const list = (v: string | undefined, sep: string) =>
  v
    ?.split(sep)
    .map((x) => x.trim())
    .filter(Boolean);

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * An origin on a loopback name stands for every loopback name on the same scheme and port: one
 * local service is reached as localhost, 127.0.0.1 or [::1] alike, and no foreign page can
 * carry any of them.
 */
export function withLoopbackAliases(origins: string[]): string[] {
  const all = new Set(origins);
  for (const origin of origins) {
    if (!URL.canParse(origin)) continue;
    const u = new URL(origin);
    if (!LOOPBACK_NAMES.includes(u.hostname)) continue;
    for (const name of LOOPBACK_NAMES) all.add(`${u.protocol}//${name}${u.port ? `:${u.port}` : ''}`);
  }
  return [...all];
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const e = validEnv(env);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const ownOrigin = new URL(publicUrl).origin;
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: e.FLEETGATE_DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.FLEETGATE_DB_SCHEMA,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.FLEETGATE_REDIS_PREFIX,
    apiKey: e.FLEETGATE_API_KEY,
    encryptionKey: e.FLEETGATE_ENCRYPTION_KEY,
    brandDir: e.BRAND_DIR,
    brandWatch: e.BRAND_WATCH,
    video: videoConfig(e, publicUrl),
    sandbox: sandboxConfig(e, publicUrl),
    gateway: {
      refreshMarginSeconds: e.FLEETGATE_REFRESH_MARGIN,
      upstreamTimeoutMs: e.FLEETGATE_UPSTREAM_TIMEOUT_MS,
      budgets: namedNumbers(e.FLEETGATE_RATE_BUDGETS, (k) => k.toUpperCase()),
      dailyQuotas: namedNumbers(e.FLEETGATE_DAILY_QUOTAS, (k) => k.toLowerCase()),
    },
    webhooksOut: webhooksOutConfig(e),
    mcpAllowedOrigins: withLoopbackAliases(
      e.MCP_ALLOWED_ORIGINS
        ? e.MCP_ALLOWED_ORIGINS.split(',')
            .map((o) => o.trim())
            .filter(Boolean)
        : [ownOrigin],
    ),
    rateLimits: {
      windowMs: e.FLEETGATE_RATE_LIMIT_WINDOW * 1000,
      api: e.FLEETGATE_RATE_LIMIT_API,
      mcp: e.FLEETGATE_RATE_LIMIT_MCP,
      login: e.FLEETGATE_RATE_LIMIT_LOGIN,
    },
    http: {
      requestTimeoutMs: e.FLEETGATE_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: e.FLEETGATE_HEADERS_TIMEOUT_MS,
      maxConnections: e.FLEETGATE_MAX_CONNECTIONS,
      maxConnectionsPerIp: e.FLEETGATE_MAX_CONNECTIONS_PER_IP,
    },
    trustProxy: e.FLEETGATE_TRUST_PROXY,
    retention: {
      receiptsMs: e.FLEETGATE_RECEIPT_RETENTION_DAYS * 86_400_000,
      idempotencyMs: e.FLEETGATE_IDEMPOTENCY_RETENTION_HOURS * 3_600_000,
      deliveriesMs: e.FLEETGATE_DELIVERY_RETENTION_DAYS * 86_400_000,
    },
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    tracing: tracingConfig(e),
  };
}

type Env = z.infer<typeof envSchema>;

/** The environment checked by the schema, then across variables; a ConfigError lists what is wrong. */
function validEnv(env: Record<string, string | undefined>): Env {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'env'}: ${i.message}`));
  }
  const e = parsed.data;
  if (e.FLEETGATE_WEBHOOK_URL !== undefined && e.FLEETGATE_WEBHOOK_SECRET === undefined) {
    // Every instance must sign with the same secret, and the receiver must know it: it is set, not generated.
    throw new ConfigError([
      'FLEETGATE_WEBHOOK_SECRET: required with FLEETGATE_WEBHOOK_URL (whsec_ + base64 of 24 to 64 bytes)',
    ]);
  }
  if (e.FLEETGATE_HEADERS_TIMEOUT_MS > e.FLEETGATE_REQUEST_TIMEOUT_MS) {
    // The head is part of the request; Node refuses to start a server otherwise.
    throw new ConfigError([
      `FLEETGATE_HEADERS_TIMEOUT_MS: ${e.FLEETGATE_HEADERS_TIMEOUT_MS} is longer than FLEETGATE_REQUEST_TIMEOUT_MS (${e.FLEETGATE_REQUEST_TIMEOUT_MS})`,
    ]);
  }
  return e;
}

function videoConfig(e: Env, publicUrl: string): Config['video'] {
  return {
    clientId: e.VIDEO_CLIENT_ID,
    clientSecret: e.VIDEO_CLIENT_SECRET,
    accountId: e.VIDEO_ACCOUNT_ID,
    redirectUri: e.VIDEO_REDIRECT_URI ?? `${publicUrl}/api/video/oauth/callback`,
    webhookSecret: e.VIDEO_WEBHOOK_SECRET,
    apiBase: e.VIDEO_API_BASE.replace(/\/+$/, ''),
    oauthBase: e.VIDEO_OAUTH_BASE.replace(/\/+$/, ''),
    mcpUrl: e.VIDEO_MCP_URL,
  };
}

function sandboxConfig(e: Env, publicUrl: string): Config['sandbox'] {
  return {
    enabled: e.FLEETGATE_SANDBOX ?? e.VIDEO_CLIENT_ID === undefined,
    port: e.SANDBOX_PORT ?? e.PORT + 1,
    autolink: e.FLEETGATE_SANDBOX_AUTOLINK,
    clientId: e.SANDBOX_CLIENT_ID,
    clientSecret: e.SANDBOX_CLIENT_SECRET,
    webhookSecret: e.SANDBOX_WEBHOOK_SECRET,
    redirectUris: list(e.SANDBOX_REDIRECT_URIS, ',') ?? [
      e.VIDEO_REDIRECT_URI ?? `${publicUrl}/api/video/oauth/callback`,
    ],
    webhookUrl: e.SANDBOX_WEBHOOK_URL ?? `${publicUrl}/api/video/webhooks`,
    scopes: list(e.SANDBOX_SCOPES, ' '),
    accessTtl: e.SANDBOX_ACCESS_TTL,
    rateLimits: e.SANDBOX_RATE_LIMITS,
    autoApprove: e.SANDBOX_AUTO_APPROVE,
    dailyLimits: e.SANDBOX_DAILY_LIMITS,
    webhookValidationHours: e.SANDBOX_WEBHOOK_VALIDATION_HOURS,
  };
}

/** `name=number,…` (FLEETGATE_RATE_BUDGETS, FLEETGATE_DAILY_QUOTAS), names in the case `key` gives. */
function namedNumbers(text: string | undefined, key: (name: string) => string) {
  return Object.fromEntries(
    (text ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => {
        const [k, v] = pair.split('=');
        return [key(k ?? ''), Number(v)];
      }),
  );
}

function webhooksOutConfig(e: Env): Config['webhooksOut'] {
  return {
    env:
      e.FLEETGATE_WEBHOOK_URL !== undefined && e.FLEETGATE_WEBHOOK_SECRET !== undefined
        ? { url: e.FLEETGATE_WEBHOOK_URL, secret: e.FLEETGATE_WEBHOOK_SECRET }
        : undefined,
    allowPrivate: e.FLEETGATE_WEBHOOK_ALLOW_PRIVATE,
    retry: {
      baseMs: e.FLEETGATE_WEBHOOK_RETRY_BASE_MS,
      maxMs: e.FLEETGATE_WEBHOOK_RETRY_MAX_MS,
      forMs: e.FLEETGATE_WEBHOOK_RETRY_FOR * 1000,
    },
  };
}

// The protocol defaults to http/protobuf, as OpenTelemetry's specification has it.
function tracingConfig(e: Env): Config['tracing'] {
  return e.OTEL_EXPORTER_OTLP_ENDPOINT
    ? {
        endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
        protocol: e.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
        serviceName: e.OTEL_SERVICE_NAME ?? 'fleetgate',
      }
    : undefined;
}

/**
 * Sandbox mode wires the gateway to the built-in emulator: its app credentials, its hosts and
 * its webhook secret replace the VIDEO_* values (DESIGN.md, "The platform emulator").
 */
export function withSandboxWiring(c: Config): Config {
  if (!c.sandbox.enabled) return c;
  const base = `http://127.0.0.1:${c.sandbox.port}`;
  return {
    ...c,
    video: {
      ...c.video,
      clientId: c.sandbox.clientId,
      clientSecret: c.sandbox.clientSecret,
      accountId: undefined,
      apiBase: `${base}/v2`,
      oauthBase: base,
      mcpUrl: `${base}/mcp`,
      webhookSecret: c.sandbox.webhookSecret,
    },
  };
}
