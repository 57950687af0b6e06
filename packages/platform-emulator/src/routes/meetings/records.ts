/**
 * The meetings emulator's records (meetings and their registrants), the scopes each operation
 * accepts, and the lookup by meeting id or instance UUID that other products share.
 */
import { zerr } from '../../context.js';
import type { EmulatorContext } from '../../context.js';

export interface MeetingRec {
  id: number;
  uuid: string;
  topic: string;
  type: number;
  start_time: string;
  duration: number;
  timezone: string;
  agenda: string;
  created_at: string;
  password: string;
  status: 'waiting' | 'started' | 'ended';
  approval_type: number;
  settings: Record<string, unknown>;
  creation_source: 'open_api' | 'web_portal';
  participants: number;
  has_summary: boolean;
}

export interface RegistrantRec {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  status: 'approved' | 'pending' | 'denied';
  create_time: string;
  custom_questions: { title: string; value: string }[];
}

export interface MeetingsSlice {
  meetings: MeetingRec[];
  registrants: Record<string, RegistrantRec[]>;
}

export const MEETING_SCOPES = {
  create: ['meeting:write:meeting', 'meeting:write:meeting:admin', 'meeting:write', 'meeting:write:admin'],
  list: [
    'meeting:read:list_meetings',
    'meeting:read:list_meetings:admin',
    'meeting:read',
    'meeting:read:admin',
  ],
  upcoming: [
    'meeting:read:list_upcoming_meetings',
    'meeting:read:list_upcoming_meetings:admin',
    'meeting:read',
    'meeting:read:admin',
  ],
  get: ['meeting:read:meeting', 'meeting:read:meeting:admin', 'meeting:read', 'meeting:read:admin'],
  update: ['meeting:update:meeting', 'meeting:update:meeting:admin', 'meeting:write', 'meeting:write:admin'],
  delete: ['meeting:delete:meeting', 'meeting:delete:meeting:admin', 'meeting:write', 'meeting:write:admin'],
  status: ['meeting:update:status', 'meeting:update:status:admin', 'meeting:write', 'meeting:write:admin'],
  registrants: [
    'meeting:read:list_registrants',
    'meeting:read:list_registrants:admin',
    'meeting:read',
    'meeting:read:admin',
  ],
  register: [
    'meeting:write:registrant',
    'meeting:write:registrant:admin',
    'meeting:write',
    'meeting:write:admin',
  ],
  past: [
    'meeting:read:past_meeting',
    'meeting:read:past_meeting:admin',
    'meeting:read',
    'meeting:read:admin',
  ],
  participants: [
    'meeting:read:list_past_participants',
    'meeting:read:list_past_participants:admin',
    'meeting:read',
    'meeting:read:admin',
  ],
  summaries: ['meeting:read:list_summaries:admin', 'meeting_summary:read:admin', 'meeting:read:admin'],
  summary: [
    'meeting:read:summary',
    'meeting:read:summary:admin',
    'meeting_summary:read',
    'meeting_summary:read:admin',
    'meeting:read',
    'meeting:read:admin',
  ],
  webinars: [
    'webinar:read:list_webinars',
    'webinar:read:list_webinars:admin',
    'webinar:read',
    'webinar:read:admin',
  ],
};

/** Meeting ids in paths are numbers; instance UUIDs (possibly double-encoded) are accepted too. */
export function findMeeting(ctx: EmulatorContext, idOrUuid: string): MeetingRec {
  const s = ctx.slice<MeetingsSlice>('meetings');
  let decoded = idOrUuid;
  for (let i = 0; i < 2 && decoded.includes('%'); i++) decoded = decodeURIComponent(decoded);
  const m = /^\d+$/.test(decoded)
    ? s.meetings.find((x) => x.id === Number(decoded))
    : s.meetings.find((x) => x.uuid === decoded);
  if (!m) throw zerr.meetingNotFound(idOrUuid);
  return m;
}
