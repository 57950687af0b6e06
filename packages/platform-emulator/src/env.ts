/**
 * The emulator's settings from the environment (`npm run sandbox`, or the child the service forks
 * under `npm start`): the SANDBOX_* variables, and the few shared ones whose values it derives
 * defaults from (PORT, PUBLIC_URL, VIDEO_REDIRECT_URI, FLEETGATE_DATA_DIR, LOG_LEVEL), read the
 * way the service reads them so that both sides agree on ports and URLs. Only main.ts calls it;
 * the rest of the emulator never reads the environment.
 */
import * as z from 'zod';

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
const DAILY_NAME = '(light|medium|heavy|resource_intensive|meeting_writes_per_user)';

const envSchema = z.object({
  PORT: port.default(3000),
  PUBLIC_URL: optionalString.pipe(url('PUBLIC_URL').optional()),
  VIDEO_REDIRECT_URI: optionalString.pipe(url('VIDEO_REDIRECT_URI').optional()),
  FLEETGATE_DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SANDBOX_PORT: port.optional(),
  SANDBOX_CLIENT_ID: z.string().min(1).default('sandbox-client'),
  SANDBOX_CLIENT_SECRET: z.string().min(1).default('sandbox-secret'),
  SANDBOX_WEBHOOK_SECRET: z.string().min(1).default('sandbox-webhook-secret'),
  SANDBOX_REDIRECT_URIS: optionalString,
  SANDBOX_WEBHOOK_URL: optionalString.pipe(url('SANDBOX_WEBHOOK_URL').optional()),
  SANDBOX_SCOPES: optionalString,
  SANDBOX_ACCESS_TTL: z.coerce.number().int().min(1).max(86_400).default(3599),
  SANDBOX_RATE_LIMITS: flag.default(true),
  SANDBOX_AUTO_APPROVE: flag.default(true),
  SANDBOX_DAILY_LIMITS: optionalString.pipe(
    z
      .string()
      .regex(
        new RegExp(`^${DAILY_NAME}=\\d+(,${DAILY_NAME}=\\d+)*$`, 'i'),
        'SANDBOX_DAILY_LIMITS looks like meeting_writes_per_user=100,heavy=30000 (names: light, medium, heavy, resource_intensive, meeting_writes_per_user)',
      )
      .optional(),
  ),
  // The platform re-validates webhook endpoints every 72 h; 0 never (at most 24 days, a timer's range).
  SANDBOX_WEBHOOK_VALIDATION_HOURS: z.coerce.number().min(0).max(596).default(72),
});

export interface EmulatorConfig {
  port: number;
  dataDir: string;
  logLevel: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  /** Allowed OAuth redirect URIs; default: the gateway's callback. */
  redirectUris: string[];
  /** Where webhooks go; default: the gateway's intake. */
  webhookUrl: string;
  /** Scopes granted; undefined grants everything except webinar scopes. */
  scopes: string[] | undefined;
  accessTtl: number;
  rateLimits: boolean;
  autoApprove: boolean;
  /** SANDBOX_DAILY_LIMITS as given (its form checked); options.ts reads it. */
  dailyLimits: string | undefined;
  /** How often the webhook endpoint is re-validated, hours (0 never). */
  webhookValidationHours: number;
}

/** Settings that cannot be used; lists every problem, not just the first. */
export class EmulatorEnvError extends Error {
  constructor(public readonly issues: string[]) {
    super(`invalid configuration:\n${issues.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'EmulatorEnvError';
  }
}

const list = (v: string | undefined, sep: string) =>
  v
    ?.split(sep)
    .map((x) => x.trim())
    .filter(Boolean);

export function emulatorConfigFromEnv(env: Record<string, string | undefined>): EmulatorConfig {
  // Only the variables read here are checked: the service's own settings are the service's business.
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new EmulatorEnvError(parsed.error.issues.map((i) => `${i.path.join('.') || 'env'}: ${i.message}`));
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.SANDBOX_PORT ?? e.PORT + 1,
    dataDir: e.FLEETGATE_DATA_DIR,
    logLevel: e.LOG_LEVEL,
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
