/**
 * The past-meeting routes: a meeting that has ended (by its schedule or its status) and its
 * participants; a meeting that has not ended is not found, as on the platform.
 */
import { p, zerr } from '../../context.js';
import type { EmulatorContext, EmulatorRequest } from '../../context.js';
import { findMeeting, MEETING_SCOPES } from './records.js';
import type { MeetingRec } from './records.js';
import { endTime } from './shapes.js';

const now = (ctx: EmulatorContext) => ctx.now().getTime();

const ended = (ctx: EmulatorContext, m: MeetingRec) =>
  Date.parse(m.start_time) + m.duration * 60_000 < now(ctx);
const pastOf = (ctx: EmulatorContext, req: EmulatorRequest) => {
  const m = findMeeting(ctx, p(req, 'meetingId'));
  if (!ended(ctx, m) && m.status !== 'ended') throw zerr.meetingNotFound(p(req, 'meetingId'));
  return m;
};

export function registerPastMeetingRoutes(ctx: EmulatorContext): void {
  getPastMeeting(ctx);
  getPastMeetingParticipants(ctx);
}

function getPastMeeting(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/past_meetings/:meetingId',
    scopes: MEETING_SCOPES.past,
    label: 'LIGHT',
    handler: (req) => {
      const m = pastOf(ctx, req);
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
}

function getPastMeetingParticipants(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/past_meetings/:meetingId/participants',
    scopes: MEETING_SCOPES.participants,
    label: 'MEDIUM',
    handler: (req) => {
      const m = pastOf(ctx, req);
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
}
