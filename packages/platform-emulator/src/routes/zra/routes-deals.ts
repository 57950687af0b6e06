/**
 * Revenue accelerator deal routes: the CRM deals (list with amount and stage filters, one deal) and
 * a deal's activities (its conversations).
 */
import { p, q, ZoomError } from '../../context.js';
import { ZRA_SCOPES } from './records.js';
import type { EmulatorContext } from '../../context.js';
import {
  slice,
  now,
  person,
  byId,
  processing,
  findDeal,
  timeRange,
  boolParam,
  team,
  calloutOk,
  dealStats,
  dealObject,
  amount,
} from './lookups.js';

export function registerDealRoutes(ctx: EmulatorContext): void {
  getDeals(ctx);
  getDeal(ctx);
  getDealActivities(ctx);
}

function getDeals(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/zra/deals',
    scopes: ZRA_SCOPES.deals,
    label: 'MEDIUM',
    handler: (req) => {
      const range = timeRange(req);
      const name = q(req, 'deal_name')?.toLowerCase();
      const withAnalytics = boolParam(req, 'only_show_with_analytics');
      const stage = q(req, 'deal_stage');
      const ownerId = q(req, 'owner_id');
      const teamId = q(req, 'team_id');
      const min = amount(req, 'min_deal_amount');
      const max = amount(req, 'max_deal_amount');
      const owner = ownerId ? byId(ctx, ownerId) : undefined;
      if (ownerId && !owner) throw new ZoomError(404, 1005, `Owner does not exist: ${ownerId}`);
      const members = teamId ? team(ctx, teamId, false).members : undefined;
      const items = slice(ctx)
        .deals.map((d) => ({ d, o: dealObject(ctx, d) }))
        .filter(({ d, o }) => {
          if (name && !d.name.toLowerCase().includes(name)) return false;
          if (withAnalytics && o.number_of_conversations === 0) return false;
          if (stage && d.stage.toLowerCase() !== stage.toLowerCase()) return false;
          if (owner && d.owner !== owner.email) return false;
          if (members && !members.includes(d.owner)) return false;
          if (min !== undefined && d.amount < min) return false;
          if (max !== undefined && d.amount > max) return false;
          if (
            (range.from && o.last_activity_time < range.from) ||
            (range.to && o.last_activity_time > range.to)
          )
            return false;
          return true;
        })
        .sort((a, b) => b.o.last_activity_time.localeCompare(a.o.last_activity_time))
        .map(({ o }) => o);
      const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
      return {
        next_page_token: page.nextPageToken,
        page_size: page.pageSize,
        ...range.echo,
        deals: page.items,
      };
    },
  });
}

function getDeal(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/zra/deals/:dealId',
    scopes: ZRA_SCOPES.deal,
    label: 'MEDIUM',
    handler: (req) => {
      const d = findDeal(ctx, p(req, 'dealId'));
      return { ...dealObject(ctx, d), contacts: d.contacts.map((c) => c.name) };
    },
  });
}

function getDealActivities(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/zra/deals/:dealId/activities',
    scopes: ZRA_SCOPES.activities,
    label: 'MEDIUM',
    handler: (req) => {
      const d = findDeal(ctx, p(req, 'dealId'));
      const callout = q(req, 'callout_type');
      if (callout !== undefined && callout !== 'engagingQuestions' && callout !== 'nextSteps') {
        throw new ZoomError(400, 1001, 'Invalid request param');
      }
      const topicText = q(req, 'conversation_topic')?.toLowerCase();
      const indicator = q(req, 'indicator_id');
      const topic = q(req, 'mentioned_topic_id');
      const conversationFilters = Boolean(callout ?? indicator ?? topic);
      const calls = dealStats(ctx, d)
        .conversations.filter(
          (c) =>
            calloutOk(c, callout) &&
            (!indicator || c.indicators.includes(indicator)) &&
            (!topic || c.topics.includes(topic)) &&
            (!topicText || c.topic.toLowerCase().includes(topicText)),
        )
        .map((c) => ({
          conversation_id: c.id,
          conversation_topic: c.topic,
          deal_stage: d.stage,
          sentiment_score: processing(ctx, c) ? 0 : c.sentiment,
          engagement_score: processing(ctx, c) ? 0 : c.engagement,
          host_id: person(ctx, c.host).id,
          ...(c.type === 'phone' ? { direction: c.direction } : {}),
          start_date: c.start_time,
          activity_type: c.type === 'phone' ? 'call' : 'meeting',
          stage_during_conversation: c.stage,
          processing_analysis: processing(ctx, c),
          duration: Math.round(c.duration_sec / 60),
        }));
      const emails = conversationFilters
        ? []
        : d.emails
            .filter(
              (e) =>
                Date.parse(e.date) <= now(ctx) && (!topicText || e.subject.toLowerCase().includes(topicText)),
            )
            .map((e) => ({
              conversation_topic: e.subject,
              deal_stage: d.stage,
              host_id: person(ctx, d.owner).id,
              direction: e.direction,
              start_date: e.date,
              activity_type: 'email',
              stage_during_conversation: d.stage,
              processing_analysis: false,
              message_ids: e.message_id,
              number_of_message_in_thread: e.count,
              duration: 0,
            }));
      const items = [...calls, ...emails].sort((a, b) => b.start_date.localeCompare(a.start_date));
      const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
      return { next_page_token: page.nextPageToken, page_size: page.pageSize, activities: page.items };
    },
  });
}
