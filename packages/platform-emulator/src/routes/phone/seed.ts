/** Zoom Phone: seed data (colleagues, outside contacts, the demo user's line) and the call generator. */
import type { SeedContext } from '../../context.js';
import { zoomTime } from '../../time.js';
import type { Party, PhoneCallRec, PhoneSlice } from './types.js';

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
export const ME = {
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

export const plus = (iso: string, seconds: number) => zoomTime(new Date(Date.parse(iso) + seconds * 1000));
export const first = (name: string) => name.split(' ')[0] ?? name;
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

type Gen = (n: number) => string;

export function seedPhone(s: SeedContext): PhoneSlice {
  const hex = (n: number) => s.rng.id(n, HEX);
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${s.rng.pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
  const out: PhoneSlice = { calls: [], voicemails: [], recordings: [], summaries: [] };
  for (let i = 0; i < 40; i++) {
    const c = newCall(s, i, uuid);
    settleCall(s, i, c, hex, out);
    if (RECORDED_AT.has(i)) recordCall(s, i, c, hex, out);
    out.calls.push(c);
  }
  return out;
}

/** Call `i` as dialled: when, with whom, which way, and how it ended (the times come in settleCall). */
function newCall(s: SeedContext, i: number, uuid: () => string): PhoneCallRec {
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
  return {
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
}

/** The call's times by its result, and the voicemail a caller left. */
function settleCall(s: SeedContext, i: number, c: PhoneCallRec, hex: Gen, out: PhoneSlice): void {
  const { start_time: start, result, peer } = c;
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
}

/** A recorded call's recording and its AI summary. */
function recordCall(s: SeedContext, i: number, c: PhoneCallRec, hex: Gen, out: PhoneSlice): void {
  const internal = i % 5 === 3;
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
