/**
 * The meeting routes: create, list, upcoming, get, update, delete and status. Creates, updates
 * and deletes count against the user's daily meeting writes and emit the platform's webhooks.
 */
import { body, p, q, zerr } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { zoomTime } from '../../time.js';
import { readFields } from './fields.js';
import type { Fields } from './fields.js';
import { findMeeting, MEETING_SCOPES } from './records.js';
import type { MeetingRec, MeetingsSlice } from './records.js';
import { listItem, meetingObject } from './shapes.js';

const slice = (ctx: EmulatorContext) => ctx.slice<MeetingsSlice>('meetings');
const now = (ctx: EmulatorContext) => ctx.now().getTime();

export function registerMeetingRoutes(ctx: EmulatorContext): void {
  postMeeting(ctx);
  getMeetings(ctx);
  getUpcomingMeetings(ctx);
  getMeeting(ctx);
  patchMeeting(ctx);
  deleteMeeting(ctx);
  putMeetingStatus(ctx);
}

function postMeeting(ctx: EmulatorContext): void {
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
      slice(ctx).meetings.push(m);
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
}

function getMeetings(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/users/:userId/meetings',
    scopes: MEETING_SCOPES.list,
    label: 'MEDIUM',
    handler: (req) => {
      ctx.user(req, p(req, 'userId'));
      const type = q(req, 'type') ?? 'scheduled';
      const t = now(ctx);
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
      const items = slice(ctx)
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
}

function getUpcomingMeetings(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/users/:userId/upcoming_meetings',
    scopes: MEETING_SCOPES.upcoming,
    label: 'MEDIUM',
    handler: (req) => {
      ctx.user(req, p(req, 'userId'));
      const items = slice(ctx)
        .meetings.filter((m) => Date.parse(m.start_time) + m.duration * 60_000 >= now(ctx))
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
}

function getMeeting(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/meetings/:meetingId',
    scopes: MEETING_SCOPES.get,
    label: 'LIGHT',
    handler: (req) => meetingObject(ctx, findMeeting(ctx, p(req, 'meetingId'))),
  });
}

function patchMeeting(ctx: EmulatorContext): void {
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
          time_stamp: now(ctx),
          old_object: { id: m.id, ...old },
        },
      );
      return reply.code(204).send();
    },
  });
}

function deleteMeeting(ctx: EmulatorContext): void {
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
      const s = slice(ctx);
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
}

function putMeetingStatus(ctx: EmulatorContext): void {
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
}
