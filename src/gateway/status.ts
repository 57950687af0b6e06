/**
 * The status report of the seed (GET /api/video/status): what is configured and linked, what
 * is stored, and which capabilities exist. Platform facts come from probes that run at the same
 * time with short timeouts and are cached briefly, so a warm report costs next to nothing and a
 * cold one about the slowest probe. `storedEvents` is bounded (event-window.ts: the upcoming
 * and most recent events, at most STORED_EVENTS_SHOWN) and `registrationsTotal` is the store's
 * kept counter, so the report stays small and quick however much is stored. When every probe
 * fails for want of the platform (no answer, server errors, or the breakers those opened), the
 * report is not ok and its `platform` part says why (reachability.ts); it is absent otherwise.
 */
import { AppError } from '../core/errors.js';
import type { SchemaCheck } from '../store/migration-state.js';
import type { LinkRecord, Store, StoredEvent } from '../store/store.js';
import { APIS, capabilityMap, SEED_CAPABILITIES } from './capabilities/catalog.js';
import { storedEventWindow, type EventWindow } from './event-window.js';
import { unreadableNote, type LinkProblem } from './oauth/sealed-link.js';
import type { CallOptions, PlatformClient } from './platform/platform-client.js';
import type { PlatformTrouble } from './platform/reachability.js';

export const NOTE_WEBINAR_SCOPES =
  'The webinar product scopes are absent from the marketplace app, so meetings plus calendar are used in place of webinars.';
export const NOTE_NO_WEBINAR_LICENSE =
  'The account holds no webinar licence, so meetings plus calendar are used in place of webinars.';
export const NOTE_NOT_LINKED =
  'No platform account is linked. Link one with GET /api/video/oauth/start (or the dashboard), then check again.';
export const NOTE_NEEDS_RELINK =
  'The platform no longer accepts the stored tokens. Link the account again with GET /api/video/oauth/start.';

/** What the note says when a newer release has migrated the database under this instance. */
export function schemaNote(s: SchemaCheck): string {
  if (s.unknown.length === 0) return '';
  const ran = `a newer release has migrated the database (${s.unknown.join(', ')}, which this code, up to ${s.code}, does not know)`;
  return s.serves
    ? `This instance runs older code than the database: ${ran}. It still serves; upgrade it.`
    : `This instance's code is too old for the database: ${ran} and its schema now needs code that knows ${s.oldestCode ?? '?'} or later. Upgrade this instance.`;
}

export interface WireStoredEvent {
  video_id: string;
  topic: string;
  kind: 'meeting';
  start_time: string;
  funnel: string | null;
  status: StoredEvent['status'];
}

export const storedEventToWire = (e: StoredEvent): WireStoredEvent => ({
  video_id: e.videoId,
  topic: e.topic,
  kind: e.kind,
  start_time: e.startTime,
  funnel: e.funnel,
  status: e.status,
});

export interface StatusReport {
  ok: boolean;
  /** Why the platform fails the report's probes; only there when it does (then ok is false). */
  platform?: PlatformTrouble;
  configured: boolean;
  brand: string;
  account: { id: string; email: string; name: string; type: number; pmi: number } | null;
  webinarLicense: boolean;
  note: string;
  upcomingLive: { video_id: string; topic: string; start_time: string; join_url: string | null }[];
  storedEvents: WireStoredEvent[];
  registrationsTotal: number;
  recentRecordings: {
    video_id: string;
    topic: string;
    start_time: string;
    files: number;
    total_size: number;
  }[];
  contactsOk: boolean;
  phoneOk: boolean;
  clipsOk: boolean;
  capabilityMap: Record<string, string[]>;
  capabilities: string[];
  apis: Record<string, string>;
  checkedAt: string;
}

interface Probes {
  at: number;
  upcoming: StatusReport['upcomingLive'];
  recordings: StatusReport['recentRecordings'];
  contactsOk: boolean;
  phoneOk: boolean;
  clipsOk: boolean;
  webinarLicense: boolean | undefined;
  /** Set when every probe failed for want of the platform. */
  trouble: PlatformTrouble | undefined;
  /** The platform client's reachability changes when the probes ended (Reachability.changes). */
  reach: number;
}

export interface StatusDeps {
  store: Store;
  platform: PlatformClient;
  configured: boolean;
  brandName: () => string;
  now: () => number;
  cacheMs: number;
  probeTimeoutMs: number;
  /** Why the link's sealed tokens cannot be opened, if they cannot (TokenManager.problem). */
  linkProblem?: (link: LinkRecord) => LinkProblem | undefined;
}

/** How long a report may miss another instance's store writes (PostgreSQL, where they go unseen). */
const STORE_VIEW_MS = 1_000;

/** A report as last built, without checkedAt, and what it was built from. */
interface Built {
  stamp: string;
  at: number;
  probes: Probes | undefined;
  report: Omit<StatusReport, 'checkedAt'>;
  /** Built while the tokens did not open: not reused, so a restored key shows at once. */
  unreadable?: boolean;
  /** When the passing of time alone changes which stored events are shown (EventWindow). */
  changesAt: number | undefined;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * A probe failure that says the platform is failing, not that it refused this one thing (a
 * missing scope, no licence, a rate limit): no answer in time, no connection, a server error, a
 * breaker those opened, or tokens that could not be renewed.
 */
const PLATFORM_FAILURES = new Set([
  'upstream_timeout',
  'upstream_error',
  'upstream_unavailable',
  'token_refresh_failed',
]);
const platformFailure = (err: unknown) => err instanceof AppError && PLATFORM_FAILURES.has(err.code);

/** A probe's platform call: the platform client's, with the probe timeout and the failures kept. */
type ProbeCall = <T>(o: CallOptions) => Promise<{ data: T }>;

/** The next meetings (from an hour ago), at most ten; none when the platform does not answer. */
function upcomingProbe(call: ProbeCall, uid: string, now: number) {
  return call<{ meetings?: { id: number; topic: string; start_time: string; join_url?: string }[] }>({
    method: 'GET',
    path: `/users/${uid}/upcoming_meetings`,
    label: 'MEDIUM',
    group: 'meetings',
  })
    .then((r) =>
      (r.data.meetings ?? [])
        .filter((m) => Date.parse(m.start_time) >= now - 3_600_000)
        .slice(0, 10)
        .map((m) => ({
          video_id: String(m.id),
          topic: m.topic,
          start_time: m.start_time,
          join_url: m.join_url ?? null,
        })),
    )
    .catch(() => []);
}

/** The last 30 days' recordings, at most ten; none when the platform does not answer. */
function recordingsProbe(call: ProbeCall, uid: string, now: number) {
  return call<{
    meetings?: {
      id: number;
      topic: string;
      start_time: string;
      recording_files?: unknown[];
      total_size?: number;
    }[];
  }>({
    method: 'GET',
    path: `/users/${uid}/recordings`,
    query: { from: day(now - 29 * 86_400_000), to: day(now), page_size: 30 },
    label: 'MEDIUM',
    group: 'recordings',
  })
    .then((r) =>
      (r.data.meetings ?? []).slice(0, 10).map((m) => ({
        video_id: String(m.id),
        topic: m.topic,
        start_time: m.start_time,
        files: m.recording_files?.length ?? 0,
        total_size: m.total_size ?? 0,
      })),
    )
    .catch(() => []);
}

/** Whether a GET of the smallest page answers at all. */
function answers(call: ProbeCall, o: Omit<CallOptions, 'method'>): Promise<boolean> {
  return call({ method: 'GET', ...o }).then(
    () => true,
    () => false,
  );
}

/** Whether the user's plan includes webinars; undefined when the platform does not say. */
function webinarProbe(call: ProbeCall, uid: string): Promise<boolean | undefined> {
  return call<{ feature?: { webinar?: boolean } }>({
    method: 'GET',
    path: `/users/${uid}/settings`,
    label: 'MEDIUM',
    group: 'meetings',
  })
    .then((r) => r.data.feature?.webinar === true)
    .catch(() => undefined);
}

export class StatusService {
  #probes: Probes | undefined;
  #running: Promise<Probes> | undefined;
  #built: Built | undefined;

  constructor(private readonly d: StatusDeps) {}

  invalidate(): void {
    this.#probes = undefined;
    this.#built = undefined;
  }

  /** `uid`: `me` for a user link; the linked user's id in server-to-server mode, which has no `me`. */
  async #probe(uid: string): Promise<Probes> {
    // Every probe's call goes through here, so the failures can be told apart after.
    const failures: unknown[] = [];
    let calls = 0;
    const call: ProbeCall = <T>(o: CallOptions) => {
      calls += 1;
      return this.d.platform.call<T>({ ...o, timeoutMs: this.d.probeTimeoutMs }).catch((err: unknown) => {
        failures.push(err);
        throw err;
      });
    };
    const now = this.d.now();
    const [upcoming, recordings, contactsOk, phoneOk, clipsOk, settings] = await Promise.all([
      upcomingProbe(call, uid, now),
      recordingsProbe(call, uid, now),
      // The directory search, which an account-level token may call too: the contacts list is
      // documented for `me` only. Its search_key is required; any will do.
      answers(call, {
        path: '/contacts',
        query: { search_key: 'a', page_size: 1 },
        label: 'MEDIUM',
        group: 'contacts',
      }),
      answers(call, {
        path: `/phone/users/${uid}/call_history`,
        query: { page_size: 1 },
        label: 'LIGHT',
        group: 'phone',
      }),
      // The least page the platform takes.
      answers(call, { path: '/clips', query: { page_size: 30 }, label: 'LIGHT', group: 'clips' }),
      webinarProbe(call, uid),
    ]);
    const down = failures.length === calls && failures.every(platformFailure);
    return {
      at: this.d.now(),
      upcoming,
      recordings,
      contactsOk,
      phoneOk,
      clipsOk,
      webinarLicense: settings,
      trouble: down ? this.#trouble(failures) : undefined,
      reach: this.d.platform.reachabilityChanges(),
    };
  }

  /**
   * Why every probe failed: the platform client's account of its last attempts, which names the
   * cause even when open breakers kept the probes from going out; or, when none went out because
   * the tokens could not be renewed, that.
   */
  #trouble(failures: unknown[]): PlatformTrouble | undefined {
    const seen = this.d.platform.trouble();
    if (seen) return seen;
    const refresh = failures.find((f) => f instanceof AppError && f.code === 'token_refresh_failed');
    return refresh instanceof AppError
      ? {
          reachable: false,
          cause: 'token_refresh_failed',
          message: refresh.message,
          since: new Date(this.d.now()).toISOString(),
        }
      : undefined;
  }

  /**
   * The probes last run, while they are within the cache time and the platform has neither gone
   * out of reach nor come back since (other calls found that out): so the report does not say ok
   * while every call fails, nor the reverse.
   */
  #cachedProbes(): Probes | undefined {
    const p = this.#probes;
    return p && this.d.now() - p.at < this.d.cacheMs && p.reach === this.d.platform.reachabilityChanges()
      ? p
      : undefined;
  }

  async #probesFresh(force: boolean, uid: string): Promise<Probes> {
    const cached = force ? undefined : this.#cachedProbes();
    if (cached) return cached;
    this.#running ??= this.#probe(uid).finally(() => {
      this.#running = undefined;
    });
    this.#probes = await this.#running;
    return this.#probes;
  }

  /** The stored events the report shows, as of the gateway's clock (the dashboard shows the same). */
  storedEvents(): Promise<EventWindow> {
    return storedEventWindow(this.d.store, this.d.now());
  }

  /** The report as an object (the route answers it, the dashboard renders it). */
  async report(opts: { fresh?: boolean } = {}): Promise<StatusReport> {
    const r = await this.#current(opts.fresh === true);
    return { ...r.report, checkedAt: this.#checkedAt() };
  }

  #checkedAt(): string {
    return new Date(this.d.now()).toISOString();
  }

  /**
   * The report without checkedAt, reused while nothing it was built from can have changed: the
   * same store stamp (no write since), the same probes still fresh, the same brand name; where
   * the store cannot see other instances' writes (PostgreSQL), for at most STORE_VIEW_MS too.
   */
  async #current(fresh: boolean): Promise<Built> {
    const change = this.d.store.changeStamp();
    const c = this.#built;
    const now = this.d.now();
    if (
      !fresh &&
      c &&
      !c.unreadable &&
      c.stamp === change.stamp &&
      (change.exact || now - c.at < STORE_VIEW_MS) &&
      (c.probes === undefined || c.probes === this.#cachedProbes()) &&
      (c.changesAt === undefined || now < c.changesAt) &&
      c.report.brand === this.d.brandName()
    )
      return c;
    const built = await this.#build(fresh, change.stamp, now);
    // A write during the build moved the stamp: keep the answer, but the next caller rebuilds.
    this.#built = built;
    return built;
  }

  async #build(fresh: boolean, stamp: string, at: number): Promise<Built> {
    const [link, window, registrationsTotal, schema] = await Promise.all([
      this.d.store.getLink(),
      storedEventWindow(this.d.store, at),
      this.d.store.countRegistrations(),
      this.d.store.schema(),
    ]);
    const olderCode = schemaNote(schema);
    const storedEvents = window.events.map(storedEventToWire);
    const account = link
      ? { id: link.accountId, email: link.email, name: link.name, type: link.type, pmi: link.pmi }
      : null;
    // Built field by field in the seed's order, which is also the wire order (checkedAt comes last;
    // `platform`, not the seed's, follows `ok` when there).
    const assemble = (p: {
      ok: boolean;
      webinarLicense: boolean;
      note: string;
      probes?: Probes;
      platform?: PlatformTrouble;
    }): Built => ({
      stamp,
      at,
      probes: p.probes,
      changesAt: window.changesAt,
      report: {
        ok: p.ok && schema.serves,
        // Not a seed field: there only when the platform fails, so a healthy report is the seed's.
        ...(p.platform ? { platform: p.platform } : {}),
        configured: this.d.configured,
        brand: this.d.brandName(),
        account,
        webinarLicense: p.webinarLicense,
        note: olderCode ? `${olderCode}${p.note ? ` ${p.note}` : ''}` : p.note,
        upcomingLive: p.probes?.upcoming ?? [],
        storedEvents,
        registrationsTotal,
        recentRecordings: p.probes?.recordings ?? [],
        contactsOk: p.probes?.contactsOk ?? false,
        phoneOk: p.probes?.phoneOk ?? false,
        clipsOk: p.probes?.clipsOk ?? false,
        capabilityMap: capabilityMap(),
        capabilities: SEED_CAPABILITIES.map((c) => c.name),
        apis: { ...APIS },
      },
    });
    if (!link || link.status !== 'linked') {
      return assemble({
        ok: false,
        webinarLicense: link?.webinarLicense ?? false,
        note: link ? NOTE_NEEDS_RELINK : NOTE_NOT_LINKED,
      });
    }
    // Probes would each fail on the same unreadable tokens; say why instead.
    const problem = this.d.linkProblem?.(link);
    if (problem)
      return {
        ...assemble({ ok: false, webinarLicense: link.webinarLicense, note: unreadableNote(problem) }),
        unreadable: true,
      };
    // Each probe catches its own failure, so this never throws.
    const probes = await this.#probesFresh(fresh, link.mode === 's2s' ? link.userId : 'me');
    // A probe may have found the tokens dead (invalid_grant); report that, not stale success.
    const after = await this.d.store.getLink();
    if (after?.status !== 'linked')
      return assemble({
        ok: false,
        webinarLicense: link.webinarLicense,
        note: after ? NOTE_NEEDS_RELINK : NOTE_NOT_LINKED,
      });
    const webinarLicense = probes.webinarLicense ?? link.webinarLicense;
    if (probes.trouble)
      return assemble({
        ok: false,
        webinarLicense,
        note: probes.trouble.message,
        probes,
        platform: probes.trouble,
      });
    const webinarScopes = link.scopes.some((s) => s.startsWith('webinar:'));
    return assemble({
      ok: true,
      webinarLicense,
      note: !webinarScopes ? NOTE_WEBINAR_SCOPES : !webinarLicense ? NOTE_NO_WEBINAR_LICENSE : '',
      probes,
    });
  }
}
