/**
 * The store's tables as Kysely sees them, and the mappers between rows and the domain types of
 * store.ts. Booleans are 0/1 in SQLite and `boolean` in PostgreSQL: rows are read with
 * Boolean(), and written through the dialect's `bool`.
 */
import type { Generated } from 'kysely';
import { eventTerms } from './search-terms.js';
import type { LinkRecord, Page, Registration, StoredEvent } from './store.js';

export type Bool = number | boolean;

export interface LinkRow {
  id: string;
  mode: string;
  status: string;
  account_id: string;
  user_id: string;
  email: string;
  name: string;
  type: number;
  pmi: number;
  scopes: string;
  webinar_license: Bool;
  access_token: string;
  refresh_token: string | null;
  access_expires_at: number;
  linked_at: string;
  updated_at: string;
  token_version: number;
  refresh_failures: number;
  next_refresh_at: number | null;
  health: string;
}
export interface StateRow {
  state_hash: string;
  verifier: string;
  browser_hash: string;
  expires_at: number;
}
export interface EventRow {
  video_id: string;
  topic: string;
  kind: string;
  start_time: string;
  timezone: string | null;
  duration: number;
  agenda: string | null;
  funnel: string | null;
  status: string;
  registration: Bool;
  join_url: string | null;
  created_at: string;
  updated_at: string;
  /** The words search matches (search-terms.ts), kept with the row. */
  search_terms: string;
}
export interface RegistrationRow {
  id: string;
  video_id: string;
  email: string;
  first_name: string;
  last_name: string;
  registrant_id: string;
  join_url: string | null;
  created_at: string;
}
export interface WebhookRow {
  id: string;
  event: string;
  received_at: string;
  seq: Generated<number>;
}
export interface IdempotencyRow {
  key: string;
  request_hash: string;
  status: number;
  body: string;
  created_at: string;
}
export interface CounterRow {
  name: string;
  value: number;
}
export interface Tables {
  idempotency_keys: IdempotencyRow;
  link: LinkRow;
  oauth_states: StateRow;
  stored_events: EventRow;
  registrations: RegistrationRow;
  webhook_receipts: WebhookRow;
  counters: CounterRow;
}

export const LINK_ID = 'default';

/** A keyset page from the `limit + 1` rows a list read: the extra row only says there is more. */
export function page<R, T>(rows: R[], limit: number, map: (r: R) => T): Page<T> {
  return { items: rows.slice(0, limit).map(map), more: rows.length > limit };
}
/** The counters row holding the number of registrations. */
export const REGISTRATIONS = 'registrations';

export function linkFromRow(r: LinkRow): LinkRecord {
  return {
    mode: r.mode === 's2s' ? 's2s' : 'user',
    status: r.status === 'needs_relink' ? 'needs_relink' : 'linked',
    accountId: r.account_id,
    userId: r.user_id,
    email: r.email,
    name: r.name,
    type: r.type,
    pmi: r.pmi,
    scopes: r.scopes ? r.scopes.split(' ') : [],
    webinarLicense: Boolean(r.webinar_license),
    accessToken: r.access_token,
    refreshToken: r.refresh_token,
    accessExpiresAt: r.access_expires_at,
    linkedAt: r.linked_at,
    updatedAt: r.updated_at,
    tokenVersion: r.token_version,
    // The health fields only when they say something (a healthy link reads as it was saved).
    ...(r.refresh_failures > 0 ? { refreshFailures: r.refresh_failures } : {}),
    ...(r.next_refresh_at !== null ? { nextRefreshAt: r.next_refresh_at } : {}),
    ...(r.health === 'unreadable' ? { health: 'unreadable' as const } : {}),
  };
}

export function linkToRow(l: LinkRecord, bool: (b: boolean) => Bool): LinkRow {
  return {
    id: LINK_ID,
    mode: l.mode,
    status: l.status,
    account_id: l.accountId,
    user_id: l.userId,
    email: l.email,
    name: l.name,
    type: l.type,
    pmi: l.pmi,
    scopes: l.scopes.join(' '),
    webinar_license: bool(l.webinarLicense),
    access_token: l.accessToken,
    refresh_token: l.refreshToken,
    access_expires_at: l.accessExpiresAt,
    linked_at: l.linkedAt,
    updated_at: l.updatedAt,
    token_version: l.tokenVersion,
    refresh_failures: l.refreshFailures ?? 0,
    next_refresh_at: l.nextRefreshAt ?? null,
    health: l.health ?? 'ok',
  };
}

export const eventFromRow = (r: Omit<EventRow, 'search_terms'>): StoredEvent => ({
  videoId: r.video_id,
  topic: r.topic,
  kind: 'meeting',
  startTime: r.start_time,
  timezone: r.timezone,
  duration: r.duration,
  agenda: r.agenda,
  funnel: r.funnel,
  status: r.status as StoredEvent['status'],
  registration: Boolean(r.registration),
  joinUrl: r.join_url,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const eventToRow = (e: StoredEvent, bool: (b: boolean) => Bool): EventRow => ({
  video_id: e.videoId,
  topic: e.topic,
  kind: e.kind,
  start_time: e.startTime,
  timezone: e.timezone,
  duration: e.duration,
  agenda: e.agenda,
  funnel: e.funnel,
  status: e.status,
  registration: bool(e.registration),
  join_url: e.joinUrl,
  created_at: e.createdAt,
  updated_at: e.updatedAt,
  search_terms: eventTerms(e),
});

/** Every stored-event column but the search terms (what reads return). */
export const EVENT_COLUMNS = [
  'video_id',
  'topic',
  'kind',
  'start_time',
  'timezone',
  'duration',
  'agenda',
  'funnel',
  'status',
  'registration',
  'join_url',
  'created_at',
  'updated_at',
] as const;

export const regFromRow = (r: RegistrationRow): Registration => ({
  id: r.id,
  videoId: r.video_id,
  email: r.email,
  firstName: r.first_name,
  lastName: r.last_name,
  registrantId: r.registrant_id,
  joinUrl: r.join_url,
  createdAt: r.created_at,
});

export const regToRow = (r: Registration): RegistrationRow => ({
  id: r.id,
  video_id: r.videoId,
  email: r.email,
  first_name: r.firstName,
  last_name: r.lastName,
  registrant_id: r.registrantId,
  join_url: r.joinUrl,
  created_at: r.createdAt,
});
