/**
 * The meeting-summary routes: the account's summaries in a date window, and one meeting's summary
 * (overview, details and next steps) for meetings that have one.
 */
import { p, q, zerr } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { findMeeting, MEETING_SCOPES } from './records.js';
import type { MeetingRec, MeetingsSlice } from './records.js';
import { endTime } from './shapes.js';

const slice = (ctx: EmulatorContext) => ctx.slice<MeetingsSlice>('meetings');

const summaryOf = (ctx: EmulatorContext, m: MeetingRec) => {
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

export function registerSummaryRoutes(ctx: EmulatorContext): void {
  getMeetingSummaries(ctx);
  getMeetingSummary(ctx);
}

function getMeetingSummaries(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/meetings/meeting_summaries',
    scopes: MEETING_SCOPES.summaries,
    label: 'MEDIUM',
    handler: (req) => {
      const from = q(req, 'from');
      const to = q(req, 'to');
      const items = slice(ctx)
        .meetings.filter(
          (m) => m.has_summary && (!from || m.start_time >= from) && (!to || m.start_time <= to),
        )
        .sort((a, b) => b.start_time.localeCompare(a.start_time))
        .map((m) => summaryOf(ctx, m));
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
}

function getMeetingSummary(ctx: EmulatorContext): void {
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
        ...summaryOf(ctx, m),
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
}
