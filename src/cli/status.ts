/**
 * `fleetgate status`: the link and status report. By default the running service's own
 * (GET /api/video/status with the API key, live platform probes included: what the dashboard
 * shows); with --offline, or when nothing answers at the service's address, a summary read from
 * the store alone (link, account, token expiry, stored events, registrations), the platform not
 * asked. Either way the stored events are the report's bounded window (event-window.ts: upcoming
 * and most recent, at most STORED_EVENTS_SHOWN), never a read of the whole table.
 * Exit status: 0 linked and healthy, 3 not healthy (not linked, needing a relink, or the platform
 * failing: the report's `platform` part, whose message is its note), 1 no report.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseConfig, type Config } from '../config.js';
import { STORED_EVENTS_SHOWN, storedEventWindow } from '../gateway/event-window.js';
import type { StatusReport } from '../gateway/status.js';
import { openStore, sqliteFile } from '../store/create-store.js';
import type { LinkRecord, StoredEvent } from '../store/store.js';
import { describeStore, storeOptions } from './store-target.js';

const NOT_HEALTHY = 3;

export interface StatusOptions {
  url?: string;
  offline?: boolean;
  json?: boolean;
}

/** Where this configuration's service listens, as a client on this host reaches it. */
export function serviceUrl(config: Config): string {
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** The API key as configured, without making one (the service makes it on its first start). */
function apiKeyOf(config: Config): string | undefined {
  if (config.apiKey) return config.apiKey;
  const file = path.join(config.dataDir, 'api-key');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || undefined : undefined;
}

const line = (label: string, value: string | number) => `  ${label.padEnd(16)}${value}\n`;

function countBy(statuses: StoredEvent['status'][]): Record<string, number> {
  const by: Record<string, number> = {};
  for (const st of statuses) by[st] = (by[st] ?? 0) + 1;
  return by;
}

/** "3 (2 scheduled, 1 ended)"; a cut window says what it holds. */
function eventsLine(by: Record<string, number>, more: boolean): string {
  const entries = Object.entries(by);
  const total = entries.reduce((n, [, k]) => n + k, 0);
  const counts = entries.map(([st, k]) => `${k} ${st}`).join(', ');
  if (more) return `${total} shown, upcoming and most recent (${counts}); all at /api/video/events`;
  return `${total}${entries.length ? ` (${counts})` : ''}`;
}

/** The service's report, or undefined when nothing listens at the address. */
async function fromService(base: string, key: string): Promise<string | undefined> {
  const url = `${base}/api/video/status`;
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
      signal: AbortSignal.timeout(20_000),
    });
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED') return undefined;
    throw new Error(
      `could not reach ${url}: ${code ?? (err as Error).message}; --offline reads the store instead`,
    );
  }
  const body = await res.text();
  if (res.status !== 200) {
    let why = body.slice(0, 200);
    try {
      const e = (JSON.parse(body) as { error?: { code?: string; message?: string } }).error;
      if (e?.code) why = `${e.code}: ${e.message ?? ''}`;
    } catch {
      // Not our error shape (another server on that port?): show the start of what came back.
    }
    throw new Error(`${url} answered ${res.status} (${why})`);
  }
  return body;
}

function printReport(url: string, r: StatusReport): void {
  const ok = (v: boolean) => (v ? 'ok' : 'unavailable');
  process.stdout.write(
    `fleetgate status from ${url}\n` +
      line(
        'status',
        r.ok
          ? 'ok'
          : r.platform
            ? `platform ${r.platform.reachable ? 'failing' : 'unreachable'}: ${r.platform.cause.replaceAll('_', ' ')} since ${r.platform.since}`
            : r.account
              ? 'needs relink'
              : 'not linked',
      ) +
      line(
        'account',
        r.account ? `${r.account.name} <${r.account.email}> (id ${r.account.id})` : 'none linked',
      ) +
      line('brand', r.brand) +
      line('webinar licence', r.webinarLicense ? 'yes' : 'no') +
      (r.note ? line('note', r.note) : '') +
      line(
        'stored events',
        // The report carries no flag; a full window is taken as cut, which it nearly always is.
        eventsLine(
          countBy(r.storedEvents.map((e) => e.status)),
          r.storedEvents.length >= STORED_EVENTS_SHOWN,
        ),
      ) +
      line('registrations', r.registrationsTotal) +
      line('upcoming live', r.upcomingLive.length) +
      line('recordings', `${r.recentRecordings.length} in the last 30 days`) +
      line('contacts', ok(r.contactsOk)) +
      line('phone', ok(r.phoneOk)) +
      line('clips', ok(r.clipsOk)) +
      line('capabilities', r.capabilities.length) +
      line('checked at', r.checkedAt),
  );
}

interface StoreSummary {
  source: 'store';
  ok: boolean;
  store: string;
  /** False for a data dir the service never ran with (nothing is created to read it). */
  storeExists: boolean;
  link: {
    status: LinkRecord['status'];
    mode: LinkRecord['mode'];
    account: { id: string; email: string; name: string };
    scopes: string[];
    accessExpiresAt: string;
    linkedAt: string;
    updatedAt: string;
  } | null;
  /** How many stored events the window holds (all of them unless storedEventsMore). */
  storedEvents: number;
  /** Some stored events are beyond the window (the upcoming and most recent STORED_EVENTS_SHOWN). */
  storedEventsMore: boolean;
  eventsByStatus: Record<string, number>;
  registrationsTotal: number;
  /** Migrations the database has run that this code does not know (a newer release migrated it). */
  schemaNewerThanCode: string[];
  checkedAt: string;
}

async function fromStore(config: Config): Promise<StoreSummary> {
  const summary = {
    source: 'store' as const,
    store: describeStore(config),
    storeExists: true,
    checkedAt: new Date().toISOString(),
  };
  const none: StoreSummary = {
    ...summary,
    ok: false,
    storeExists: false,
    link: null,
    storedEvents: 0,
    storedEventsMore: false,
    eventsByStatus: {},
    registrationsTotal: 0,
    schemaNewerThanCode: [],
  };
  // Opening the SQLite file of a data dir the service never used would create it.
  if (!config.databaseUrl && !existsSync(sqliteFile(config.dataDir))) return none;
  const store = await openStore(storeOptions(config));
  try {
    // A database (or schema) no instance has migrated yet has no tables to read.
    const state = await store.migrations();
    if (state.applied.length === 0) return none;
    const [link, window, registrationsTotal] = await Promise.all([
      store.getLink(),
      storedEventWindow(store, Date.now()),
      store.countRegistrations(),
    ]);
    const events = window.events;
    return {
      ...summary,
      ok: link?.status === 'linked',
      // Only what identifies the link; its sealed tokens stay in the store.
      link: link
        ? {
            status: link.status,
            mode: link.mode,
            account: { id: link.accountId, email: link.email, name: link.name },
            scopes: link.scopes,
            accessExpiresAt: new Date(link.accessExpiresAt).toISOString(),
            linkedAt: link.linkedAt,
            updatedAt: link.updatedAt,
          }
        : null,
      storedEvents: events.length,
      storedEventsMore: window.more,
      eventsByStatus: countBy(events.map((e) => e.status)),
      registrationsTotal,
      schemaNewerThanCode: state.unknown,
    };
  } finally {
    await store.close();
  }
}

function printSummary(s: StoreSummary): void {
  const l = s.link;
  const expiry = l ? Date.parse(l.accessExpiresAt) - Date.now() : 0;
  if (!s.storeExists) {
    process.stdout.write(
      `fleetgate status: no store yet at ${s.store} (the service has not run with this configuration)\n` +
        line('status', 'not linked'),
    );
    return;
  }
  process.stdout.write(
    `fleetgate status from the store alone (the platform was not asked): ${s.store}\n` +
      line('status', l ? l.status.replace('_', ' ') : 'not linked') +
      (l
        ? line('account', `${l.account.name} <${l.account.email}> (id ${l.account.id})`) +
          line('mode', l.mode === 's2s' ? 'server-to-server' : 'user (OAuth)') +
          line('scopes', `${l.scopes.length} granted`) +
          line(
            'access token',
            expiry > 0
              ? `expires ${l.accessExpiresAt} (in ${Math.round(expiry / 60_000)} min)`
              : `expired ${l.accessExpiresAt} (refreshed on next use)`,
          ) +
          line('linked at', l.linkedAt)
        : line('account', 'none linked')) +
      line('stored events', eventsLine(s.eventsByStatus, s.storedEventsMore)) +
      line('registrations', s.registrationsTotal) +
      (s.schemaNewerThanCode.length > 0
        ? line(
            'schema',
            `newer than this code: a newer release has run ${s.schemaNewerThanCode.join(', ')}; upgrade`,
          )
        : ''),
  );
}

export async function status(o: StatusOptions): Promise<number> {
  const config = parseConfig(process.env);
  const base = (o.url ?? serviceUrl(config)).replace(/\/+$/, '');
  let note: string | undefined;
  if (!o.offline) {
    const key = apiKeyOf(config);
    const body = key ? await fromService(base, key) : undefined;
    if (body !== undefined) {
      const report = JSON.parse(body) as StatusReport;
      if (o.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else printReport(`${base}/api/video/status`, report);
      return report.ok ? 0 : NOT_HEALTHY;
    }
    note = key
      ? `no service answered at ${base}; reading the store instead.`
      : `no API key (FLEETGATE_API_KEY, or ${path.join(config.dataDir, 'api-key')} once the service has run); reading the store instead.`;
  }
  const summary = await fromStore(config);
  if (o.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else {
    if (note) process.stdout.write(`${note}\n`);
    printSummary(summary);
  }
  return summary.ok ? 0 : NOT_HEALTHY;
}
