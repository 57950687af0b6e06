/**
 * Revenue accelerator conversation routes: the list (time window, type, callout, host, participant
 * and scored filters), one conversation, and its content analysis.
 */
import { p, q, ZoomError } from '../../context.js';
import { ZRA_SCOPES } from './records.js';
import type { EmulatorContext } from '../../context.js';
import { analysisOf } from './analysis.js';
import {
  slice,
  people,
  person,
  byId,
  visible,
  processing,
  findConversation,
  dealOf,
  listItem,
  summaryOf,
  timeRange,
  enumParam,
  boolParam,
  team,
  calloutOk,
  ANALYSIS_TYPES,
} from './lookups.js';

export function registerConversationRoutes(ctx: EmulatorContext): void {
  getConversations(ctx);
  getConversation(ctx);
  getConversationContentAnalysis(ctx);
}

function getConversations(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/zra/conversations',
    scopes: ZRA_SCOPES.listConversations,
    label: 'MEDIUM',
    handler: (req) => {
      const range = timeRange(req);
      const period =
        enumParam(req, 'period_type', ['meetingStartTime', 'iqProcessedTime']) ?? 'meetingStartTime';
      const type = enumParam(req, 'conversation_type', ['all', 'meeting', 'phone']) ?? 'all';
      const callout = enumParam(req, 'callout_type', ['engagingQuestions', 'nextSteps']);
      const scored = boolParam(req, 'scored');
      const hostId = q(req, 'host_id');
      const participantId = q(req, 'participant_id');
      const teamId = q(req, 'team_id');
      const dealId = q(req, 'deal_id');
      const indicator = q(req, 'indicator_id');
      const topic = q(req, 'mentioned_topic_id');
      const host = hostId ? byId(ctx, hostId) : undefined;
      if (hostId && !host)
        throw new ZoomError(404, 1005, `Host or participant user does not exist: ${hostId}`);
      const participant = participantId ? byId(ctx, participantId) : undefined;
      if (participantId && !participant)
        throw new ZoomError(404, 1005, `Host or participant user does not exist: ${participantId}`);
      const members = teamId ? team(ctx, teamId, false).members : undefined;
      if (dealId && !slice(ctx).deals.some((d) => d.id === dealId))
        throw new ZoomError(404, 1005, `Deal does not exist: ${dealId}`);
      const items = visible(ctx)
        .filter((c) => {
          const t = period === 'meetingStartTime' ? c.start_time : c.processed_time;
          if (period === 'iqProcessedTime' && processing(ctx, c)) return false;
          if ((range.from && t < range.from) || (range.to && t > range.to)) return false;
          if (type !== 'all' && c.type !== type) return false;
          if (!calloutOk(c, callout)) return false;
          if (scored !== undefined && c.scored !== scored) return false;
          if (host && c.host !== host.email) return false;
          if (participant && !c.reps.includes(participant.email)) return false;
          if (members && !c.reps.some((e) => members.includes(e))) return false;
          if (dealId && c.deal !== dealId) return false;
          if (indicator && !c.indicators.includes(indicator)) return false;
          if (topic && !c.topics.includes(topic)) return false;
          return true;
        })
        .sort((a, b) => b.start_time.localeCompare(a.start_time));
      const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
      return {
        next_page_token: page.nextPageToken,
        page_size: page.pageSize,
        ...range.echo,
        conversations: page.items.map((c) => listItem(ctx, c)),
      };
    },
  });
}

function getConversation(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/zra/conversations/:conversationId',
    scopes: ZRA_SCOPES.conversation,
    label: 'LIGHT',
    handler: (req) => {
      const c = findConversation(ctx, p(req, 'conversationId'), true);
      const d = dealOf(ctx, c);
      const host = person(ctx, c.host);
      const viewers = people(ctx).slice(0, Math.min(c.views, 3));
      return {
        ...listItem(ctx, c),
        host_email: host.email,
        ...(processing(ctx, c) ? {} : { summary: summaryOf(ctx, c) }),
        stage_during_conversation: c.stage,
        start_time: c.start_time,
        conversation_url: `${ctx.baseUrl}/iq/conversation?conversationId=${encodeURIComponent(c.id)}`,
        ...(d
          ? {
              deal: {
                id: d.id,
                name: d.name,
                stage: d.stage,
                customer_crm_account_name: d.account,
                close_date: d.close_date,
              },
            }
          : {}),
        ...(c.calendar ? { calendar_client: c.calendar, event_id: c.event_id } : {}),
        conversation_view: {
          total_view_counts: c.views,
          view_user_infos: viewers.map((u, i) => ({
            user_id: u.id,
            user_display_name: u.name,
            counts: i === 0 ? c.views - viewers.length + 1 : 1,
          })),
        },
        participants: [
          ...c.reps.map((e) => ({ display_name: person(ctx, e).name, email: e, type: 'rep' })),
          ...c.customers.map((x) => ({ display_name: x.name, email: x.email, type: 'customer' })),
        ],
        moment_info: [],
      };
    },
  });
}

function getConversationContentAnalysis(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/zra/conversations/:conversationId/content_analysis',
    scopes: ZRA_SCOPES.analysis,
    label: 'MEDIUM',
    handler: (req) => {
      const c = findConversation(ctx, p(req, 'conversationId'), true);
      const type = q(req, 'analysis_type');
      if (type === undefined || !ANALYSIS_TYPES.includes(type))
        throw new ZoomError(400, 1001, 'Invalid request parameter.');
      if (processing(ctx, c)) return { next_page_token: '', page_size: 30 };
      return analysisOf(ctx, c, type);
    },
  });
}
