/**
 * The registrant routes: list a meeting's registrants by status, and register someone (approved
 * or pending by the meeting's approval type; a known email returns its existing registration).
 */
import { body, p, q, zerr, ZoomError } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { zoomTime } from '../../time.js';
import { findMeeting, MEETING_SCOPES } from './records.js';
import type { MeetingsSlice, RegistrantRec } from './records.js';

const slice = (ctx: EmulatorContext) => ctx.slice<MeetingsSlice>('meetings');

export function registerRegistrantRoutes(ctx: EmulatorContext): void {
  getRegistrants(ctx);
  postRegistrant(ctx);
}

function getRegistrants(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/meetings/:meetingId/registrants',
    scopes: MEETING_SCOPES.registrants,
    label: 'MEDIUM',
    handler: (req) => {
      const m = findMeeting(ctx, p(req, 'meetingId'));
      const status = q(req, 'status') ?? 'approved';
      const all = (slice(ctx).registrants[String(m.id)] ?? []).filter((r) => r.status === status);
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
}

function postRegistrant(ctx: EmulatorContext): void {
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
      if (b['last_name'] !== undefined && (typeof b['last_name'] !== 'string' || b['last_name'].length > 64))
        errors.push({ field: 'last_name', message: 'Invalid field.' });
      if (errors.length) throw zerr.validation(errors);
      if (m.approval_type === 2)
        throw new ZoomError(400, 3000, `Registration has not been enabled for this meeting: ${m.id}.`);
      const list = (slice(ctx).registrants[String(m.id)] ??= []);
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
}
