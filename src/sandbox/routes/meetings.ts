/**
 * Meetings: create/list/get/update/delete, upcoming, status, registrants, past meetings and
 * participants, meeting summaries, and the webinar endpoints that answer "plan is missing"
 * while the demo user has no webinar licence. Mutations emit the platform's webhooks.
 */
import { body, defineModule, p, q, zerr, ZoomError } from '../context.js';
import type { SandboxContext, SandboxRequest, SeedContext } from '../context.js';
import { isTimeZone, parseStartTime, zoomTime } from '../time.js';
import type { UsersSlice } from './users.js';

export interface MeetingRec {
  id: number;
  uuid: string;
  topic: string;
  type: number;
  start_time: string;
  duration: number;
  timezone: string;
  agenda: string;
  created_at: string;
  password: string;
  status: 'waiting' | 'started' | 'ended';
  approval_type: number;
  settings: Record<string, unknown>;
  creation_source: 'open_api' | 'web_portal';
  participants: number;
  has_summary: boolean;
}

export interface RegistrantRec {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  status: 'approved' | 'pending' | 'denied';
  create_time: string;
  custom_questions: { title: string; value: string }[];
}

export interface MeetingsSlice {
  meetings: MeetingRec[];
  registrants: Record<string, RegistrantRec[]>;
}

const TOPICS = [
  'GrowthOS funnel review',
  'Freight lane planning',
  'Capital pipeline stand-up',
  'Mortgage rate-lock huddle',
  'Housing leasing sync',
  'Contracting site walk debrief',
  'FleetWorks maintenance review',
  'Early Learning enrollment open house',
  'Learning: CDL cohort kickoff',
  'MOG weekly operating review',
  'Brand council',
  'Partner onboarding: Lakeshore Logistics',
];

const MEETING_SCOPES = {
  create: ['meeting:write:meeting', 'meeting:write:meeting:admin', 'meeting:write', 'meeting:write:admin'],
  list: [
    'meeting:read:list_meetings',
    'meeting:read:list_meetings:admin',
    'meeting:read',
    'meeting:read:admin',
  ],
  upcoming: [
    'meeting:read:list_upcoming_meetings',
    'meeting:read:list_upcoming_meetings:admin',
    'meeting:read',
    'meeting:read:admin',
  ],
  get: ['meeting:read:meeting', 'meeting:read:meeting:admin', 'meeting:read', 'meeting:read:admin'],
  update: ['meeting:update:meeting', 'meeting:update:meeting:admin', 'meeting:write', 'meeting:write:admin'],
  delete: ['meeting:delete:meeting', 'meeting:delete:meeting:admin', 'meeting:write', 'meeting:write:admin'],
  status: ['meeting:update:status', 'meeting:update:status:admin', 'meeting:write', 'meeting:write:admin'],
  registrants: [
    'meeting:read:list_registrants',
    'meeting:read:list_registrants:admin',
    'meeting:read',
    'meeting:read:admin',
  ],
  register: [
    'meeting:write:registrant',
    'meeting:write:registrant:admin',
    'meeting:write',
    'meeting:write:admin',
  ],
  past: [
    'meeting:read:past_meeting',
    'meeting:read:past_meeting:admin',
    'meeting:read',
    'meeting:read:admin',
  ],
  participants: [
    'meeting:read:list_past_participants',
    'meeting:read:list_past_participants:admin',
    'meeting:read',
    'meeting:read:admin',
  ],
  summaries: ['meeting:read:list_summaries:admin', 'meeting_summary:read:admin', 'meeting:read:admin'],
  summary: [
    'meeting:read:summary',
    'meeting:read:summary:admin',
    'meeting_summary:read',
    'meeting_summary:read:admin',
    'meeting:read',
    'meeting:read:admin',
  ],
  webinars: [
    'webinar:read:list_webinars',
    'webinar:read:list_webinars:admin',
    'webinar:read',
    'webinar:read:admin',
  ],
};

const uuidFor = (s: SeedContext) => {
  const raw = s.rng.id(22, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
  return raw.endsWith('==') ? raw : `${raw.slice(0, 22)}==`.slice(0, 24);
};

function seedMeetings(s: SeedContext): MeetingsSlice {
  const meetings: MeetingRec[] = [];
  const registrants: Record<string, RegistrantRec[]> = {};
  // 18 past and 12 upcoming meetings around the anchor day.
  const days = [
    -27, -24, -21, -19, -16, -14, -12, -10, -9, -7, -6, -5, -4, -3, -2, -2, -1, -1, 1, 1, 2, 3, 4, 6, 7, 9,
    11, 14, 18, 21,
  ];
  days.forEach((d, i) => {
    const id = Number(`8${s.rng.digits(10)}`);
    const past = d < 0;
    const approval = i % 4 === 0 ? 0 : 2;
    const m: MeetingRec = {
      id,
      uuid: uuidFor(s),
      topic: TOPICS[i % TOPICS.length] ?? 'Meeting',
      type: i === 5 ? 8 : 2,
      start_time: s.at(d, s.rng.pick([14, 15, 16, 17, 19, 20]), s.rng.pick([0, 30])),
      duration: s.rng.pick([30, 45, 60, 90]),
      timezone: s.demo.timezone,
      agenda: `Agenda for ${TOPICS[i % TOPICS.length] ?? 'the meeting'}: status, numbers, decisions, next steps.`,
      created_at: s.at(d - 7, 12, 0),
      password: s.rng.id(6, 'abcdefghjkmnpqrstuvwxyz23456789'),
      status: past ? 'ended' : 'waiting',
      approval_type: approval,
      settings: {
        host_video: true,
        participant_video: false,
        join_before_host: false,
        mute_upon_entry: true,
        waiting_room: true,
        auto_recording: past ? 'cloud' : 'none',
        approval_type: approval,
        audio: 'both',
      },
      creation_source: i % 3 === 0 ? 'open_api' : 'web_portal',
      participants: past ? s.rng.int(3, 14) : 0,
      has_summary: past,
    };
    meetings.push(m);
    if (approval === 0) {
      registrants[String(id)] = Array.from({ length: s.rng.int(1, 4) }, (_, n) => ({
        id: s.rng.id(22),
        email: `guest${i}${n}@example.com`,
        first_name: s.rng.pick(['Taylor', 'Morgan', 'Casey', 'Riley', 'Jamie', 'Avery']),
        last_name: s.rng.pick(['Lopez', 'Kim', 'Patel', 'Nguyen', 'Smith', 'Garcia']),
        status: 'approved' as const,
        create_time: s.at(d - 3, 10, n * 5),
        custom_questions: [],
      }));
    }
  });
  return { meetings, registrants };
}

export function meetingObject(ctx: SandboxContext, m: MeetingRec) {
  const base = ctx.baseUrl;
  return {
    uuid: m.uuid,
    id: m.id,
    host_id: ctx.demo.id,
    host_email: ctx.demo.email,
    assistant_id: '',
    topic: m.topic,
    type: m.type,
    status: m.status === 'started' ? 'started' : 'waiting',
    start_time: m.start_time,
    duration: m.duration,
    timezone: m.timezone,
    agenda: m.agenda,
    created_at: m.created_at,
    start_url: `${base}/s/${m.id}?zak=sandbox-start-token`,
    join_url: `${base}/j/${m.id}?pwd=${m.password}`,
    ...(m.approval_type !== 2
      ? { registration_url: `${base}/meeting/register/${m.uuid.replace(/[/+=]/g, '')}` }
      : {}),
    password: m.password,
    h323_password: String(m.id).slice(-6),
    pstn_password: String(m.id).slice(-6),
    encrypted_password: Buffer.from(m.password).toString('base64url'),
    pmi: String(ctx.demo.pmi),
    pre_schedule: false,
    settings: { ...m.settings, approval_type: m.approval_type },
    creation_source: m.creation_source,
  };
}

function listItem(ctx: SandboxContext, m: MeetingRec) {
  return {
    uuid: m.uuid,
    id: m.id,
    host_id: ctx.demo.id,
    topic: m.topic,
    type: m.type,
    start_time: m.start_time,
    duration: m.duration,
    timezone: m.timezone,
    agenda: m.agenda.slice(0, 250),
    created_at: m.created_at,
    join_url: `${ctx.baseUrl}/j/${m.id}?pwd=${m.password}`,
    pmi: String(ctx.demo.pmi),
  };
}

/** Meeting ids in paths are numbers; instance UUIDs (possibly double-encoded) are accepted too. */
export function findMeeting(ctx: SandboxContext, idOrUuid: string): MeetingRec {
  const s = ctx.slice<MeetingsSlice>('meetings');
  let decoded = idOrUuid;
  for (let i = 0; i < 2 && decoded.includes('%'); i++) decoded = decodeURIComponent(decoded);
  const m = /^\d+$/.test(decoded)
    ? s.meetings.find((x) => x.id === Number(decoded))
    : s.meetings.find((x) => x.uuid === decoded);
  if (!m) throw zerr.meetingNotFound(idOrUuid);
  return m;
}

interface Fields {
  topic?: string;
  type?: number;
  start_time?: string;
  duration?: number;
  timezone?: string;
  agenda?: string;
  password?: string;
  settings?: Record<string, unknown>;
}

/** Validates a create/update body the platform's way: 400 code 300 "Validation Failed." with fields. */
function readFields(b: Record<string, unknown>): { f: Fields; start?: Date } {
  const errors: { field: string; message: string }[] = [];
  const f: Fields = {};
  const bad = (field: string) => errors.push({ field, message: 'Invalid field.' });
  const take = <K extends keyof Fields>(key: K, ok: (v: unknown) => boolean) => {
    if (!(key in b)) return;
    if (ok(b[key])) f[key] = b[key] as Fields[K];
    else bad(key);
  };
  const int = (v: unknown, max: number) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max;
  const str = (v: unknown, max: number) => typeof v === 'string' && v.length <= max;
  take('topic', (v) => str(v, 200));
  take('type', (v) => [1, 2, 3, 8, 10].includes(v as number));
  take('duration', (v) => int(v, 1440));
  take('timezone', (v) => typeof v === 'string' && isTimeZone(v));
  take('agenda', (v) => str(v, 2000));
  take('password', (v) => str(v, 10));
  take('settings', (v) => typeof v === 'object' && v !== null && !Array.isArray(v));
  let start: Date | undefined;
  if ('start_time' in b) {
    start = typeof b['start_time'] === 'string' ? parseStartTime(b['start_time'], f.timezone) : undefined;
    if (start) f.start_time = b['start_time'] as string;
    else bad('start_time');
  }
  if (errors.length) throw zerr.validation(errors);
  return { f, ...(start ? { start } : {}) };
}

export const meetingsModule = defineModule<MeetingsSlice>({
  name: 'meetings',
  seed: seedMeetings,
  register(ctx) {
    const slice = () => ctx.slice<MeetingsSlice>('meetings');
    const now = () => ctx.now().getTime();

    ctx.route({
      method: 'POST',
      url: '/users/:userId/meetings',
      scopes: MEETING_SCOPES.create,
      label: 'LIGHT',
      handler: (req, reply) => {
        const host = ctx.user(req, p(req, 'userId'));
        ctx.meetingWrite(host.id);
        const { f, start } = readFields(body(req));
        const settings = f.settings ?? {};
        const approval = typeof settings['approval_type'] === 'number' ? settings['approval_type'] : 2;
        const m: MeetingRec = {
          id: ctx.newId('meeting') as number,
          uuid: ctx.newId('uuid') as string,
          topic: f.topic ?? 'Zoom Meeting',
          type: f.type ?? 2,
          start_time: zoomTime(start ?? ctx.now()),
          duration: f.duration ?? 60,
          timezone: f.timezone ?? ctx.demo.timezone,
          agenda: f.agenda ?? '',
          created_at: zoomTime(ctx.now()),
          password: f.password ?? (ctx.newId('alnum', 6) as string),
          status: 'waiting',
          approval_type: approval,
          settings: {
            host_video: false,
            participant_video: false,
            join_before_host: false,
            mute_upon_entry: false,
            waiting_room: true,
            auto_recording: 'none',
            audio: 'both',
            ...settings,
          },
          creation_source: 'open_api',
          participants: 0,
          has_summary: false,
        };
        slice().meetings.push(m);
        ctx.changed();
        const obj = meetingObject(ctx, m);
        ctx.webhooks.emit(
          'meeting.created',
          { ...obj, id: m.id },
          { operator: ctx.demo.email, operator_id: ctx.demo.id, operation: 'single' },
        );
        return reply.code(201).send(obj);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/users/:userId/meetings',
      scopes: MEETING_SCOPES.list,
      label: 'MEDIUM',
      handler: (req) => {
        ctx.user(req, p(req, 'userId'));
        const type = q(req, 'type') ?? 'scheduled';
        const t = now();
        const ends = (m: MeetingRec) => Date.parse(m.start_time) + m.duration * 60_000;
        const pick: Record<string, (m: MeetingRec) => boolean> = {
          scheduled: (m) => m.type !== 1,
          live: (m) => m.status === 'started',
          upcoming: (m) => ends(m) >= t,
          upcoming_meetings: (m) => ends(m) >= t,
          previous_meetings: (m) => ends(m) < t,
        };
        const filter = pick[type];
        if (!filter) throw zerr.badParam('type');
        const from = q(req, 'from');
        const to = q(req, 'to');
        const items = slice()
          .meetings.filter(filter)
          .filter(
            (m) => (!from || m.start_time.slice(0, 10) >= from) && (!to || m.start_time.slice(0, 10) <= to),
          )
          .sort((a, b) => a.start_time.localeCompare(b.start_time));
        const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
        return {
          next_page_token: page.nextPageToken,
          page_count: Math.max(1, Math.ceil(page.totalRecords / page.pageSize)),
          page_number: 1,
          page_size: page.pageSize,
          total_records: page.totalRecords,
          meetings: page.items.map((m) => listItem(ctx, m)),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/users/:userId/upcoming_meetings',
      scopes: MEETING_SCOPES.upcoming,
      label: 'MEDIUM',
      handler: (req) => {
        ctx.user(req, p(req, 'userId'));
        const items = slice()
          .meetings.filter((m) => Date.parse(m.start_time) + m.duration * 60_000 >= now())
          .sort((a, b) => a.start_time.localeCompare(b.start_time));
        return {
          total_records: items.length,
          meetings: items.map((m) => ({
            id: m.id,
            topic: m.topic,
            type: m.type,
            start_time: m.start_time,
            duration: m.duration,
            timezone: m.timezone,
            created_at: m.created_at,
            join_url: `${ctx.baseUrl}/j/${m.id}?pwd=${m.password}`,
            passcode: m.password,
            use_pmi: false,
            is_host: true,
            is_all_day: false,
          })),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/meetings/:meetingId',
      scopes: MEETING_SCOPES.get,
      label: 'LIGHT',
      handler: (req) => meetingObject(ctx, findMeeting(ctx, p(req, 'meetingId'))),
    });

    ctx.route({
      method: 'PATCH',
      url: '/meetings/:meetingId',
      scopes: MEETING_SCOPES.update,
      label: 'LIGHT',
      handler: (req, reply) => {
        const m = findMeeting(ctx, p(req, 'meetingId'));
        ctx.meetingWrite(ctx.demo.id); // every meeting here is the demo user's
        const { f, start } = readFields(body(req));
        const old: Record<string, unknown> = {};
        for (const k of Object.keys(f) as (keyof Fields)[]) old[k] = m[k as keyof MeetingRec];
        if (f.topic !== undefined) m.topic = f.topic;
        if (f.type !== undefined) m.type = f.type;
        if (f.duration !== undefined) m.duration = f.duration;
        if (f.timezone !== undefined) m.timezone = f.timezone;
        if (f.agenda !== undefined) m.agenda = f.agenda;
        if (f.password !== undefined) m.password = f.password;
        if (start) m.start_time = zoomTime(start);
        if (f.settings) {
          m.settings = { ...m.settings, ...f.settings };
          if (typeof f.settings['approval_type'] === 'number') m.approval_type = f.settings['approval_type'];
        }
        ctx.changed();
        ctx.webhooks.emit(
          'meeting.updated',
          { id: m.id, ...f, ...(start ? { start_time: m.start_time } : {}) },
          {
            operator: ctx.demo.email,
            operator_id: ctx.demo.id,
            time_stamp: now(),
            old_object: { id: m.id, ...old },
          },
        );
        return reply.code(204).send();
      },
    });

    ctx.route({
      method: 'DELETE',
      url: '/meetings/:meetingId',
      scopes: MEETING_SCOPES.delete,
      label: 'LIGHT',
      handler: (req, reply) => {
        const m = findMeeting(ctx, p(req, 'meetingId'));
        ctx.meetingWrite(ctx.demo.id); // every meeting here is the demo user's
        if (q(req, 'occurrence_id') !== undefined && m.type !== 8 && m.type !== 3)
          throw zerr.badParam('occurrence_id');
        const s = slice();
        s.meetings = s.meetings.filter((x) => x !== m);
        delete s.registrants[String(m.id)];
        ctx.changed();
        ctx.webhooks.emit(
          'meeting.deleted',
          {
            uuid: m.uuid,
            id: m.id,
            host_id: ctx.demo.id,
            topic: m.topic,
            type: m.type,
            start_time: m.start_time,
            duration: m.duration,
            timezone: m.timezone,
          },
          { operator: ctx.demo.email, operator_id: ctx.demo.id, operation: 'single' },
        );
        return reply.code(204).send();
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/meetings/:meetingId/status',
      scopes: MEETING_SCOPES.status,
      label: 'LIGHT',
      handler: (req, reply) => {
        const m = findMeeting(ctx, p(req, 'meetingId'));
        const action = body(req)['action'];
        if (action !== 'end' && action !== 'recover')
          throw zerr.validation([{ field: 'action', message: 'Invalid field.' }]);
        if (action === 'end' && m.status === 'started') {
          m.status = 'ended';
          ctx.changed();
          ctx.webhooks.emit('meeting.ended', {
            id: String(m.id),
            uuid: m.uuid,
            host_id: ctx.demo.id,
            topic: m.topic,
            type: m.type,
            start_time: m.start_time,
            end_time: zoomTime(ctx.now()),
            timezone: m.timezone,
            duration: m.duration,
          });
        }
        return reply.code(204).send();
      },
    });

    ctx.route({
      method: 'GET',
      url: '/meetings/:meetingId/registrants',
      scopes: MEETING_SCOPES.registrants,
      label: 'MEDIUM',
      handler: (req) => {
        const m = findMeeting(ctx, p(req, 'meetingId'));
        const status = q(req, 'status') ?? 'approved';
        const all = (slice().registrants[String(m.id)] ?? []).filter((r) => r.status === status);
        const page = ctx.paginate(req, all, { defaultSize: 30, maxSize: 300 });
        return {
          page_count: Math.max(1, Math.ceil(page.totalRecords / page.pageSize)),
          page_number: 1,
          page_size: page.pageSize,
          total_records: page.totalRecords,
          next_page_token: page.nextPageToken,
          registrants: page.items.map((r) => ({ ...r, join_url: `${ctx.baseUrl}/w/${m.id}?tk=${r.id}` })),
        };
      },
    });

    ctx.route({
      method: 'POST',
      url: '/meetings/:meetingId/registrants',
      scopes: MEETING_SCOPES.register,
      label: 'LIGHT',
      handler: (req, reply) => {
        const m = findMeeting(ctx, p(req, 'meetingId'));
        const b = body(req);
        const errors: { field: string; message: string }[] = [];
        const email = b['email'];
        if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
          errors.push({ field: 'email', message: 'Invalid field.' });
        if (typeof b['first_name'] !== 'string' || b['first_name'] === '' || b['first_name'].length > 64)
          errors.push({ field: 'first_name', message: 'Invalid field.' });
        if (
          b['last_name'] !== undefined &&
          (typeof b['last_name'] !== 'string' || b['last_name'].length > 64)
        )
          errors.push({ field: 'last_name', message: 'Invalid field.' });
        if (errors.length) throw zerr.validation(errors);
        if (m.approval_type === 2)
          throw new ZoomError(400, 3000, `Registration has not been enabled for this meeting: ${m.id}.`);
        const list = (slice().registrants[String(m.id)] ??= []);
        const existing = list.find((r) => r.email.toLowerCase() === (email as string).toLowerCase());
        const r: RegistrantRec = existing ?? {
          id: ctx.newId('alnum', 22) as string,
          email: email as string,
          first_name: b['first_name'] as string,
          last_name: typeof b['last_name'] === 'string' ? b['last_name'] : '',
          status: m.approval_type === 1 ? 'pending' : 'approved',
          create_time: zoomTime(ctx.now()),
          custom_questions: [],
        };
        if (!existing) {
          list.push(r);
          ctx.changed();
          ctx.webhooks.emit('meeting.registration_created', {
            id: m.id,
            uuid: m.uuid,
            host_id: ctx.demo.id,
            topic: m.topic,
            type: m.type,
            start_time: m.start_time,
            duration: m.duration,
            timezone: m.timezone,
            registrant: { ...r, join_url: `${ctx.baseUrl}/w/${m.id}?tk=${r.id}` },
          });
        }
        return reply.code(201).send({
          id: m.id,
          join_url: `${ctx.baseUrl}/w/${m.id}?tk=${r.id}`,
          registrant_id: r.id,
          start_time: m.start_time,
          topic: m.topic,
          occurrences: [],
          participant_pin_code: Number(String(m.id).slice(-6)),
        });
      },
    });

    const ended = (m: MeetingRec) => Date.parse(m.start_time) + m.duration * 60_000 < now();
    const pastOf = (req: SandboxRequest) => {
      const m = findMeeting(ctx, p(req, 'meetingId'));
      if (!ended(m) && m.status !== 'ended') throw zerr.meetingNotFound(p(req, 'meetingId'));
      return m;
    };
    const endTime = (m: MeetingRec) => zoomTime(new Date(Date.parse(m.start_time) + m.duration * 60_000));

    ctx.route({
      method: 'GET',
      url: '/past_meetings/:meetingId',
      scopes: MEETING_SCOPES.past,
      label: 'LIGHT',
      handler: (req) => {
        const m = pastOf(req);
        return {
          id: m.id,
          uuid: m.uuid,
          duration: m.duration,
          start_time: m.start_time,
          end_time: endTime(m),
          host_id: ctx.demo.id,
          dept: 'Operations',
          participants_count: m.participants,
          source: 'Zoom',
          topic: m.topic,
          total_minutes: m.duration * Math.max(1, m.participants),
          type: m.type,
          user_email: ctx.demo.email,
          user_name: `${ctx.demo.firstName} ${ctx.demo.lastName}`,
          has_meeting_summary: m.has_summary,
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/past_meetings/:meetingId/participants',
      scopes: MEETING_SCOPES.participants,
      label: 'MEDIUM',
      handler: (req) => {
        const m = pastOf(req);
        const names = [
          'Avery Quinn',
          'Jordan Reyes',
          'Priya Natarajan',
          'Marcus Bell',
          'Elena Sokolova',
          'Sam Okafor',
          'Taylor Lopez',
          'Morgan Kim',
          'Casey Patel',
          'Riley Nguyen',
          'Jamie Smith',
          'Dana Garcia',
          'Alex Chen',
          'Robin Diaz',
        ];
        const all = names.slice(0, m.participants).map((name, i) => ({
          id: `p${m.id}${i}`,
          name,
          user_id: String(16778240 + i),
          registrant_id: '',
          user_email: `${name.toLowerCase().replace(' ', '.')}@meridianfleet.example`,
          join_time: m.start_time,
          leave_time: endTime(m),
          duration: m.duration * 60,
          failover: false,
          status: 'in_meeting',
          internal_user: i < 6,
        }));
        const page = ctx.paginate(req, all, { defaultSize: 30, maxSize: 300 });
        return {
          page_count: Math.max(1, Math.ceil(page.totalRecords / page.pageSize)),
          page_size: page.pageSize,
          total_records: page.totalRecords,
          next_page_token: page.nextPageToken,
          participants: page.items,
        };
      },
    });

    const summaryOf = (m: MeetingRec) => {
      const end = endTime(m);
      return {
        meeting_host_id: ctx.demo.id,
        meeting_host_email: ctx.demo.email,
        meeting_uuid: m.uuid,
        meeting_id: m.id,
        meeting_topic: m.topic,
        meeting_start_time: m.start_time,
        meeting_end_time: end,
        summary_start_time: m.start_time,
        summary_end_time: end,
        summary_created_time: end,
        summary_last_modified_time: end,
      };
    };

    ctx.route({
      method: 'GET',
      url: '/meetings/meeting_summaries',
      scopes: MEETING_SCOPES.summaries,
      label: 'MEDIUM',
      handler: (req) => {
        const from = q(req, 'from');
        const to = q(req, 'to');
        const items = slice()
          .meetings.filter(
            (m) => m.has_summary && (!from || m.start_time >= from) && (!to || m.start_time <= to),
          )
          .sort((a, b) => b.start_time.localeCompare(a.start_time))
          .map(summaryOf);
        const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
        return {
          page_size: page.pageSize,
          next_page_token: page.nextPageToken,
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
          summaries: page.items,
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/meetings/:meetingId/meeting_summary',
      scopes: MEETING_SCOPES.summary,
      label: 'LIGHT',
      handler: (req) => {
        const m = findMeeting(ctx, p(req, 'meetingId'));
        if (!m.has_summary) throw zerr.meetingNotFound(p(req, 'meetingId'));
        const overview = `${m.topic}: the team reviewed this week's numbers, agreed on two decisions and assigned owners for the follow-ups.`;
        const details = [
          {
            label: 'Numbers',
            summary: 'Pipeline and delivery figures were on plan; one lane is behind by two loads.',
          },
          {
            label: 'Decisions',
            summary: 'Move the launch review to Thursday; keep the current pricing for the pilot customers.',
          },
        ];
        const next = [
          'Avery to send the revised plan by Friday',
          'Jordan to confirm the pilot list with finance',
        ];
        return {
          ...summaryOf(m),
          summary_last_modified_user_id: ctx.demo.id,
          summary_last_modified_user_email: ctx.demo.email,
          summary_title: `Meeting summary for ${m.topic}`,
          summary_overview: overview,
          summary_details: details,
          next_steps: next,
          summary_content: `## ${m.topic}\n\n${overview}\n\n${details.map((d) => `### ${d.label}\n${d.summary}`).join('\n\n')}\n\n### Next steps\n${next.map((n) => `- ${n}`).join('\n')}\n`,
          summary_doc_url: `${ctx.baseUrl}/docs/summary/${m.id}`,
        };
      },
    });

    // Webinars need a licence the demo account lacks (feature.webinar false in settings).
    const webinarGate = () => {
      if (!ctx.slice<UsersSlice>('users').settingsFeature.webinar) throw zerr.webinarPlanMissing();
    };
    ctx.route({
      method: 'GET',
      url: '/users/:userId/webinars',
      scopes: MEETING_SCOPES.webinars,
      label: 'MEDIUM',
      handler: (req) => {
        ctx.user(req, p(req, 'userId'));
        webinarGate();
        return {
          next_page_token: '',
          page_count: 0,
          page_number: 1,
          page_size: 30,
          total_records: 0,
          webinars: [],
        };
      },
    });
    ctx.route({
      method: 'POST',
      url: '/users/:userId/webinars',
      scopes: [
        'webinar:write:webinar',
        'webinar:write:webinar:admin',
        'webinar:write',
        'webinar:write:admin',
      ],
      label: 'LIGHT',
      handler: (req) => {
        ctx.user(req, p(req, 'userId'));
        webinarGate();
        throw new ZoomError(400, 300, 'Validation Failed.');
      },
    });
  },
});
