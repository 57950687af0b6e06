/**
 * Revenue accelerator lookups and wire shapes shared by its routes: the account's people,
 * conversations and deals as the emulator's clock sees them (analysed once their processing time
 * has passed), the query parameters they share, and the list, comment and deal objects.
 */
import { q, zerr, ZoomError } from '../../context.js';
import type { EmulatorRequest } from '../../context.js';
import type { UsersSlice } from '../users.js';
import type { CommentRec, ConversationRec, DealRec, ZraSlice } from './records.js';
import { TOPICS } from './seed.js';
import type { EmulatorContext } from '../../context.js';

export const TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const ANALYSIS_TYPES = [
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
export function decodeId(raw: string): string[] {
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

export const slice = (ctx: EmulatorContext) => ctx.slice<ZraSlice>('zra');

export const now = (ctx: EmulatorContext) => ctx.now().getTime();

/** The account's people (demo user and colleagues), by email. */
export const people = (ctx: EmulatorContext) => {
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

export const person = (ctx: EmulatorContext, email: string) => {
  const found = people(ctx).find((u) => u.email === email);
  if (found) return found;
  const name = (email.split('@')[0] ?? email)
    .split('.')
    .map((w) => (w[0] ?? '').toUpperCase() + w.slice(1))
    .join(' ');
  return { id: Buffer.from(email).toString('base64url').slice(0, 22), email, name };
};

export const byId = (ctx: EmulatorContext, id: string) =>
  people(ctx).find((u) => u.id === id || u.email === id.toLowerCase());

/** Analysed conversations: those whose analysis has finished by the emulator's clock. */
export const visible = (ctx: EmulatorContext) =>
  slice(ctx).conversations.filter((c) => Date.parse(c.start_time) + c.duration_sec * 1000 <= now(ctx));

export const processing = (ctx: EmulatorContext, c: ConversationRec) =>
  Date.parse(c.processed_time) > now(ctx);

export const findConversation = (ctx: EmulatorContext, raw: string, period: boolean) => {
  const ids = decodeId(raw);
  const c = visible(ctx).find((x) => ids.includes(x.id));
  if (!c)
    throw new ZoomError(
      404,
      1005,
      `Conversation does not exist: ${ids[ids.length - 1] ?? raw}${period ? '.' : ''}`,
    );
  return c;
};

export const findDeal = (ctx: EmulatorContext, id: string) => {
  const d = slice(ctx).deals.find((x) => x.id === id);
  if (!d) throw new ZoomError(404, 1005, `Deal does not exist: ${id}.`);
  return d;
};

export const dealOf = (ctx: EmulatorContext, c: ConversationRec) =>
  slice(ctx).deals.find((d) => d.id === c.deal);

export const listItem = (ctx: EmulatorContext, c: ConversationRec) => {
  const done = !processing(ctx, c);
  return {
    conversation_id: c.id,
    host_id: person(ctx, c.host).id,
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

export const summaryOf = (ctx: EmulatorContext, c: ConversationRec) => {
  const d = dealOf(ctx, c);
  const customers = c.customers.map((x) => x.name).join(' and ');
  const topics = c.topics.map((t) => TOPICS[t]?.label.toLowerCase() ?? t).join(', ');
  return `${person(ctx, c.host).name} met with ${customers}${d ? ` of ${d.account}` : ''} for a ${c.topic.split(': ')[1]?.toLowerCase() ?? 'conversation'}. They covered ${topics}, and agreed on the next steps.`;
};

export const badTime = () => new ZoomError(400, 1001, 'The from or to time is invalid.');

export const timeRange = (req: EmulatorRequest) => {
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

export const enumParam = (req: EmulatorRequest, name: string, allowed: string[]) => {
  const v = q(req, name);
  if (v !== undefined && !allowed.includes(v))
    throw zerr.validation([{ field: name, message: 'Invalid field.' }]);
  return v;
};

export const boolParam = (req: EmulatorRequest, name: string) => {
  const v = enumParam(req, name, ['true', 'false']);
  return v === undefined ? undefined : v === 'true';
};

export const team = (ctx: EmulatorContext, id: string, period: boolean) => {
  const t = slice(ctx).teams.find((x) => x.id === id);
  if (!t) throw new ZoomError(404, 1005, `Team does not exist: ${id}${period ? '.' : ''}`);
  return t;
};

/** Conversation filters shared by the conversation list and deal activities. */
export const calloutOk = (c: ConversationRec, callout: string | undefined) =>
  !callout || (callout === 'nextSteps' ? c.next_steps > 0 : c.questions > 0);

export const canSee = (ctx: EmulatorContext, cm: CommentRec) => !cm.private || cm.author === ctx.demo.email;

export const commentObject = (ctx: EmulatorContext, cm: CommentRec) => {
  const author = person(ctx, cm.author);
  return {
    id: cm.id,
    ...(cm.parent ? { parent_comment_id: cm.parent } : {}),
    user_name: author.name,
    user_email: author.email,
    created_time: cm.created,
    last_modified_time: cm.modified,
    comment: cm.comment,
    mention_users: cm.mentions.map((e) => ({ user_id: person(ctx, e).id, user_name: person(ctx, e).name })),
    mention_teams: cm.teams.map((id) => ({
      team_id: id,
      team_name: slice(ctx).teams.find((t) => t.id === id)?.name ?? '',
    })),
    is_private: cm.private,
    ...(cm.time_in_recording ? { time_in_recording: cm.time_in_recording } : {}),
  };
};

export const dealStats = (ctx: EmulatorContext, d: DealRec) => {
  const convs = visible(ctx).filter((c) => c.deal === d.id);
  const times = [
    ...convs.map((c) => c.start_time),
    ...d.emails.filter((e) => Date.parse(e.date) <= now(ctx)).map((e) => e.date),
  ].sort();
  return { conversations: convs, last: times[times.length - 1] ?? d.created };
};

export const dealObject = (ctx: EmulatorContext, d: DealRec) => {
  const owner = person(ctx, d.owner);
  const stats = dealStats(ctx, d);
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
    time_in_stage: Math.max(0, Math.floor((now(ctx) - Date.parse(d.stage_since)) / 86_400_000)),
    number_of_conversations: stats.conversations.length,
    last_activity_time: stats.last,
    account_type: 'salesforce',
  };
};

export const amount = (req: EmulatorRequest, name: string) => {
  const v = q(req, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw zerr.validation([{ field: name, message: 'Invalid field.' }]);
  return Number(v);
};
