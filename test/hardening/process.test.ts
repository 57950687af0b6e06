/**
 * The real process (npm start, sandbox mode), at debug log level, through a full run: linking,
 * gateway calls, a webhook, the dashboard, a token refresh, metrics. Its whole log holds no key,
 * token or secret. SIGTERM stops accepting, lets the in-flight request finish, closes the store
 * and exits 0; a restart on the same data dir finds the link and the stored event.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/build-test-app.js';
import { startService, type Service } from '../helpers/spawn-service.js';

const API_KEY = `proc-key-${randomBytes(12).toString('hex')}`;
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const CLIENT_SECRET = `client-secret-${randomBytes(8).toString('hex')}`;
const WEBHOOK_SECRET = `webhook-secret-${randomBytes(8).toString('hex')}`;

let dataDir: string;
const services: Service[] = [];
afterAll(async () => {
  for (const s of services) if (s.child.exitCode === null) await s.stop('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const env = () => ({
  FLEETGATE_DATA_DIR: dataDir,
  BRAND_WATCH: '0',
  LOG_LEVEL: 'debug',
  FLEETGATE_API_KEY: API_KEY,
  FLEETGATE_ENCRYPTION_KEY: ENCRYPTION_KEY,
  SANDBOX_CLIENT_SECRET: CLIENT_SECRET,
  SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
});

describe('the process under SIGTERM, and its logs', () => {
  it('logs no secret over a full run, finishes in-flight work on SIGTERM, and restarts clean', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-proc-'));
    const svc = await startService(env());
    services.push(svc);
    const auth = { authorization: `Bearer ${API_KEY}` };
    const api = (p: string, init: RequestInit = {}) =>
      fetch(`${svc.base}${p}`, {
        ...init,
        headers: { ...auth, ...(init.headers as Record<string, string>) },
      });
    const emu = (p: string, body?: unknown) =>
      fetch(`${svc.sandboxBase}${p}`, {
        method: body === undefined ? 'GET' : 'POST',
        ...(body === undefined
          ? {}
          : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });

    // A full run: status, a stored event, a webhook, linking, the dashboard, a refresh, metrics.
    expect(((await (await api('/api/video/status')).json()) as { ok: boolean }).ok).toBe(true);
    const created = await api('/api/video/events', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        topic: 'Survives restarts',
        start_time: '2031-03-04T10:00:00Z',
        funnel: 'freight',
      }),
    });
    expect(created.status).toBe(201);
    const videoId = String(((await created.json()) as { video_id: string }).video_id);
    expect(
      (await emu('/_sandbox/webhooks/send', { event: 'meeting.started', object: { id: Number(videoId) } }))
        .status,
    ).toBe(202);
    await eventually(async () => {
      const ev = (await (await api(`/api/video/events/${videoId}`)).json()) as { status: string };
      expect(ev.status).toBe('started');
    });
    expect((await api('/api/video/oauth/start', { headers: { accept: 'application/json' } })).status).toBe(
      200,
    );
    const login = await fetch(`${svc.base}/dashboard/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `key=${API_KEY}`,
      redirect: 'manual',
    });
    const session = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(session).toMatch(/^fg_session=/);
    expect((await fetch(`${svc.base}/dashboard`, { headers: { cookie: session } })).status).toBe(200);
    expect(
      (await fetch(`${svc.base}/api/video/status`, { headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    expect((await emu('/_sandbox/tokens/expire', {})).status).toBe(204);
    expect((await api('/api/video/contacts')).status).toBe(200);
    expect((await api('/metrics')).status).toBe(200);
    const stats = (await (await emu('/_sandbox/stats')).json()) as {
      lastAccessToken: string;
      lastRefreshToken: string;
      tokenGrants: { refresh_token: number };
      requests: Record<string, number>;
    };
    expect(stats.tokenGrants.refresh_token).toBeGreaterThanOrEqual(1);

    // In flight when SIGTERM arrives: the platform answers it late.
    expect(
      (await emu('/_sandbox/faults', { path: '/v2/*', method: 'GET', delayMs: 1500, times: 1 })).status,
    ).toBe(201);
    const platformGets = (s: typeof stats) =>
      Object.entries(s.requests)
        .filter(([k]) => k.startsWith('GET /v2/'))
        .reduce((n, [, c]) => n + c, 0);
    const before = platformGets(stats);
    const inflight = api('/api/video/contacts');
    await eventually(async () => {
      expect(platformGets((await (await emu('/_sandbox/stats')).json()) as typeof stats)).toBeGreaterThan(
        before,
      );
    });
    const exited = svc.stop('SIGTERM');
    // Stop accepting: a new connection is refused (or, on a kept-alive socket, told 503).
    await eventually(async () => {
      const late = await fetch(`${svc.base}/healthz`, { headers: { connection: 'close' } }).then(
        (r) => r.status,
        () => 'refused' as const,
      );
      expect(['refused', 503]).toContain(late);
    });
    const finished = await inflight;
    expect(finished.status).toBe(200);
    expect(((await finished.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
    const code = await exited;
    if (code !== 0) console.log(svc.output().split('\n').slice(-15).join('\n'));
    expect(code).toBe(0);

    const log = svc.output();
    expect(log).toContain('shut down cleanly');
    const secrets = {
      API_KEY,
      ENCRYPTION_KEY,
      CLIENT_SECRET,
      WEBHOOK_SECRET,
      access: stats.lastAccessToken,
      refresh: stats.lastRefreshToken,
      session: session.split('=')[1] ?? '',
    };
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThan(10);
      expect(log.includes(value), `${name} appears in the log`).toBe(false);
    }
    const requestLines = log
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg?: string; reqId?: string })
      .filter((l) => l.msg === 'request completed');
    expect(requestLines.length).toBeGreaterThan(5);
    // Each request its own id (a sane token, as given or made).
    for (const l of requestLines) expect(l.reqId).toMatch(/^[\w.-]{1,64}$/);
    expect(new Set(requestLines.map((l) => l.reqId)).size).toBe(requestLines.length);
    console.log(
      `[process] log lines=${log.split('\n').length} secrets checked=${Object.keys(secrets).length}`,
    );

    // A clean restart on the same data dir: the link and the stored event are there.
    const again = await startService(env());
    services.push(again);
    expect(again.output()).toMatch(/gateway .*\(linked as avery\.quinn@/);
    const ev = await fetch(`${again.base}/api/video/events/${videoId}`, { headers: auth });
    expect(((await ev.json()) as { topic: string }).topic).toBe('Survives restarts');
    expect(await again.stop('SIGTERM')).toBe(0);
  }, 90_000);
});
