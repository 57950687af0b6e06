/**
 * Zoom Phone: the demo user's call history (and the legacy call logs it replaces), the call
 * path of one call, voicemails (read status can be changed), call recordings with their
 * transcripts, AI call summaries, and the audio downloads. Phone has its own, lower rate
 * limits, so every route is registered with `product: 'phone'`. Calls only show up once they
 * have ended by the emulator's clock, so today's seeded calls appear as the day goes on.
 */
import { defineModule, p, q, zerr, ZoomError } from '../context.js';
import type { FastifyReply } from 'fastify';
import type { SandboxRequest, SeedContext } from '../context.js';
import { zoomTime } from '../time.js';
import type { UsersSlice } from './users.js';

/** The other end of a call: a colleague on an extension, or an outside number. */
interface Party {
  name: string;
  /** E.164 direct number. */
  number: string;
  company: string;
  /** Colleagues only ('' for outside callers). */
  email: string;
  ext: string;
  /** What calls with them are about; feeds voicemail transcripts and call summaries. */
  topic: string;
}

export interface PhoneCallRec {
  /** Call history UUID: `yyyymmdd-<uuid>`. */
  id: string;
  path_id: string;
  /** The legacy call log id (a bare UUID). */
  log_id: string;
  call_id: string;
  direction: 'inbound' | 'outbound';
  peer: Party;
  start_time: string;
  /** '' when nobody picked up. */
  answer_time: string;
  end_time: string;
  result: 'answered' | 'voicemail' | 'no_answer' | 'busy';
  talk_time: number;
  hold_time: number;
  wait_time: number;
  recording_id: string;
  recording_type: '' | 'automatic' | 'ad-hoc';
  voicemail_id: string;
  ai_call_summary_id: string;
}

export interface VoicemailRec {
  id: string;
  file_id: string;
  /** Call history id of the call that went to voicemail. */
  call: string;
  status: 'read' | 'unread';
  duration: number;
  date_time: string;
  transcript: string;
}

export interface PhoneRecordingRec {
  id: string;
  file_id: string;
  call: string;
  duration: number;
  date_time: string;
}

export interface AiCallSummaryRec {
  id: string;
  call: string;
  call_summary: string;
  next_steps: string;
  detailed_summary: string;
  created_time: string;
  modified_time: string;
  rate: '' | 'thumb_up' | 'thumb_down';
  edited: boolean;
}

export interface PhoneSlice {
  calls: PhoneCallRec[];
  voicemails: VoicemailRec[];
  recordings: PhoneRecordingRec[];
  summaries: AiCallSummaryRec[];
}

const COMPANY = 'Meridian Operating Group';
const COLLEAGUES: Party[] = [
  ['Jordan Reyes', '1011', 'the GrowthOS pipeline for next quarter'],
  ['Priya Natarajan', '1012', 'the numbers for the weekly operating review'],
  ['Marcus Bell', '1013', 'driver coverage on the Chicago-Memphis lane'],
  ['Elena Sokolova', '1014', 'the start date of the next CDL cohort'],
  ['Sam Okafor', '1015', 'the Alvarez Contracting credit memo'],
].map(([name = '', ext = '', topic = '']) => ({
  name,
  number: `+1312555${ext.padStart(4, '0')}`,
  company: COMPANY,
  email: `${name.toLowerCase().replace(' ', '.')}@meridianfleet.example`,
  ext,
  topic,
}));
const CONTACTS: Party[] = [
  [
    'Dana Whitfield',
    '+13125550187',
    'Lakeshore Logistics',
    'the rate confirmation for the Chicago-Memphis lane',
  ],
  ['Luis Ortega', '+17735550123', 'Prairie Wind Farms', 'a refrigerated pickup next Tuesday'],
  ['Renee Caldwell', '+16305550144', 'Caldwell Auto Group', 'the results of the GrowthOS spring campaign'],
  ['Tom Becker', '+18475550166', 'Becker Family Dental', 'the new-patient landing page'],
  ['Nina Park', '+17085550191', 'Meridian Mortgage client', 'her rate lock that expires on Friday'],
  ['Greg Alvarez', '+13125550119', 'Alvarez Contracting', 'the next draw on the equipment line of credit'],
  ['Karen Liu', '+13125550175', 'Midwest Title Co.', 'the closing package for 418 Elm Street'],
  ['Victor Hale', '+18155550128', 'Harbor Point Insurance', 'the renewal of the fleet policy'],
].map(([name = '', number = '', company = '', topic = '']) => ({
  name,
  number,
  company,
  email: '',
  ext: '',
  topic,
}));

/** The demo user's side of every call. */
const ME = {
  did: '+13125550142',
  ext: '1042',
  device: 'MAC_Client(6.4.1.61540)',
  department: 'Operations',
  costCenter: 'MOG-OPS',
  siteName: 'Chicago HQ',
};

/** Which of the 40 seeded calls went which way. */
const VOICEMAIL_AT = new Set([2, 6, 11, 15, 20, 24, 29, 33]);
const UNREAD_AT = new Set([24, 29, 33]);
const RECORDED_AT = new Set([1, 4, 8, 12, 17, 21, 25, 28, 31, 35]);
const MISSED_AT = new Set([5, 14, 23, 30, 37]);
const BUSY_AT = new Set([18]);

const HEX = '0123456789abcdef';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const plus = (iso: string, seconds: number) => zoomTime(new Date(Date.parse(iso) + seconds * 1000));
const first = (name: string) => name.split(' ')[0] ?? name;
const spoken = (e164: string) => e164.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '$1-$2-$3');

function summaryTexts(c: PhoneCallRec) {
  const who = c.peer.company === COMPANY ? c.peer.name : `${c.peer.name} of ${c.peer.company}`;
  const call_summary = `Avery Quinn and ${who} discussed ${c.peer.topic}. They agreed on the open points and on who follows up.`;
  const next_steps = `Avery will send a written recap on ${c.peer.topic} today. ${first(c.peer.name)} will confirm the details by the end of the week.`;
  const detailed_summary =
    `${c.direction === 'outbound' ? 'Avery called' : `${first(c.peer.name)} called Avery`} about ${c.peer.topic}. ` +
    `They went through the current status, the dates that matter and what is still open. ` +
    `${first(c.peer.name)} raised one concern about timing, and Avery offered to check with the team before committing. ` +
    `The call ended with an agreement to follow up in writing.`;
  return { call_summary, next_steps, detailed_summary };
}

function seedPhone(s: SeedContext): PhoneSlice {
  const hex = (n: number) => s.rng.id(n, HEX);
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${s.rng.pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
  const out: PhoneSlice = { calls: [], voicemails: [], recordings: [], summaries: [] };
  for (let i = 0; i < 40; i++) {
    const day = -13 + Math.floor((i * 14) / 40);
    const start = plus(s.at(day, s.rng.int(13, 22), s.rng.int(0, 59)), s.rng.int(0, 59));
    const internal = i % 5 === 3;
    const peer = s.rng.pick(internal ? COLLEAGUES : CONTACTS);
    const result: PhoneCallRec['result'] = VOICEMAIL_AT.has(i)
      ? 'voicemail'
      : MISSED_AT.has(i)
        ? 'no_answer'
        : BUSY_AT.has(i)
          ? 'busy'
          : 'answered';
    const direction: PhoneCallRec['direction'] =
      result === 'voicemail'
        ? 'inbound'
        : RECORDED_AT.has(i) || MISSED_AT.has(i) || BUSY_AT.has(i)
          ? i % 2 === 0
            ? 'outbound'
            : 'inbound'
          : s.rng.next() < 0.45
            ? 'outbound'
            : 'inbound';
    const prefix = start.slice(0, 10).replace(/-/g, '');
    const c: PhoneCallRec = {
      id: `${prefix}-${uuid()}`,
      path_id: `${prefix}-${uuid()}`,
      log_id: uuid(),
      call_id: `70${s.rng.digits(17)}`,
      direction,
      peer,
      start_time: start,
      answer_time: '',
      end_time: start,
      result,
      talk_time: 0,
      hold_time: 0,
      wait_time: 0,
      recording_id: '',
      recording_type: '',
      voicemail_id: '',
      ai_call_summary_id: '',
    };
    if (result === 'answered') {
      c.wait_time = s.rng.int(3, 16);
      c.talk_time = RECORDED_AT.has(i) ? s.rng.int(240, 1500) : s.rng.int(45, 900);
      c.hold_time = s.rng.int(0, 2) === 0 ? s.rng.int(10, 90) : 0;
      c.answer_time = plus(start, c.wait_time);
      c.end_time = plus(c.answer_time, c.talk_time + c.hold_time);
    } else if (result === 'voicemail') {
      c.wait_time = s.rng.int(20, 28);
      const duration = s.rng.int(14, 70);
      c.end_time = plus(start, c.wait_time + duration);
      c.voicemail_id = hex(32);
      const from = peer.company === COMPANY ? '' : ` from ${peer.company}`;
      out.voicemails.push({
        id: c.voicemail_id,
        file_id: s.rng.id(22, B64URL),
        call: c.id,
        status: UNREAD_AT.has(i) ? 'unread' : 'read',
        duration,
        date_time: plus(start, c.wait_time),
        transcript: `Hi Avery, this is ${peer.name}${from}. I'm calling about ${peer.topic}. Please call me back at ${spoken(peer.number)} when you get a chance. Thanks.`,
      });
    } else {
      c.wait_time = result === 'busy' ? 2 : s.rng.int(20, 30);
      c.end_time = plus(start, c.wait_time);
    }
    if (RECORDED_AT.has(i)) {
      c.recording_id = hex(32);
      c.recording_type = internal || i % 3 === 0 ? 'ad-hoc' : 'automatic';
      c.ai_call_summary_id = s.rng.id(22, B64URL);
      out.recordings.push({
        id: c.recording_id,
        file_id: s.rng.id(22, B64URL),
        call: c.id,
        duration: c.talk_time,
        date_time: c.answer_time,
      });
      const created = plus(c.end_time, s.rng.int(40, 180));
      out.summaries.push({
        id: c.ai_call_summary_id,
        call: c.id,
        ...summaryTexts(c),
        created_time: created,
        modified_time: created,
        rate: i % 4 === 0 ? 'thumb_up' : '',
        edited: false,
      });
    }
    out.calls.push(c);
  }
  return out;
}

/**
 * A few frames of silent MPEG-1 Layer III (128 kbit/s, 44.1 kHz, mono): real, playable audio
 * bytes for the voicemail and recording downloads.
 */
const SILENT_MP3 = (() => {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0xc4]);
  return Buffer.concat(Array.from({ length: 12 }, () => frame));
})();

// Scopes as the platform's Phone API lists them per operation (granular, then classic).
export const PHONE_SCOPES = {
  callHistory: [
    'phone:read:list_call_logs',
    'phone:read:list_call_logs:admin',
    'phone:read:admin',
    'phone_call_log:read',
  ],
  callPath: ['phone:read:call_log:admin', 'phone:read:admin', 'phone_call_log:read:admin'],
  callLogs: [
    'phone:read:list_call_logs',
    'phone:read:list_call_logs:admin',
    'phone:read',
    'phone:read:admin',
    'phone_call_log:read',
    'phone_call_log:read:admin',
  ],
  voicemails: [
    'phone:read:list_voicemails',
    'phone:read:list_voicemails:admin',
    'phone:read',
    'phone:read:admin',
    'phone_voicemail:read',
    'phone_voicemail:read:admin',
  ],
  voicemail: [
    'phone:read:voicemail',
    'phone:read:voicemail:admin',
    'phone:read',
    'phone:read:admin',
    'phone_voicemail:read',
    'phone_voicemail:read:admin',
  ],
  voicemailUpdate: [
    'phone:update:voicemail',
    'phone:update:voicemail:admin',
    'phone:write',
    'phone:write:admin',
    'phone_voicemail:write',
    'phone_voicemail:write:admin',
  ],
  recordings: [
    'phone:read:list_recordings',
    'phone:read:list_recordings:admin',
    'phone:read',
    'phone:read:admin',
    'phone_recording:read',
    'phone_recording:read:admin',
  ],
  recordingFile: [
    'phone:read:call_recording',
    'phone:read:call_recording:admin',
    'phone:read',
    'phone:read:admin',
    'phone_recording:read',
    'phone_recording:read:admin',
  ],
  transcript: [
    'phone:read:recording_transcript',
    'phone:read:recording_transcript:admin',
    'phone:read',
    'phone:read:admin',
    'phone_recording:read',
    'phone_recording:read:admin',
  ],
  aiSummary: [
    'phone:read:ai_call_summary',
    'phone:read:ai_call_summary:admin',
    'phone:read',
    'phone:read:admin',
  ],
};

const CALL_RESULTS = [
  'answered',
  'accepted',
  'picked_up',
  'connected',
  'succeeded',
  'voicemail',
  'hang_up',
  'canceled',
  'call_failed',
  'unconnected',
  'rejected',
  'busy',
  'ring_timeout',
  'overflowed',
  'no_answer',
  'invalid_key',
  'invalid_operation',
  'abandoned',
  'system_blocked',
  'service_unavailable',
];
const EXT_TYPES = [
  'user',
  'call_queue',
  'auto_receptionist',
  'common_area',
  'zoom_room',
  'cisco_room',
  'shared_line_group',
  'group_call_pickup',
  'external_contact',
];
const NUMBER_TYPES = [
  'zoom_pstn',
  'zoom_toll_free_number',
  'external_pstn',
  'external_contact',
  'byoc',
  'byop',
  '3rd_party_contact_center',
  'zoom_service_number',
  'external_service_number',
  'zoom_contact_center',
  'meeting_phone_number',
  'meeting_id',
  'anonymous_number',
  'zoom_revenue_accelerator',
];

type BadParam = (name: string) => ZoomError;

/** `yyyy-mm-dd` (whole day) or `yyyy-MM-ddTHH:mm:ssZ`, as the Phone list endpoints take them. */
function parseBound(v: string, end: boolean): number | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
    const t = Date.parse(`${v}T00:00:00Z`);
    return Number.isNaN(t) ? undefined : end ? t + 86_399_999 : t;
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(v)) {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The from/to window; `to` is required once `from` is given, and the default is the recent past. */
function dateWindow(req: SandboxRequest, now: number, defaultMs: number, bad: BadParam) {
  const from = q(req, 'from');
  const to = q(req, 'to');
  if (from === undefined && to === undefined) {
    return { fromMs: now - defaultMs, toMs: now, from: dayOf(now - defaultMs), to: dayOf(now) };
  }
  if (from === undefined) throw bad('from');
  if (to === undefined) throw bad('to');
  const fromMs = parseBound(from, false);
  if (fromMs === undefined) throw bad('from');
  const toMs = parseBound(to, true);
  if (toMs === undefined || toMs < fromMs) throw bad('to');
  return { fromMs, toMs, from, to };
}

/** A repeated (`a=x&a=y`), bracketed (`a[]=x`) or comma-separated array query parameter. */
function many(
  req: SandboxRequest,
  name: string,
  allowed: string[] | undefined,
  bad: BadParam,
): string[] | undefined {
  const query = req.query as Record<string, unknown>;
  const raw = [query[name], query[`${name}[]`]].flat().filter((v): v is string => typeof v === 'string');
  if (!raw.length) return undefined;
  const values = raw
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (allowed && values.some((v) => !allowed.includes(v))) throw bad(name);
  return values;
}

function oneOf<T extends string>(
  req: SandboxRequest,
  name: string,
  allowed: readonly T[],
  bad: BadParam,
): T | undefined {
  const v = q(req, name);
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) throw bad(name);
  return v as T;
}

const truthy = (req: SandboxRequest, name: string, bad: BadParam): boolean | undefined => {
  const v = q(req, name);
  if (v === undefined) return undefined;
  if (v !== 'true' && v !== 'false') throw bad(name);
  return v === 'true';
};

/** The legacy call log's result text. */
function legacyResult(c: PhoneCallRec): string {
  switch (c.result) {
    case 'answered':
      return 'Call connected';
    case 'voicemail':
      return 'Voicemail';
    case 'busy':
      return 'Busy';
    case 'no_answer':
      return c.direction === 'inbound' ? 'Missed' : 'No Answer';
  }
}

export const phoneModule = defineModule<PhoneSlice>({
  name: 'phone',
  seed: seedPhone,
  register(ctx) {
    const slice = () => ctx.slice<PhoneSlice>('phone');
    const now = () => ctx.now().getTime();
    const siteId = `${ctx.demo.accountId.slice(0, 11)}SiteChiHQ`.slice(0, 22);
    const groupId = `${ctx.demo.accountId.slice(0, 12)}GroupOps`.slice(0, 22);
    const myName = `${ctx.demo.firstName} ${ctx.demo.lastName}`;

    /** Calls that have ended by now. */
    const ended = () => slice().calls.filter((c) => Date.parse(c.end_time) <= now());
    const callById = (id: string) => slice().calls.find((c) => c.id === id);

    /** `{userId}` with the error code this endpoint documents for an unknown user. */
    const phoneUser = (req: SandboxRequest, code = 1001) => {
      try {
        return ctx.user(req, p(req, 'userId'));
      } catch (e) {
        if (e instanceof ZoomError && e.code === 1001 && code !== 1001)
          throw new ZoomError(404, code, e.message);
        throw e;
      }
    };

    /** Platform pagination, with the page-token error code this endpoint documents. */
    const page = <T>(req: SandboxRequest, items: T[], tokenCode = 300, bad: BadParam = zerr.badParam) => {
      try {
        return ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
      } catch (e) {
        if (!(e instanceof ZoomError)) throw e;
        if (e.message === zerr.badPageToken().message) throw new ZoomError(400, tokenCode, e.message);
        if (e.message === zerr.badParam('page_size').message) throw bad('page_size');
        throw e;
      }
    };

    const colleagueId = (party: Party) => {
      const users = ctx.slice<UsersSlice | undefined>('users');
      return (
        users?.colleagues.find((u) => u.email === party.email)?.id ??
        `ext${party.ext}${ctx.demo.id.slice(0, 15)}`
      );
    };

    /** One side of a call in the call-history shape (`caller_*` / `callee_*`). */
    const side = (prefix: 'caller' | 'callee', party: Party | 'me') => {
      if (party === 'me') {
        return {
          [`${prefix}_ext_id`]: ctx.demo.id,
          [`${prefix}_name`]: myName,
          [`${prefix}_email`]: ctx.demo.email,
          [`${prefix}_did_number`]: ME.did,
          [`${prefix}_ext_number`]: ME.ext,
          [`${prefix}_ext_type`]: 'user',
          [`${prefix}_number_type`]: 'zoom_pstn',
          [`${prefix}_device_type`]: ME.device,
          [`${prefix}_country_iso_code`]: 'US',
          [`${prefix}_country_code`]: '1',
          [`${prefix}_site_id`]: siteId,
          [`${prefix}_department`]: ME.department,
          [`${prefix}_cost_center`]: ME.costCenter,
        };
      }
      if (party.ext) {
        return {
          [`${prefix}_ext_id`]: colleagueId(party),
          [`${prefix}_name`]: party.name,
          [`${prefix}_email`]: party.email,
          [`${prefix}_did_number`]: party.number,
          [`${prefix}_ext_number`]: party.ext,
          [`${prefix}_ext_type`]: 'user',
          [`${prefix}_number_type`]: 'zoom_pstn',
          [`${prefix}_device_type`]: 'WIN_Client(6.4.1.61540)',
          [`${prefix}_country_iso_code`]: 'US',
          [`${prefix}_country_code`]: '1',
          [`${prefix}_site_id`]: siteId,
        };
      }
      return {
        [`${prefix}_name`]: party.name,
        [`${prefix}_did_number`]: party.number,
        [`${prefix}_number_type`]: 'external_pstn',
        [`${prefix}_country_iso_code`]: 'US',
        [`${prefix}_country_code`]: '1',
      };
    };
    const sides = (c: PhoneCallRec) =>
      c.direction === 'outbound'
        ? { ...side('caller', 'me'), ...side('callee', c.peer) }
        : { ...side('caller', c.peer), ...side('callee', 'me') };

    /** The fields shared by call-history entries and call-path segments. */
    const core = (c: PhoneCallRec) => ({
      call_id: c.call_id,
      connect_type: c.peer.ext ? 'internal' : 'external',
      call_type: 'general',
      direction: c.direction,
      hide_caller_id: false,
      end_to_end: false,
      ...sides(c),
      start_time: c.start_time,
      ...(c.answer_time ? { answer_time: c.answer_time } : {}),
      end_time: c.end_time,
    });

    const historyEntry = (c: PhoneCallRec) => ({
      id: c.id,
      call_path_id: c.path_id,
      ...core(c),
      group_id: groupId,
      event: c.direction === 'inbound' ? 'incoming' : 'outgoing',
      result: c.result,
      ...(c.recording_id ? { recording_id: c.recording_id, recording_type: c.recording_type } : {}),
      ...(c.voicemail_id ? { voicemail_id: c.voicemail_id } : {}),
      talk_time: c.talk_time,
      hold_time: c.hold_time,
      wait_time: c.wait_time,
      ...(c.ai_call_summary_id ? { ai_call_summary_id: c.ai_call_summary_id } : {}),
    });

    const segment = (c: PhoneCallRec) => ({
      ...core(c),
      department: ME.department,
      cost_center: ME.costCenter,
      site_id: siteId,
      group_id: groupId,
      site_name: ME.siteName,
      event: c.direction === 'inbound' ? 'incoming' : 'outgoing',
      result: c.result,
      segment: 0,
      node: 0,
      is_node: 0,
      ...(c.recording_id ? { recording_id: c.recording_id, recording_type: c.recording_type } : {}),
      hold_time: c.hold_time,
      waiting_time: c.wait_time,
      ...(c.voicemail_id ? { voicemail_id: c.voicemail_id } : {}),
    });

    const keywordHit = (c: PhoneCallRec, kw: string) => {
      const k = kw.toLowerCase();
      return [
        c.peer.name,
        c.peer.number,
        c.peer.email,
        c.peer.ext,
        c.peer.company,
        c.call_id,
        myName,
        ME.did,
        ME.ext,
        ctx.demo.email,
      ].some((v) => v !== '' && v.toLowerCase().includes(k));
    };

    ctx.route({
      method: 'GET',
      url: '/phone/users/:userId/call_history',
      scopes: PHONE_SCOPES.callHistory,
      label: 'MEDIUM',
      product: 'phone',
      handler: (req) => {
        phoneUser(req, 300);
        const bad: BadParam = (name) => new ZoomError(400, 301, `Invalid request param: ${name}.`);
        const w = dateWindow(req, now(), 86_400_000, bad);
        const timeType = oneOf(req, 'time_type', ['start_time', 'end_time'] as const, bad) ?? 'start_time';
        const directions = many(req, 'directions', ['inbound', 'outbound'], bad);
        const connectTypes = many(req, 'connect_types', ['internal', 'external'], bad);
        const callTypes = many(req, 'call_types', ['general', 'emergency'], bad);
        const results = many(req, 'call_results', CALL_RESULTS, bad);
        const numberTypes = many(req, 'number_types', NUMBER_TYPES, bad);
        const extTypes = many(req, 'extension_types', EXT_TYPES, bad);
        const groups = many(req, 'group_ids', undefined, bad);
        const sites = many(req, 'site_ids', undefined, bad);
        const recording = oneOf(req, 'recording_status', ['recorded', 'non_recorded'] as const, bad);
        const withVoicemail = truthy(req, 'with_voicemail', bad);
        const keyword = q(req, 'keyword');
        const department = q(req, 'department');
        const costCenter = q(req, 'cost_center');
        const items = ended()
          .filter((c) => {
            const t = Date.parse(timeType === 'start_time' ? c.start_time : c.end_time);
            if (t < w.fromMs || t > w.toMs) return false;
            const e = historyEntry(c) as Record<string, unknown>;
            if (directions && !directions.includes(c.direction)) return false;
            if (connectTypes && !connectTypes.includes(String(e['connect_type']))) return false;
            if (callTypes && !callTypes.includes('general')) return false;
            if (results && !results.includes(c.result)) return false;
            if (
              numberTypes &&
              !numberTypes.some((n) => e['caller_number_type'] === n || e['callee_number_type'] === n)
            )
              return false;
            if (extTypes && !extTypes.some((x) => e['caller_ext_type'] === x || e['callee_ext_type'] === x))
              return false;
            if (groups && !groups.includes(groupId)) return false;
            if (sites && !sites.includes(siteId)) return false;
            if (recording && (recording === 'recorded') !== (c.recording_id !== '')) return false;
            if (withVoicemail !== undefined && withVoicemail !== (c.voicemail_id !== '')) return false;
            if (keyword && !keywordHit(c, keyword)) return false;
            if (department && department !== ME.department) return false;
            if (costCenter && costCenter !== ME.costCenter) return false;
            return true;
          })
          .sort((a, b) => b.start_time.localeCompare(a.start_time));
        const pg = page(req, items, 300, bad);
        return {
          call_logs: pg.items.map(historyEntry),
          from: w.from,
          to: w.to,
          next_page_token: pg.nextPageToken,
          page_count: Math.ceil(pg.totalRecords / pg.pageSize),
          page_size: pg.pageSize,
          total_records: pg.totalRecords,
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/phone/call_history/:callHistoryUuid',
      scopes: PHONE_SCOPES.callPath,
      label: 'LIGHT',
      product: 'phone',
      handler: (req) => {
        const id = p(req, 'callHistoryUuid');
        const c = ended().find((x) => x.id === id);
        // Undocumented body; developers report "Call Log does not exist" for unknown ids.
        if (!c) throw new ZoomError(404, 404, 'Call Log does not exist.');
        const seg = segment(c);
        return {
          id: c.id,
          call_history_uuid: c.id,
          ...core(c),
          international: false,
          department: ME.department,
          cost_center: ME.costCenter,
          site_id: siteId,
          group_id: groupId,
          site_name: ME.siteName,
          call_path: [{ id: c.path_id.slice(9), ...seg }],
          call_elements: [{ call_element_id: c.path_id, ...seg }],
        };
      },
    });

    const legacyParty = (party: Party | 'me') =>
      party === 'me'
        ? { name: myName, number: ME.ext, did: ME.did, type: 1, source: 'internal' }
        : party.ext
          ? { name: party.name, number: party.ext, did: party.number, type: 1, source: 'internal' }
          : { name: party.name, number: party.number, did: party.number, type: 2, source: 'external' };

    const legacyEntry = (c: PhoneCallRec) => {
      const caller = legacyParty(c.direction === 'outbound' ? 'me' : c.peer);
      const callee = legacyParty(c.direction === 'outbound' ? c.peer : 'me');
      const me = {
        extension_number: ME.ext,
        name: myName,
        number_type: 1,
        phone_number: ME.did,
        location: 'Chicago, IL',
      };
      return {
        id: c.log_id,
        call_id: c.call_id,
        user_id: ctx.demo.id,
        caller_name: caller.name,
        caller_number: caller.number,
        caller_number_type: caller.type,
        caller_number_source: caller.source,
        caller_did_number: caller.did,
        caller_country_code: '1',
        caller_country_iso_code: 'US',
        callee_name: callee.name,
        callee_number: callee.number,
        callee_number_type: callee.type,
        callee_number_source: callee.source,
        callee_did_number: callee.did,
        callee_country_code: '1',
        callee_country_iso_code: 'US',
        date_time: c.start_time,
        ...(c.answer_time ? { answer_start_time: c.answer_time } : {}),
        call_end_time: c.end_time,
        direction: c.direction,
        duration: c.talk_time,
        result: legacyResult(c),
        path: c.peer.ext ? 'extension' : 'pstn',
        ...(c.result === 'answered' && c.direction === 'inbound' ? { accepted_by: me } : {}),
        ...(c.direction === 'outbound' ? { outgoing_by: me } : {}),
        has_recording: c.recording_id !== '',
        has_voicemail: c.voicemail_id !== '',
        ...(c.recording_id
          ? { recording_type: c.recording_type === 'automatic' ? 'Automatic' : 'OnDemand' }
          : {}),
        site: { id: siteId, name: ME.siteName },
        hold_time: c.hold_time,
        waiting_time: c.wait_time,
        department: ME.department,
        cost_center: ME.costCenter,
        ...(c.direction === 'outbound' && !c.peer.ext ? { charge: '$0.00', rate: '$0.00' } : {}),
      };
    };

    ctx.route({
      method: 'GET',
      url: '/phone/users/:userId/call_logs',
      scopes: PHONE_SCOPES.callLogs,
      label: 'MEDIUM',
      product: 'phone',
      handler: (req) => {
        phoneUser(req);
        const bad = zerr.badParam;
        const w = dateWindow(req, now(), 86_400_000, bad);
        const type = oneOf(req, 'type', ['all', 'missed'] as const, bad) ?? 'all';
        const timeType = oneOf(req, 'time_type', ['startTime', 'endTime'] as const, bad) ?? 'startTime';
        const phoneNumber = q(req, 'phone_number')?.replace(/[^\d+]/g, '');
        const items = ended()
          .filter((c) => {
            const t = Date.parse(timeType === 'startTime' ? c.start_time : c.end_time);
            if (t < w.fromMs || t > w.toMs) return false;
            if (type === 'missed' && !(c.direction === 'inbound' && c.result !== 'answered')) return false;
            if (
              phoneNumber &&
              !c.peer.number.endsWith(phoneNumber.replace(/^\+/, '')) &&
              c.peer.ext !== phoneNumber
            )
              return false;
            return true;
          })
          .sort((a, b) => b.start_time.localeCompare(a.start_time));
        const pg = page(req, items, 400);
        return {
          call_logs: pg.items.map(legacyEntry),
          from: w.from,
          to: w.to,
          next_page_token: pg.nextPageToken,
          page_count: Math.ceil(pg.totalRecords / pg.pageSize),
          page_size: pg.pageSize,
          total_records: pg.totalRecords,
        };
      },
    });

    const voicemailEntry = (v: VoicemailRec) => {
      const c = callById(v.call);
      const caller = c ? legacyParty(c.peer) : { name: '', number: '', type: 2 };
      return {
        id: v.id,
        call_id: c?.call_id ?? '',
        call_log_id: c?.log_id ?? '',
        call_history_id: v.call,
        call_element_id: c?.path_id ?? '',
        caller_name: caller.name,
        caller_number: caller.number,
        caller_number_type: caller.type,
        callee_name: myName,
        callee_number: ME.ext,
        callee_number_type: 1,
        date_time: v.date_time,
        download_url: `${ctx.baseUrl}/v2/phone/voice_mails/download/${v.file_id}`,
        duration: v.duration,
        status: v.status,
      };
    };
    const findVoicemail = (id: string, code: number) => {
      const v = slice().voicemails.find((x) => x.id === id && Date.parse(x.date_time) <= now());
      if (!v) throw new ZoomError(400, code, `Voice mail does not exist: ${id}.`);
      return v;
    };

    ctx.route({
      method: 'GET',
      url: '/phone/users/:userId/voice_mails',
      scopes: PHONE_SCOPES.voicemails,
      label: 'MEDIUM',
      product: 'phone',
      handler: (req) => {
        phoneUser(req);
        const w = dateWindow(req, now(), 30 * 86_400_000, zerr.badParam);
        const status = oneOf(req, 'status', ['all', 'read', 'unread'] as const, zerr.badParam) ?? 'all';
        // Nothing is ever deleted here, so the trash is empty.
        const trash = truthy(req, 'trash', zerr.badParam) ?? false;
        const items = trash
          ? []
          : slice()
              .voicemails.filter((v) => {
                const t = Date.parse(v.date_time);
                return (
                  t >= w.fromMs && t <= w.toMs && t <= now() && (status === 'all' || v.status === status)
                );
              })
              .sort((a, b) => b.date_time.localeCompare(a.date_time));
        const pg = page(req, items, 400);
        return {
          from: w.from,
          to: w.to,
          next_page_token: pg.nextPageToken,
          page_count: Math.ceil(pg.totalRecords / pg.pageSize),
          page_size: pg.pageSize,
          total_records: pg.totalRecords,
          voice_mails: pg.items.map(voicemailEntry),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/phone/voice_mails/:voicemailId',
      scopes: PHONE_SCOPES.voicemail,
      label: 'LIGHT',
      product: 'phone',
      handler: (req) => {
        const v = findVoicemail(p(req, 'voicemailId'), 300);
        return {
          ...voicemailEntry(v),
          transcription: { content: v.transcript, status: 2, engine: 'zoom' },
          intent_detect_status: 'success',
          intent_results: [],
        };
      },
    });

    ctx.route({
      method: 'PATCH',
      url: '/phone/voice_mails/:voicemailId',
      scopes: PHONE_SCOPES.voicemailUpdate,
      label: 'LIGHT',
      product: 'phone',
      handler: (req, reply) => {
        const v = findVoicemail(p(req, 'voicemailId'), 404);
        const status = q(req, 'read_status');
        if (status !== 'Read' && status !== 'Unread')
          throw new ZoomError(400, 400, 'The read status is invalid.');
        v.status = status === 'Read' ? 'read' : 'unread';
        ctx.changed();
        return reply.code(204).send();
      },
    });

    const recordingEntry = (r: PhoneRecordingRec) => {
      const c = callById(r.call);
      const caller = c ? legacyParty(c.direction === 'outbound' ? 'me' : c.peer) : undefined;
      const callee = c ? legacyParty(c.direction === 'outbound' ? c.peer : 'me') : undefined;
      const me = { name: myName, extension_number: ME.ext };
      return {
        id: r.id,
        call_id: c?.call_id ?? '',
        call_log_id: c?.log_id ?? '',
        call_history_id: r.call,
        call_element_id: c?.path_id ?? '',
        caller_name: caller?.name ?? '',
        caller_number: caller?.number ?? '',
        caller_number_type: caller?.type ?? 2,
        callee_name: callee?.name ?? '',
        callee_number: callee?.number ?? '',
        callee_number_type: callee?.type ?? 2,
        ...(c?.direction === 'outbound' ? { outgoing_by: me } : { accepted_by: me }),
        date_time: r.date_time,
        direction: c?.direction ?? 'inbound',
        download_url: `${ctx.baseUrl}/v2/phone/recording/download/${r.file_id}`,
        transcript_download_url: `${ctx.baseUrl}/v2/phone/recording_transcript/download/${r.id}`,
        duration: r.duration,
      };
    };
    const recordings = () =>
      slice().recordings.filter((r) => Date.parse(callById(r.call)?.end_time ?? r.date_time) <= now());

    ctx.route({
      method: 'GET',
      url: '/phone/users/:userId/recordings',
      scopes: PHONE_SCOPES.recordings,
      label: 'MEDIUM',
      product: 'phone',
      handler: (req) => {
        phoneUser(req);
        const w = dateWindow(req, now(), 30 * 86_400_000, zerr.badParam);
        const items = recordings()
          .filter((r) => Date.parse(r.date_time) >= w.fromMs && Date.parse(r.date_time) <= w.toMs)
          .sort((a, b) => b.date_time.localeCompare(a.date_time));
        const pg = page(req, items);
        return {
          from: w.from,
          to: w.to,
          next_page_token: pg.nextPageToken,
          page_count: Math.ceil(pg.totalRecords / pg.pageSize),
          page_size: pg.pageSize,
          total_records: pg.totalRecords,
          recordings: pg.items.map(recordingEntry),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/phone/user/:userId/ai_call_summary/:aiCallSummaryId',
      scopes: PHONE_SCOPES.aiSummary,
      label: 'MEDIUM',
      product: 'phone',
      handler: (req) => {
        phoneUser(req);
        const id = p(req, 'aiCallSummaryId');
        const s = slice().summaries.find((x) => x.id === id && Date.parse(x.created_time) <= now());
        // The platform documents a bare 404 here; this body follows its usual style.
        if (!s) throw new ZoomError(404, 404, `AI call summary does not exist: ${id}.`);
        return {
          ai_call_summary_id: s.id,
          account_id: ctx.demo.accountId,
          call_id: callById(s.call)?.call_id ?? '',
          user_id: ctx.demo.id,
          ...(s.rate ? { call_summary_rate: s.rate } : {}),
          transcript_language: 'en',
          call_summary: s.call_summary,
          next_steps: s.next_steps,
          detailed_summary: s.detailed_summary,
          created_time: s.created_time,
          modified_time: s.modified_time,
          edited: s.edited,
        };
      },
    });

    const sendAudio = (reply: FastifyReply, name: string) =>
      reply
        .code(200)
        .header('content-type', 'audio/mpeg')
        .header('content-disposition', `attachment; filename="${name}.mp3"`)
        .send(SILENT_MP3);

    ctx.route({
      method: 'GET',
      url: '/phone/voice_mails/download/:fileId',
      scopes: PHONE_SCOPES.voicemail,
      label: 'MEDIUM',
      product: 'phone',
      handler: (req, reply) => {
        const v = slice().voicemails.find(
          (x) => x.file_id === p(req, 'fileId') && Date.parse(x.date_time) <= now(),
        );
        if (!v) throw new ZoomError(400, 404, 'File does not exist.');
        return sendAudio(reply, `voicemail_${v.id}`);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/phone/recording/download/:fileId',
      scopes: PHONE_SCOPES.recordingFile,
      label: 'MEDIUM',
      product: 'phone',
      handler: (req, reply) => {
        const r = recordings().find((x) => x.file_id === p(req, 'fileId'));
        if (!r) throw new ZoomError(400, 404, 'File does not exist.');
        return sendAudio(reply, `recording_${r.id}`);
      },
    });

    // The platform answers 302 to a file host that serves the transcript JSON; the emulator's
    // "file host" is the path below, reached with the same bearer token.
    const transcriptOf = (req: SandboxRequest) => {
      const r = recordings().find((x) => x.id === p(req, 'recordingId'));
      if (!r) throw new ZoomError(400, 404, 'File does not exist.');
      return r;
    };
    ctx.route({
      method: 'GET',
      url: '/phone/recording_transcript/download/:recordingId',
      scopes: PHONE_SCOPES.transcript,
      label: 'LIGHT',
      product: 'phone',
      handler: (req, reply) => {
        const r = transcriptOf(req);
        return reply.redirect(`${ctx.baseUrl}/v2/phone/recording_transcript/download/${r.id}/file`, 302);
      },
    });
    ctx.route({
      method: 'GET',
      url: '/phone/recording_transcript/download/:recordingId/file',
      scopes: PHONE_SCOPES.transcript,
      label: 'LIGHT',
      product: 'phone',
      handler: (req, reply) => {
        const r = transcriptOf(req);
        const c = callById(r.call);
        const s = slice().summaries.find((x) => x.call === r.call);
        const peer = c?.peer.name ?? 'Caller';
        const lines: [string, string][] = [
          [myName, `Hi ${first(peer)}, this is Avery with Meridian. Thanks for taking the time.`],
          [peer, `Sure. I wanted to go over ${c?.peer.topic ?? 'a few things'}.`],
          [myName, s?.call_summary ?? 'Let us go through it.'],
          [peer, 'That works for me.'],
          [myName, s?.next_steps ?? 'I will follow up in writing.'],
        ];
        const stamp = (sec: number) => new Date(sec * 1000).toISOString().slice(11, 23);
        const step = Math.max(2, Math.floor(r.duration / lines.length));
        return reply
          .header('content-type', 'application/json')
          .header('content-disposition', `attachment; filename="transcript_${r.id}.json"`)
          .send({
            type: 'zoom_transcript',
            ver: 1,
            recording_id: r.id,
            meeting_id: '',
            account_id: ctx.demo.accountId,
            host_id: ctx.demo.id,
            recording_start: r.date_time,
            recording_end: plus(r.date_time, r.duration),
            timeline: lines.map(([who, text], i) => ({
              text,
              raw_text: text,
              ts: stamp(i * step),
              end_ts: stamp((i + 1) * step - 1),
              users: [],
              userId: who === myName ? ME.ext : c?.peer.ext || c?.peer.number || '',
              userIds: [],
              channelMark: who === myName ? 'L' : 'R',
            })),
          });
      },
    });
  },
});
