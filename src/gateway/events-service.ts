/**
 * Stored events: meetings the gateway created, kept in the store with their funnel and status,
 * and kept in step with the platform. Platform first, store second; if the store write fails
 * after the platform acted, the platform side is undone, so nothing is ever half-created.
 */
import * as z from 'zod';
import { AppError } from '../core/errors.js';
import type { Registration, StoredEvent } from '../store/store.js';
import type { OpContext } from './capabilities/operation.js';
import { seg } from './capabilities/operation.js';
import {
  inFormOf,
  instantOf,
  isUtcStart,
  LOCAL_START,
  normalStart,
  platformUtc,
  UTC_START,
} from './event-time.js';
import { eventChangeType, outboxMessage } from '../store/outbox-messages.js';

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const startTime = z
  .string()
  .refine(
    (v) =>
      (UTC_START.test(v) || LOCAL_START.test(v)) && !Number.isNaN(Date.parse(isUtcStart(v) ? v : `${v}Z`)),
    {
      message:
        'must be UTC like 2030-12-01T15:00:00.000Z, or a local time like 2030-12-01T09:00:00 with timezone',
    },
  )
  .describe(
    'UTC with Z (milliseconds added when left out), or a local time without zone plus timezone; kept in that form; not in the past',
  );

export const timezone = z
  .string()
  .max(64)
  .refine(isTimeZone, 'must be an IANA time zone like America/Chicago');

/** Input of a new stored event; `funnel` is checked against the brand's live funnel keys. */
export const newEventInput = z
  .object({
    topic: z.string().trim().min(1).max(200),
    start_time: startTime,
    timezone: timezone.optional(),
    duration: z.coerce.number().int().min(1).max(1440).default(60).describe('minutes'),
    agenda: z.string().max(2000).optional(),
    funnel: z.string().max(40).nullable().default(null).describe('a live funnel theme key, or null'),
    registration: z.boolean().default(false).describe('let people register (needed for registrations)'),
  })
  .refine((v) => isUtcStart(v.start_time) || v.timezone !== undefined, {
    message: 'a local start_time needs timezone',
    path: ['timezone'],
  });

export type NewEvent = z.output<typeof newEventInput>;

export const eventPatchInput = z
  .object({
    topic: z.string().trim().min(1).max(200).optional(),
    start_time: startTime.optional(),
    timezone: timezone.optional(),
    duration: z.coerce.number().int().min(1).max(1440).optional(),
    agenda: z.string().max(2000).optional(),
    funnel: z.string().max(40).nullable().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'give at least one field to change');

export type EventPatch = z.output<typeof eventPatchInput>;

/** A stored event on the wire; the schema is the type, and the MCP tools' output schema. */
export const wireEvent = z.object({
  video_id: z.string(),
  topic: z.string(),
  kind: z.literal('meeting'),
  start_time: z
    .string()
    .describe('in the form given: UTC with Z and milliseconds, or a local time without zone in timezone'),
  funnel: z.string().nullable().describe('the funnel theme key, or null'),
  status: z.enum(['scheduled', 'started', 'ended', 'cancelled']),
  timezone: z.string().nullable(),
  duration: z.number().describe('minutes'),
  agenda: z.string().nullable(),
  registration: z.boolean(),
  join_url: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export type WireEvent = z.output<typeof wireEvent>;

export const eventToWire = (e: StoredEvent): WireEvent => ({
  video_id: e.videoId,
  topic: e.topic,
  kind: e.kind,
  start_time: e.startTime,
  funnel: e.funnel,
  status: e.status,
  timezone: e.timezone,
  duration: e.duration,
  agenda: e.agenda,
  registration: e.registration,
  join_url: e.joinUrl,
  created_at: e.createdAt,
  updated_at: e.updatedAt,
});

export const registrationToWire = (r: Registration) => ({
  id: r.id,
  video_id: r.videoId,
  email: r.email,
  first_name: r.firstName,
  last_name: r.lastName,
  registrant_id: r.registrantId,
  join_url: r.joinUrl,
  created_at: r.createdAt,
});

/** Outbox messages for a stored-event change: the type its new state calls for, if any. */
export const announceChange =
  (atMs: number) =>
  ({ prev, next }: { prev: StoredEvent; next: StoredEvent }) => {
    const type = eventChangeType(prev, next);
    return type ? [outboxMessage(type, { ...eventToWire(next) }, atMs)] : [];
  };

function checkFunnel(ctx: OpContext, funnel: string | null | undefined): void {
  if (funnel === null || funnel === undefined) return;
  const allowed = ctx.funnels();
  if (!allowed.includes(funnel)) {
    throw new AppError(
      400,
      'validation_failed',
      `funnel "${funnel.slice(0, 40)}" is not a live funnel theme.`,
      {
        issues: [{ path: 'funnel', message: `must be one of ${allowed.join(', ')} or null` }],
        allowed,
      },
    );
  }
}

/** What the platform gets for a start time: UTC without milliseconds, or the local form as given. */
const platformStart = (v: string) => (isUtcStart(v) ? platformUtc(v) : v);

/**
 * Refuses a start before the current minute of the gateway's clock: a scheduled event in the
 * past is a mistake. The current minute still counts as now, for forms that pick minutes.
 */
function refusePast(ctx: OpContext, at: number, given: string): void {
  const now = ctx.now();
  if (at >= now - (now % 60_000)) return;
  throw new AppError(
    400,
    'start_time_in_past',
    `start_time ${given.slice(0, 40)} is in the past; give a time from now on.`,
    {
      field: 'start_time',
      issues: [{ path: 'start_time', message: 'must not be in the past' }],
      start: new Date(at).toISOString(),
      now: new Date(now).toISOString(),
    },
  );
}

export async function createEvent(ctx: OpContext, given: NewEvent): Promise<WireEvent> {
  const input = { ...given, start_time: normalStart(given.start_time) };
  checkFunnel(ctx, input.funnel);
  refusePast(ctx, instantOf(input.start_time, input.timezone), input.start_time);
  const created = await ctx.platform.call<{ id: number; join_url?: string }>({
    method: 'POST',
    path: `/users/${seg(ctx.uid)}/meetings`,
    body: {
      topic: input.topic,
      type: 2,
      start_time: platformStart(input.start_time),
      duration: input.duration,
      ...(input.timezone ? { timezone: input.timezone } : {}),
      ...(input.agenda ? { agenda: input.agenda } : {}),
      settings: { approval_type: input.registration ? 0 : 2, registration_type: 1 },
    },
    label: 'LIGHT',
    group: 'meetings',
  });
  const nowIso = new Date(ctx.now()).toISOString();
  const event: StoredEvent = {
    videoId: String(created.data.id),
    topic: input.topic,
    kind: 'meeting',
    startTime: input.start_time,
    timezone: input.timezone ?? null,
    duration: input.duration,
    agenda: input.agenda ?? null,
    funnel: input.funnel,
    status: 'scheduled',
    registration: input.registration,
    joinUrl: created.data.join_url ?? null,
    createdAt: nowIso,
    updatedAt: nowIso,
  };
  try {
    await ctx.store.insertEvent(event, [
      outboxMessage('event.created', { ...eventToWire(event) }, ctx.now()),
    ]);
  } catch (err) {
    // Never leave a meeting the store does not know about.
    await ctx.platform
      .call({ method: 'DELETE', path: `/meetings/${seg(event.videoId)}`, label: 'LIGHT', group: 'meetings' })
      .catch(() => undefined);
    throw err;
  }
  return eventToWire(event);
}

/**
 * The start and zone a meeting.updated delivery reports, in the form the event is stored in:
 * the platform speaks UTC, the store keeps the caller's form. Empty when the delivery leaves the
 * moment and the zone as stored (as the echo of our own change does).
 */
export function platformTimes(
  stored: StoredEvent,
  start: unknown,
  tz: unknown,
): Partial<Pick<StoredEvent, 'startTime' | 'timezone'>> {
  const zone = typeof tz === 'string' && isTimeZone(tz) ? tz : stored.timezone;
  const was = instantOf(stored.startTime, stored.timezone);
  const sent = typeof start === 'string' ? instantOf(start, zone) : Number.NaN;
  // No start (or one we cannot read): the platform kept the moment, only the zone may be new.
  const at = Number.isNaN(sent) ? was : sent;
  if (at === was && zone === stored.timezone) return {};
  if (Number.isNaN(at)) return { timezone: zone };
  return { startTime: inFormOf(stored.startTime, at, zone), timezone: zone };
}

export async function getStoredEvent(ctx: OpContext, videoId: string): Promise<StoredEvent> {
  const e = await ctx.store.getEvent(videoId);
  if (!e) throw new AppError(404, 'event_not_found', `No stored event ${videoId.slice(0, 40)}.`);
  return e;
}

export async function updateEvent(ctx: OpContext, videoId: string, patch: EventPatch): Promise<WireEvent> {
  const current = await getStoredEvent(ctx, videoId);
  checkFunnel(ctx, patch.funnel);
  const nextStart = normalStart(patch.start_time ?? current.startTime);
  const nextZone = patch.timezone ?? current.timezone;
  if (!isUtcStart(nextStart) && !nextZone) {
    throw new AppError(400, 'validation_failed', 'A local start_time needs timezone.', {
      issues: [{ path: 'timezone', message: 'required for a local start_time' }],
    });
  }
  // A new zone moves a local start (its wall-clock time stays) but not a UTC one.
  const timing = patch.start_time !== undefined || patch.timezone !== undefined;
  const at = instantOf(nextStart, nextZone);
  if (timing && at !== instantOf(current.startTime, current.timezone)) refusePast(ctx, at, nextStart);
  const platformBody: Record<string, unknown> = {};
  if (patch.topic !== undefined) platformBody['topic'] = patch.topic;
  if (timing) {
    // Start and zone go together: a local start without its zone is read as UTC upstream.
    platformBody['start_time'] = platformStart(nextStart);
    if (nextZone) platformBody['timezone'] = nextZone;
  }
  if (patch.duration !== undefined) platformBody['duration'] = patch.duration;
  if (patch.agenda !== undefined) platformBody['agenda'] = patch.agenda;
  if (Object.keys(platformBody).length > 0) {
    await ctx.platform.call({
      method: 'PATCH',
      path: `/meetings/${seg(videoId)}`,
      body: platformBody,
      label: 'LIGHT',
      group: 'meetings',
    });
  }
  const next = await ctx.store.updateEvent(
    videoId,
    {
      ...(patch.topic !== undefined ? { topic: patch.topic } : {}),
      ...(timing ? { startTime: nextStart, timezone: nextZone } : {}),
      ...(patch.duration !== undefined ? { duration: patch.duration } : {}),
      ...(patch.agenda !== undefined ? { agenda: patch.agenda } : {}),
      ...(patch.funnel !== undefined ? { funnel: patch.funnel } : {}),
      updatedAt: new Date(ctx.now()).toISOString(),
    },
    announceChange(ctx.now()),
  );
  if (!next) throw new AppError(404, 'event_not_found', `No stored event ${videoId.slice(0, 40)}.`);
  return eventToWire(next);
}

export async function deleteEvent(
  ctx: OpContext,
  videoId: string,
): Promise<{ deleted: true; video_id: string; platform: 'deleted' | 'already_gone' }> {
  await getStoredEvent(ctx, videoId);
  let platform: 'deleted' | 'already_gone' = 'deleted';
  try {
    await ctx.platform.call({
      method: 'DELETE',
      path: `/meetings/${seg(videoId)}`,
      label: 'LIGHT',
      group: 'meetings',
    });
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'not_found')) throw err;
    platform = 'already_gone';
  }
  // Gone from the store, the event is cancelled as far as subscribers are concerned.
  await ctx.store.deleteEvent(videoId, (gone) => [
    outboxMessage('event.cancelled', { ...eventToWire({ ...gone, status: 'cancelled' }) }, ctx.now()),
  ]);
  return { deleted: true, video_id: videoId, platform };
}

export const registrationInput = z.object({
  email: z.string().trim().max(254).email(),
  first_name: z.string().trim().min(1).max(64),
  last_name: z.string().trim().max(64).default(''),
});

export async function register(ctx: OpContext, videoId: string, input: z.output<typeof registrationInput>) {
  const event = await getStoredEvent(ctx, videoId);
  if (!event.registration) {
    throw new AppError(
      409,
      'registration_closed',
      'This event was created without registration; create it with "registration": true.',
    );
  }
  const r = await ctx.platform.call<{ registrant_id: string; join_url?: string }>({
    method: 'POST',
    path: `/meetings/${seg(videoId)}/registrants`,
    body: {
      email: input.email,
      first_name: input.first_name,
      ...(input.last_name ? { last_name: input.last_name } : {}),
    },
    label: 'LIGHT',
    group: 'meetings',
  });
  const saved = await ctx.store.addRegistration(
    {
      id: `${videoId}:${input.email.toLowerCase()}`,
      videoId,
      email: input.email.toLowerCase(),
      firstName: input.first_name,
      lastName: input.last_name,
      registrantId: r.data.registrant_id,
      joinUrl: r.data.join_url ?? null,
      createdAt: new Date(ctx.now()).toISOString(),
    },
    (created) => [outboxMessage('registration.created', registrationToWire(created), ctx.now())],
  );
  return registrationToWire(saved);
}
