/** Zoom Phone: wire mappers turning stored calls, voicemails and recordings into API response objects. */
import type { EmulatorContext } from '../../context.js';
import type { UsersSlice } from '../users.js';
import type { PhoneHelpers } from './helpers.js';
import { ME } from './seed.js';
import type { Party, PhoneCallRec, PhoneRecordingRec, VoicemailRec } from './types.js';

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

/** Builds the mappers for one registered context. */
export function phoneShapes(ctx: EmulatorContext, h: PhoneHelpers) {
  return { ...historyShapes(ctx, h), ...legacyShapes(ctx, h), ...mediaShapes(ctx, h) };
}

export type PhoneShapes = ReturnType<typeof phoneShapes>;

/** Both sides of a call in the call-history shape (`caller_*` / `callee_*`). */
function callSides(ctx: EmulatorContext, h: PhoneHelpers) {
  const { myName, siteId } = h;
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

  return sides;
}

/** The call-history entry, the call-path segment and the keyword search over both. */
function historyShapes(ctx: EmulatorContext, h: PhoneHelpers) {
  const { groupId, myName, siteId } = h;
  const sides = callSides(ctx, h);
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
  return { core, historyEntry, segment, keywordHit };
}

/** A party in the legacy call-log, voicemail and recording shapes. */
function legacyParty(h: PhoneHelpers, party: Party | 'me') {
  const { myName } = h;
  return party === 'me'
    ? { name: myName, number: ME.ext, did: ME.did, type: 1, source: 'internal' }
    : party.ext
      ? { name: party.name, number: party.ext, did: party.number, type: 1, source: 'internal' }
      : { name: party.name, number: party.number, did: party.number, type: 2, source: 'external' };
}

/** The legacy call log's entry. */
function legacyShapes(ctx: EmulatorContext, h: PhoneHelpers) {
  const { myName, siteId } = h;
  const legacyEntry = (c: PhoneCallRec) => {
    const caller = legacyParty(h, c.direction === 'outbound' ? 'me' : c.peer);
    const callee = legacyParty(h, c.direction === 'outbound' ? c.peer : 'me');
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
  return { legacyEntry };
}

/** The voicemail and recording entries. */
function mediaShapes(ctx: EmulatorContext, h: PhoneHelpers) {
  const { callById, myName } = h;

  const voicemailEntry = (v: VoicemailRec) => {
    const c = callById(v.call);
    const caller = c ? legacyParty(h, c.peer) : { name: '', number: '', type: 2 };
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

  const recordingEntry = (r: PhoneRecordingRec) => {
    const c = callById(r.call);
    const caller = c ? legacyParty(h, c.direction === 'outbound' ? 'me' : c.peer) : undefined;
    const callee = c ? legacyParty(h, c.direction === 'outbound' ? c.peer : 'me') : undefined;
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
  return { voicemailEntry, recordingEntry };
}
