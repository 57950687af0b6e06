/**
 * Everything the emulator is configured with. main.ts (or a test) fills it; nothing here reads
 * the environment.
 */
import type { Logger } from 'pino';

export type RateLabel = 'LIGHT' | 'MEDIUM' | 'HEAVY' | 'RESOURCE_INTENSIVE';

export interface SandboxOptions {
  /** Base URL the emulator is reached at, e.g. http://127.0.0.1:3001 (no /v2). */
  baseUrl: string;
  /** Folder for the persisted state; undefined keeps everything in memory (tests). */
  dataDir: string | undefined;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  redirectUris: string[];
  webhookUrl: string | undefined;
  /** Scopes granted to every token; undefined grants every scope the emulator knows except webinar ones. */
  scopes: string[] | undefined;
  accessTtlSeconds: number;
  refreshTtlDays: number;
  rateLimits: boolean;
  /** false: /oauth/authorize answers access_denied, as when a user clicks "Decline". */
  autoApprove: boolean;
  /** Delays before webhook retries 1..3 (the platform uses 5, 20 and 60 minutes). */
  webhookRetryDelaysMs: number[];
  seed: number;
  now: () => Date;
  logger: Logger;
}

export const DEFAULT_SANDBOX = {
  clientId: 'sandbox-client',
  clientSecret: 'sandbox-secret',
  webhookSecret: 'sandbox-webhook-secret',
  accessTtlSeconds: 3599,
  refreshTtlDays: 90,
  webhookRetryDelaysMs: [1000, 4000, 12000],
  seed: 20261122,
} as const;
