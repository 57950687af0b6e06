/**
 * Starts the emulator on a free loopback port with in-memory state, a fixed clock offset you
 * can move, and helpers to get tokens through the real OAuth flow and call the API. Every
 * request it receives goes through the given contract checks (by default the strict check
 * against the published documents, test/helpers/contract.ts); the root's
 * test/helpers/emulator.ts adds the gateway's own.
 */
import { createHash, randomBytes } from 'node:crypto';
import { pino } from 'pino';
import type { EmulatorModule } from '../../src/context.js';
import { EMULATOR_DEFAULTS, type EmulatorOptions } from '../../src/options.js';
import { EMULATOR_MODULES } from '../../src/routes/index.js';
import { buildEmulator, type Emulator } from '../../src/server.js';
import { checkAgainstDocuments, contractChecksOn, recordViolations, type RequestCheck } from './contract.js';
import { freePort } from './wait.js';

export const REDIRECT = 'http://127.0.0.1:9/callback';

export interface TestEmulator {
  emulator: Emulator;
  base: string;
  options: EmulatorOptions;
  /** Moves the emulator's clock forward. */
  advance(ms: number): void;
  /** A user token pair through GET /oauth/authorize + POST /oauth/token (PKCE S256). */
  userToken(): Promise<{ access_token: string; refresh_token: string; scope: string; expires_in: number }>;
  api(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; query?: Record<string, string | number> },
  ): Promise<ApiResult>;
  close(): Promise<void>;
}

export interface ApiResult {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

export const basic = (
  id: string = EMULATOR_DEFAULTS.clientId,
  secret: string = EMULATOR_DEFAULTS.clientSecret,
) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

export async function startTestEmulator(
  overrides: Partial<EmulatorOptions> = {},
  modules: EmulatorModule[] = EMULATOR_MODULES,
  checks: readonly RequestCheck[] = [checkAgainstDocuments],
): Promise<TestEmulator> {
  const port = await freePort();
  let offset = 0;
  const options: EmulatorOptions = {
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir: undefined,
    clientId: EMULATOR_DEFAULTS.clientId,
    clientSecret: EMULATOR_DEFAULTS.clientSecret,
    webhookSecret: EMULATOR_DEFAULTS.webhookSecret,
    redirectUris: [REDIRECT],
    webhookUrl: undefined,
    scopes: undefined,
    accessTtlSeconds: 3599,
    refreshTtlDays: 90,
    rateLimits: false,
    autoApprove: true,
    webhookRetryDelaysMs: [50, 100, 200],
    seed: EMULATOR_DEFAULTS.seed,
    now: () => new Date(Date.now() + offset),
    logger: pino({ level: 'silent' }),
    // The strict contract check (test/helpers/contract.ts): every request held to the full documents.
    ...(contractChecksOn
      ? { onPlatformRequest: (req) => recordViolations(checks.flatMap((check) => check(req))) }
      : {}),
    ...overrides,
  };
  const emulator = buildEmulator(options, modules);
  // What no document says (OAuth, the hosted MCP, `me` with an account token): the emulator's own log.
  emulator.contract.listen((v) => {
    if (!v.fromDocuments) recordViolations([v]);
  });
  await emulator.app.listen({ port, host: '127.0.0.1' });
  const base = options.baseUrl;

  const api: TestEmulator['api'] = async (method, path, opts = {}) => {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {};
    if (opts.token) headers['authorization'] = `Bearer ${opts.token}`;
    // Control writes are JSON even without a body (control-guard.ts); the platform's are JSON when they have one.
    const controlWrite = path.startsWith('/_sandbox') && method !== 'GET' && method !== 'HEAD';
    if (opts.body !== undefined || controlWrite) headers['content-type'] = 'application/json';
    const res = await fetch(url, {
      method,
      headers,
      body:
        opts.body === undefined
          ? null
          : typeof opts.body === 'string'
            ? opts.body
            : JSON.stringify(opts.body),
      redirect: 'manual',
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, json, text };
  };

  const userToken: TestEmulator['userToken'] = async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const auth = await fetch(
      `${base}/oauth/authorize?response_type=code&client_id=${options.clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}&state=xyz&code_challenge=${challenge}&code_challenge_method=S256`,
      { redirect: 'manual' },
    );
    const code = new URL(auth.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const res = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { authorization: basic(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }),
    });
    return (await res.json()) as {
      access_token: string;
      refresh_token: string;
      scope: string;
      expires_in: number;
    };
  };

  return {
    emulator,
    base,
    options,
    advance: (ms) => {
      offset += ms;
    },
    userToken,
    api,
    close: () => emulator.close(),
  };
}
