/**
 * The meeting shapes the platform answers with: the full meeting object, the list item, and a
 * meeting's scheduled end time.
 */
import type { EmulatorContext } from '../../context.js';
import { zoomTime } from '../../time.js';
import type { MeetingRec } from './records.js';

export function meetingObject(ctx: EmulatorContext, m: MeetingRec) {
  const base = ctx.baseUrl;
  return {
    uuid: m.uuid,
    id: m.id,
    host_id: ctx.demo.id,
    host_email: ctx.demo.email,
    assistant_id: '',
    topic: m.topic,
    type: m.type,
    status: m.status === 'started' ? 'started' : 'waiting',
    start_time: m.start_time,
    duration: m.duration,
    timezone: m.timezone,
    agenda: m.agenda,
    created_at: m.created_at,
    start_url: `${base}/s/${m.id}?zak=sandbox-start-token`,
    join_url: `${base}/j/${m.id}?pwd=${m.password}`,
    ...(m.approval_type !== 2
      ? { registration_url: `${base}/meeting/register/${m.uuid.replace(/[/+=]/g, '')}` }
      : {}),
    password: m.password,
    h323_password: String(m.id).slice(-6),
    pstn_password: String(m.id).slice(-6),
    encrypted_password: Buffer.from(m.password).toString('base64url'),
    pmi: String(ctx.demo.pmi),
    pre_schedule: false,
    settings: { ...m.settings, approval_type: m.approval_type },
    creation_source: m.creation_source,
  };
}

export function listItem(ctx: EmulatorContext, m: MeetingRec) {
  return {
    uuid: m.uuid,
    id: m.id,
    host_id: ctx.demo.id,
    topic: m.topic,
    type: m.type,
    start_time: m.start_time,
    duration: m.duration,
    timezone: m.timezone,
    agenda: m.agenda.slice(0, 250),
    created_at: m.created_at,
    join_url: `${ctx.baseUrl}/j/${m.id}?pwd=${m.password}`,
    pmi: String(ctx.demo.pmi),
  };
}

/** When a meeting ends by its schedule. */
export const endTime = (m: MeetingRec) => zoomTime(new Date(Date.parse(m.start_time) + m.duration * 60_000));
