/**
 * The capability catalog: the seed's 14 groups and 54 capabilities (names and order are a
 * contract), plus the few added beyond it (marked `beyondSeed`), each with the platform scopes
 * that admit it and where it comes from: a public REST endpoint, the platform's hosted MCP
 * server, or nothing public at all. The registry, the monitor and MCP read the whole list; the
 * status report's capabilityMap and capabilities keep exactly the seed's.
 */
export type Availability = 'rest' | 'hosted_mcp' | 'composed' | 'no_public_api';

export interface CapabilityDef {
  group: string;
  name: string;
  /** Any one of these granted scopes admits the capability. */
  scopes: string[];
  availability: Availability;
  /** Said to users where the platform offers no public endpoint, or where we compose one. */
  note?: string;
  /** Not one of the seed's: served everywhere except the status report's seed lists. */
  beyondSeed?: true;
}

const s = (...granular: string[]) =>
  granular
    .flatMap((g) => [g, `${g}:admin`])
    .concat(granular.map((g) => `${g.split(':')[0]}:${g.split(':')[1] === 'read' ? 'read' : 'write'}`));

const C = (
  group: string,
  name: string,
  scopes: string[],
  availability: Availability = 'rest',
  note?: string,
): CapabilityDef => ({
  group,
  name,
  scopes: [...new Set(scopes)],
  availability,
  ...(note ? { note } : {}),
});

const beyondSeed = (c: CapabilityDef): CapabilityDef => ({ ...c, beyondSeed: true });

export const CAPABILITIES: readonly CapabilityDef[] = [
  C('meetings', 'create_meeting', s('meeting:write:meeting')),
  C('meetings', 'list_meetings', s('meeting:read:list_meetings')),
  C('meetings', 'get_meeting', s('meeting:read:meeting')),
  C(
    'meetings',
    'search_meetings',
    ['meeting:read:search', 'meeting:read:list_meetings', 'meeting:read'],
    'hosted_mcp',
    'The platform has no REST meeting search; this uses the hosted MCP search_meetings tool, or filters the meeting list.',
  ),
  C('meetings', 'delete_meeting', s('meeting:delete:meeting')),
  C(
    'meetings',
    'create_appointment',
    s('meeting:write:meeting'),
    'composed',
    'The platform cannot book appointments; this creates a meeting plus a calendar event with the invitee.',
  ),
  C('calendar', 'list_calendars', s('calendar:read:list_calendar_lists')),
  C('calendar', 'list_events', s('calendar:read:list_events')),
  C('calendar', 'create_event', s('calendar:write:event')),
  C('calendar', 'update_event', s('calendar:update:event')),
  C('calendar', 'delete_event', s('calendar:delete:event')),
  C('calendar', 'quick_add', s('calendar:write:quick_add_event')),
  C('recordings', 'list_user_recordings', s('cloud_recording:read:list_user_recordings')),
  C('recordings', 'get_recording', s('cloud_recording:read:list_recording_files')),
  C('recordings', 'list_recording_files', s('cloud_recording:read:list_recording_files')),
  C('recordings', 'meeting_transcript', s('cloud_recording:read:meeting_transcript')),
  C('contacts', 'list_contacts', [...s('team_chat:read:list_contacts'), ...s('contact:read:list_contacts')]),
  C('conversation', 'metadata', s('meeting:read:past_meeting')),
  C('conversation', 'summary', s('meeting:read:summary')),
  C('conversation', 'transcript', s('cloud_recording:read:meeting_transcript')),
  C(
    'ai',
    'ai_companion_ask',
    ['mcp:ask', 'meeting:read:summary', 'meeting:read'],
    'hosted_mcp',
    'AI Companion ask has no REST endpoint (announced, then withdrawn); this uses the hosted MCP ask tool.',
  ),
  C(
    'ai',
    'ai_companion_search',
    ['meeting:read:search', 'meeting:read'],
    'hosted_mcp',
    'AI Companion search has no REST endpoint; this uses the hosted MCP search tool.',
  ),
  C(
    'ai',
    'agentic_search',
    ['meeting:read:search', 'meeting:read'],
    'hosted_mcp',
    'Agentic search exists only through the hosted MCP server.',
  ),
  C('ai', 'knowledge_graph', [], 'no_public_api', 'The platform publishes no knowledge-graph API.'),
  C('chat', 'read_message', s('team_chat:read:list_user_messages')),
  C('chat', 'send_message', s('team_chat:write:user_message')),
  C('clips', 'list_clips', s('clips:read:list_user_clips')),
  C('clips', 'get_clip', s('clips:read:clip')),
  C('clips', 'chapters', [], 'no_public_api', 'Clip chapters have no public endpoint.'),
  C('clips', 'analytics', [], 'no_public_api', 'Clip analytics have no public endpoint.'),
  C('phone', 'call_logs', [
    'phone:read:list_call_logs',
    'phone:read:list_call_logs:admin',
    'phone:read',
    'phone:read:admin',
  ]),
  C('phone', 'voicemails', [
    'phone:read:list_voicemails',
    'phone:read:list_voicemails:admin',
    'phone:read',
    'phone:read:admin',
  ]),
  C('phone', 'call_recordings', [
    'phone:read:list_recordings',
    'phone:read:list_recordings:admin',
    'phone:read',
    'phone:read:admin',
  ]),
  C('phone', 'ai_call_summary', [
    'phone:read:call_summary',
    'phone:read:call_summary:admin',
    'phone:read',
    'phone:read:admin',
  ]),
  C('ra', 'list_conversations', s('zra:read:list_conversations')),
  C('ra', 'list_deals', s('zra:read:list_deals')),
  C('ra', 'deal_activities', s('zra:read:list_deal_activities')),
  C('ra', 'conversation_analysis', s('zra:read:conversation_analysis')),
  C('ra', 'comments', s('zra:read:list_conversation_comments')),
  C('hub', 'read_content', s('docs:read:export')),
  C('hub', 'write_content', s('docs:write:import')),
  C('video_events', 'list_events', s('zoom_events:read:list_events')),
  C('video_events', 'get_event', s('zoom_events:read:event')),
  C('video_events', 'registrations', s('zoom_events:read:list_registrants')),
  C('video_events', 'sessions', s('zoom_events:read:list_sessions')),
  C('video_events', 'create_event', s('zoom_events:write:event')),
  // Registering people: the platform creates tickets for them (its scopes, granular and classic).
  beyondSeed(
    C('video_events', 'register', [
      'zoom_events:write:ticket',
      'zoom_events:write:ticket:admin',
      'zoom_events_tickets:write',
      'zoom_events_tickets:write:admin',
    ]),
  ),
  C('marketplace', 'app', s('marketplace:read:app')),
  C('marketplace', 'entitlements', s('marketplace:read:list_user_entitlements')),
  C('marketplace', 'app_requests', [
    'marketplace:read:app_request:admin',
    'marketplace:read:admin',
    'marketplace:read',
  ]),
  C('email', 'profile', s('email:read:profile')),
  C('email', 'list_messages', s('email:read:list_msgs')),
  C('email', 'send_message', s('email:write:send_msg')),
  C('email', 'drafts', s('email:read:list_drafts')),
  C('email', 'threads', s('email:read:list_threads')),
];

/** The seed's capabilities only, in its order: what the status report lists. */
export const SEED_CAPABILITIES: readonly CapabilityDef[] = CAPABILITIES.filter((c) => !c.beyondSeed);

/** Group → the seed's capability names, in its order (the status report's capabilityMap). */
export function capabilityMap(): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const c of SEED_CAPABILITIES) (map[c.group] ??= []).push(c.name);
  return map;
}

/** The seed's `apis`: name → path. */
export const APIS: Readonly<Record<string, string>> = {
  oauthStart: '/api/video/oauth/start',
  status: '/api/video/status',
  monitor: '/api/video/monitor',
  meetings: '/api/video/events',
  appointments: '/api/video/appointments',
  calendar: '/api/video/calendar/events',
  recordings: '/api/video/recordings',
  contacts: '/api/video/contacts',
  search: '/api/video/search?q=<query>',
  aiAsk: '/api/video/ai/ask',
  agenticSearch: '/api/video/ai/search?q=<query>',
  phoneLogs: '/api/video/phone/call-logs',
  voicemails: '/api/video/phone/voicemails',
  clips: '/api/video/clips',
  raDeals: '/api/video/ra/deals',
  raConversations: '/api/video/ra/conversations',
  videoEvents: '/api/video/events-hub',
};
