/**
 * Zoom Revenue Accelerator (ZRA) under `/zra/*` (the deprecated `/iq/*` twins are not served):
 * analysed sales conversations (meetings and phone calls) with their content analysis and
 * comments, and the CRM deals they belong to, across the fleet's selling businesses (GrowthOS,
 * Meridian Capital, Meridian Mortgage, Meridian Freight). Posting a comment emits
 * `revenue_accelerator.post_comment_completed`. This file holds the routes; the records and the
 * seed are in zra/.
 */
import { randomUUID } from 'node:crypto';
import { body, defineModule, p, q, zerr, ZoomError } from '../context.js';
import type { EmulatorRequest } from '../context.js';
import { zoomTime } from '../time.js';
import type { UsersSlice } from './users.js';
import { ZRA_SCOPES } from './zra/records.js';
import type { CommentRec, ConversationRec, DealRec, ZraSlice } from './zra/records.js';
import { MEMO, NEXT_STEPS, QUESTIONS, TOPICS, plusSec, seedZra } from './zra/seed.js';

const TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const ANALYSIS_TYPES = [
  'topics',
  'nextSteps',
  'engagingQuestions',
  'indicators',
  'smartChapters',
  'dealMemo',
  'playbooks',
  'all',
];

/** Conversation ids hold `+`, `/` and `=`; callers may encode them once or twice. */
function decodeId(raw: string): string[] {
  const out = [raw];
  let v = raw;
  for (let i = 0; i < 2 && v.includes('%'); i++) {
    try {
      v = decodeURIComponent(v);
      out.push(v);
    } catch {
      break;
    }
  }
  return out;
}

export const zraModule = defineModule<ZraSlice>({
  name: 'zra',
  seed: seedZra,
  register(ctx) {
    const slice = () => ctx.slice<ZraSlice>('zra');
    const now = () => ctx.now().getTime();

    /** The account's people (demo user and colleagues), by email. */
    const people = () => {
      const users = ctx.slice<UsersSlice | undefined>('users');
      const list = [
        { id: ctx.demo.id, email: ctx.demo.email, name: `${ctx.demo.firstName} ${ctx.demo.lastName}` },
        ...(users?.colleagues ?? []).map((c) => ({
          id: c.id,
          email: c.email,
          name: `${c.first_name} ${c.last_name}`,
        })),
      ];
      return list;
    };
    const person = (email: string) => {
      const found = people().find((u) => u.email === email);
      if (found) return found;
      const name = (email.split('@')[0] ?? email)
        .split('.')
        .map((w) => (w[0] ?? '').toUpperCase() + w.slice(1))
        .join(' ');
      return { id: Buffer.from(email).toString('base64url').slice(0, 22), email, name };
    };
    const byId = (id: string) => people().find((u) => u.id === id || u.email === id.toLowerCase());

    /** Analysed conversations: those whose analysis has finished by the emulator's clock. */
    const visible = () =>
      slice().conversations.filter((c) => Date.parse(c.start_time) + c.duration_sec * 1000 <= now());
    const processing = (c: ConversationRec) => Date.parse(c.processed_time) > now();

    const findConversation = (raw: string, period: boolean) => {
      const ids = decodeId(raw);
      const c = visible().find((x) => ids.includes(x.id));
      if (!c)
        throw new ZoomError(
          404,
          1005,
          `Conversation does not exist: ${ids[ids.length - 1] ?? raw}${period ? '.' : ''}`,
        );
      return c;
    };
    const findDeal = (id: string) => {
      const d = slice().deals.find((x) => x.id === id);
      if (!d) throw new ZoomError(404, 1005, `Deal does not exist: ${id}.`);
      return d;
    };
    const dealOf = (c: ConversationRec) => slice().deals.find((d) => d.id === c.deal);

    const listItem = (c: ConversationRec) => {
      const done = !processing(c);
      return {
        conversation_id: c.id,
        host_id: person(c.host).id,
        meeting_id: c.meeting_id,
        meeting_uuid: c.meeting_uuid,
        ...(c.deal ? { deal_id: c.deal } : {}),
        topic: c.topic,
        conversation_topic: c.topic,
        duration: Math.round(c.duration_sec / 60),
        duration_sec: c.duration_sec,
        conversation_type: c.type,
        meeting_start_time: c.start_time,
        ...(done ? { iq_processed_time: c.processed_time } : {}),
        engagement_score: done ? c.engagement : 0,
        sentiment_score: done ? c.sentiment : 0,
        engaging_questions_count: done ? c.questions : 0,
        next_steps_count: done ? c.next_steps : 0,
        filler_words_count: done ? c.filler : 0,
        processing_analysis: !done,
      };
    };

    const summaryOf = (c: ConversationRec) => {
      const d = dealOf(c);
      const customers = c.customers.map((x) => x.name).join(' and ');
      const topics = c.topics.map((t) => TOPICS[t]?.label.toLowerCase() ?? t).join(', ');
      return `${person(c.host).name} met with ${customers}${d ? ` of ${d.account}` : ''} for a ${c.topic.split(': ')[1]?.toLowerCase() ?? 'conversation'}. They covered ${topics}, and agreed on the next steps.`;
    };

    const badTime = () => new ZoomError(400, 1001, 'The from or to time is invalid.');
    const timeRange = (req: EmulatorRequest) => {
      const from = q(req, 'from');
      const to = q(req, 'to');
      if (from !== undefined && !TIME_RE.test(from)) throw badTime();
      if (to !== undefined && !TIME_RE.test(to)) throw badTime();
      if (from !== undefined && to !== undefined && from > to) throw badTime();
      return {
        from,
        to,
        echo: { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) },
      };
    };
    const enumParam = (req: EmulatorRequest, name: string, allowed: string[]) => {
      const v = q(req, name);
      if (v !== undefined && !allowed.includes(v))
        throw zerr.validation([{ field: name, message: 'Invalid field.' }]);
      return v;
    };
    const boolParam = (req: EmulatorRequest, name: string) => {
      const v = enumParam(req, name, ['true', 'false']);
      return v === undefined ? undefined : v === 'true';
    };
    const team = (id: string, period: boolean) => {
      const t = slice().teams.find((x) => x.id === id);
      if (!t) throw new ZoomError(404, 1005, `Team does not exist: ${id}${period ? '.' : ''}`);
      return t;
    };
    /** Conversation filters shared by the conversation list and deal activities. */
    const calloutOk = (c: ConversationRec, callout: string | undefined) =>
      !callout || (callout === 'nextSteps' ? c.next_steps > 0 : c.questions > 0);

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
        const host = hostId ? byId(hostId) : undefined;
        if (hostId && !host)
          throw new ZoomError(404, 1005, `Host or participant user does not exist: ${hostId}`);
        const participant = participantId ? byId(participantId) : undefined;
        if (participantId && !participant)
          throw new ZoomError(404, 1005, `Host or participant user does not exist: ${participantId}`);
        const members = teamId ? team(teamId, false).members : undefined;
        if (dealId && !slice().deals.some((d) => d.id === dealId))
          throw new ZoomError(404, 1005, `Deal does not exist: ${dealId}`);
        const items = visible()
          .filter((c) => {
            const t = period === 'meetingStartTime' ? c.start_time : c.processed_time;
            if (period === 'iqProcessedTime' && processing(c)) return false;
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
          conversations: page.items.map(listItem),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/zra/conversations/:conversationId',
      scopes: ZRA_SCOPES.conversation,
      label: 'LIGHT',
      handler: (req) => {
        const c = findConversation(p(req, 'conversationId'), true);
        const d = dealOf(c);
        const host = person(c.host);
        const viewers = people().slice(0, Math.min(c.views, 3));
        return {
          ...listItem(c),
          host_email: host.email,
          ...(processing(c) ? {} : { summary: summaryOf(c) }),
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
            ...c.reps.map((e) => ({ display_name: person(e).name, email: e, type: 'rep' })),
            ...c.customers.map((x) => ({ display_name: x.name, email: x.email, type: 'customer' })),
          ],
          moment_info: [],
        };
      },
    });

    /** One analysed line of the conversation, at `offset` seconds in. */
    const line = (
      c: ConversationRec,
      offset: number,
      speaker: 'rep' | 'customer',
      text: string,
      extra: Record<string, string> = {},
    ) => {
      const who = speaker === 'rep' ? person(c.host) : undefined;
      const customer = c.customers[0];
      const at = Math.min(offset, Math.max(0, c.duration_sec - 20));
      return {
        ...(who ? { user_id: who.id } : {}),
        display_name: who?.name ?? customer?.name ?? 'Customer',
        text,
        ...extra,
        start_time: plusSec(c.start_time, at),
        end_time: plusSec(c.start_time, at + 15),
      };
    };

    const analysisOf = (c: ConversationRec, type: string) => {
      const business = dealOf(c)?.business ?? 'growthos';
      const d = dealOf(c);
      const span = c.duration_sec;
      const want = (t: string) => type === 'all' || type === t;
      const out: Record<string, unknown> = { next_page_token: '', page_size: 30 };
      if (want('smartChapters')) out['summary'] = summaryOf(c);
      if (want('topics')) {
        out['topics'] = c.topics.map((id, i) => {
          const t = TOPICS[id];
          return {
            section: [
              line(
                c,
                Math.round((span * (i + 1)) / (c.topics.length + 2)),
                i % 2 ? 'customer' : 'rep',
                t?.line[business] ?? id,
                { label: t?.label ?? id, key_word: t?.key_word ?? id, marked_by: 'nlp' },
              ),
            ],
          };
        });
      }
      if (want('nextSteps')) {
        out['next_steps'] = [
          {
            section: NEXT_STEPS[business].slice(0, c.next_steps).map((text, i) =>
              line(c, span - 240 + i * 60, 'rep', text, {
                utterance: 'next steps',
                label: 'next steps',
                marked_by: 'aic',
              }),
            ),
          },
        ];
      }
      if (want('engagingQuestions')) {
        out['good_questions'] = [
          {
            section: QUESTIONS[business].slice(0, c.questions).map((text, i) =>
              line(c, 180 + i * 420, 'rep', text, {
                utterance: text,
                label: 'engaging question',
                marked_by: 'nlp',
              }),
            ),
          },
        ];
      }
      if (want('indicators')) {
        out['indicators'] = c.indicators.map((id, i) => {
          const ind = slice().indicators.find((x) => x.id === id);
          const topicLine = Object.values(TOPICS).find((t) => t.key_word === ind?.key_word)?.line[business];
          return {
            section: [
              line(
                c,
                300 + i * 400,
                'customer',
                topicLine ?? 'I can sign off on this myself once we agree on the terms.',
                {
                  indicator_name: ind?.name ?? '',
                  indicator_id: id,
                  key_word: ind?.key_word ?? '',
                  marked_by: 'es',
                },
              ),
            ],
          };
        });
      }
      if (want('smartChapters')) {
        const cut = [0, 0.15, 0.6, 0.85, 1].map((f) => Math.round(span * f));
        const titles = [
          'Introductions',
          c.topics.map((t) => TOPICS[t]?.label ?? t).join(' and '),
          'Questions and concerns',
          'Next steps',
        ];
        out['smart_chapters'] = titles.map((title, i) => ({
          title,
          summary:
            i === 3
              ? NEXT_STEPS[business].slice(0, c.next_steps).join(' ')
              : i === 0
                ? `${person(c.host).name} opened the call and confirmed the agenda.`
                : `The group discussed ${title.toLowerCase()}.`,
          category: i === 0 ? 'Introduction' : i === 3 ? 'Wrap-up' : 'Discussion',
          start_time: plusSec(c.start_time, cut[i] ?? 0),
          end_time: plusSec(c.start_time, cut[i + 1] ?? span),
        }));
      }
      if (want('dealMemo') && d) {
        out['deal_memo'] = {
          potential_wins: MEMO[business].wins.map(([factor, explanation]) => ({ factor, explanation })),
          potential_concerns: MEMO[business].concerns.map(([factor, explanation]) => ({
            factor,
            explanation,
          })),
        };
      }
      if (want('playbooks')) {
        const steps = NEXT_STEPS[business];
        out['playbooks'] = [
          {
            playbook_id: `${c.meeting_uuid.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}MEDDPICC`,
            playbook_name: 'MEDDPICC',
            elements: [
              [
                'Metrics',
                d
                  ? `What success means for ${d.account}: ${TOPICS['user_requirements']?.line[business] ?? ''}`
                  : 'Not discussed yet.',
              ],
              ['Decision process', steps[0] ?? ''],
            ].map(([name = '', summary = ''], i) => ({
              element_id: `${c.meeting_uuid.replace(/[^A-Za-z0-9]/g, '').slice(0, 14)}E${i}`,
              element_name: name,
              answer: {
                summaries: [summary],
                sources: [
                  {
                    item_id: String(12 + i),
                    speaker_name: c.customers[0]?.name ?? 'Customer',
                    start_time: '00:02:59.250',
                    end_time: '00:03:07.126',
                    time_s: 179,
                    text: summary,
                  },
                ],
              },
            })),
          },
        ];
      }
      return out;
    };

    ctx.route({
      method: 'GET',
      url: '/zra/conversations/:conversationId/content_analysis',
      scopes: ZRA_SCOPES.analysis,
      label: 'MEDIUM',
      handler: (req) => {
        const c = findConversation(p(req, 'conversationId'), true);
        const type = q(req, 'analysis_type');
        if (type === undefined || !ANALYSIS_TYPES.includes(type))
          throw new ZoomError(400, 1001, 'Invalid request parameter.');
        if (processing(c)) return { next_page_token: '', page_size: 30 };
        return analysisOf(c, type);
      },
    });

    const canSee = (cm: CommentRec) => !cm.private || cm.author === ctx.demo.email;
    const commentObject = (cm: CommentRec) => {
      const author = person(cm.author);
      return {
        id: cm.id,
        ...(cm.parent ? { parent_comment_id: cm.parent } : {}),
        user_name: author.name,
        user_email: author.email,
        created_time: cm.created,
        last_modified_time: cm.modified,
        comment: cm.comment,
        mention_users: cm.mentions.map((e) => ({ user_id: person(e).id, user_name: person(e).name })),
        mention_teams: cm.teams.map((id) => ({
          team_id: id,
          team_name: slice().teams.find((t) => t.id === id)?.name ?? '',
        })),
        is_private: cm.private,
        ...(cm.time_in_recording ? { time_in_recording: cm.time_in_recording } : {}),
      };
    };

    ctx.route({
      method: 'GET',
      url: '/zra/conversations/:conversationId/comments',
      scopes: ZRA_SCOPES.comments,
      label: 'MEDIUM',
      handler: (req) => {
        const c = findConversation(p(req, 'conversationId'), false);
        const items = slice()
          .comments.filter((x) => x.conversation === c.id && canSee(x))
          .sort((a, b) => a.created.localeCompare(b.created));
        const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
        return {
          next_page_token: page.nextPageToken,
          page_size: page.pageSize,
          comments: page.items.map(commentObject),
        };
      },
    });

    ctx.route({
      method: 'POST',
      url: '/zra/conversations/:conversationId/comments',
      scopes: ZRA_SCOPES.addComment,
      label: 'MEDIUM',
      handler: (req, reply) => {
        const c = findConversation(p(req, 'conversationId'), false);
        const b = body(req);
        const errors: { field: string; message: string }[] = [];
        const bad = (field: string) => errors.push({ field, message: 'Invalid field.' });
        const strings = (v: unknown) =>
          Array.isArray(v) && v.length <= 50 && v.every((x) => typeof x === 'string');
        if (typeof b['comment'] !== 'string' || b['comment'].trim() === '') bad('comment');
        if (b['parent_comment_id'] !== undefined && typeof b['parent_comment_id'] !== 'string')
          bad('parent_comment_id');
        if (b['mention_user_ids'] !== undefined && !strings(b['mention_user_ids'])) bad('mention_user_ids');
        if (b['mention_team_ids'] !== undefined && !strings(b['mention_team_ids'])) bad('mention_team_ids');
        if (b['is_private'] !== undefined && typeof b['is_private'] !== 'boolean') bad('is_private');
        if (b['time_in_recording'] !== undefined && typeof b['time_in_recording'] !== 'string')
          bad('time_in_recording');
        if (errors.length) throw zerr.validation(errors);
        // Well-formed but wrong: the operation's documented 400 code 1001.
        const invalid = () => new ZoomError(400, 1001, 'Invalid request param');
        const parent = (b['parent_comment_id'] as string | undefined) ?? '';
        if (parent && !slice().comments.some((x) => x.id === parent && x.conversation === c.id && canSee(x)))
          throw invalid();
        const mentions = ((b['mention_user_ids'] as string[] | undefined) ?? []).map((id) => byId(id)?.email);
        if (mentions.some((e) => e === undefined)) throw invalid();
        const teams = (b['mention_team_ids'] as string[] | undefined) ?? [];
        if (teams.some((id) => !slice().teams.some((t) => t.id === id))) throw invalid();
        const at = (b['time_in_recording'] as string | undefined) ?? '';
        if (at) {
          const m = /^(\d{2}):([0-5]\d):([0-5]\d)$/.exec(at);
          if (!m || Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) > c.duration_sec) throw invalid();
        }
        const stamp = zoomTime(ctx.now());
        const cm: CommentRec = {
          id: randomUUID(),
          conversation: c.id,
          parent,
          author: ctx.demo.email,
          created: stamp,
          modified: stamp,
          comment: b['comment'] as string,
          mentions: mentions as string[],
          teams,
          private: b['is_private'] === true,
          time_in_recording: at,
        };
        slice().comments.push(cm);
        ctx.changed();
        ctx.webhooks.emit(
          'revenue_accelerator.post_comment_completed',
          { comment_id: cm.id, conversation_id: c.id, text: cm.comment },
          { operator_id: ctx.demo.id, operator: ctx.demo.email },
        );
        return reply.code(201).send(commentObject(cm));
      },
    });

    const dealStats = (d: DealRec) => {
      const convs = visible().filter((c) => c.deal === d.id);
      const times = [
        ...convs.map((c) => c.start_time),
        ...d.emails.filter((e) => Date.parse(e.date) <= now()).map((e) => e.date),
      ].sort();
      return { conversations: convs, last: times[times.length - 1] ?? d.created };
    };
    const dealObject = (d: DealRec) => {
      const owner = person(d.owner);
      const stats = dealStats(d);
      return {
        deal_id: d.id,
        deal_name: d.name,
        deal_stage: d.stage,
        deal_description: d.description,
        owner_name: owner.name,
        owner_email: owner.email,
        owner_id: owner.id,
        deal_is_closed: d.closed,
        create_time: d.created,
        account_name: d.account,
        deal_is_private: d.private,
        deal_amount: d.amount,
        currency_type: 'USD',
        close_date: d.close_date,
        time_in_stage: Math.max(0, Math.floor((now() - Date.parse(d.stage_since)) / 86_400_000)),
        number_of_conversations: stats.conversations.length,
        last_activity_time: stats.last,
        account_type: 'salesforce',
      };
    };
    const amount = (req: EmulatorRequest, name: string) => {
      const v = q(req, name);
      if (v === undefined) return undefined;
      if (!/^\d+$/.test(v)) throw zerr.validation([{ field: name, message: 'Invalid field.' }]);
      return Number(v);
    };

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
        const owner = ownerId ? byId(ownerId) : undefined;
        if (ownerId && !owner) throw new ZoomError(404, 1005, `Owner does not exist: ${ownerId}`);
        const members = teamId ? team(teamId, false).members : undefined;
        const items = slice()
          .deals.map((d) => ({ d, o: dealObject(d) }))
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

    ctx.route({
      method: 'GET',
      url: '/zra/deals/:dealId',
      scopes: ZRA_SCOPES.deal,
      label: 'MEDIUM',
      handler: (req) => {
        const d = findDeal(p(req, 'dealId'));
        return { ...dealObject(d), contacts: d.contacts.map((c) => c.name) };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/zra/deals/:dealId/activities',
      scopes: ZRA_SCOPES.activities,
      label: 'MEDIUM',
      handler: (req) => {
        const d = findDeal(p(req, 'dealId'));
        const callout = q(req, 'callout_type');
        if (callout !== undefined && callout !== 'engagingQuestions' && callout !== 'nextSteps') {
          throw new ZoomError(400, 1001, 'Invalid request param');
        }
        const topicText = q(req, 'conversation_topic')?.toLowerCase();
        const indicator = q(req, 'indicator_id');
        const topic = q(req, 'mentioned_topic_id');
        const conversationFilters = Boolean(callout ?? indicator ?? topic);
        const calls = dealStats(d)
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
            sentiment_score: processing(c) ? 0 : c.sentiment,
            engagement_score: processing(c) ? 0 : c.engagement,
            host_id: person(c.host).id,
            ...(c.type === 'phone' ? { direction: c.direction } : {}),
            start_date: c.start_time,
            activity_type: c.type === 'phone' ? 'call' : 'meeting',
            stage_during_conversation: c.stage,
            processing_analysis: processing(c),
            duration: Math.round(c.duration_sec / 60),
          }));
        const emails = conversationFilters
          ? []
          : d.emails
              .filter(
                (e) =>
                  Date.parse(e.date) <= now() && (!topicText || e.subject.toLowerCase().includes(topicText)),
              )
              .map((e) => ({
                conversation_topic: e.subject,
                deal_stage: d.stage,
                host_id: person(d.owner).id,
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
  },
});
