/**
 * Which published operation each emulated platform route answers to: the document and the
 * operation's path template there (its parameter names may differ from the route's). The
 * contract rules (rules.json) are generated for exactly these operations, the run-time check
 * finds a route's rules through this map, and the route inventory test fails when the emulator
 * serves a route that is neither here nor listed as having no published reference.
 */

/** `METHOD /path` as the emulator's HTTP server has it, e.g. `GET /v2/users/:userId`. */
export type RouteKey = string;

export interface Published {
  /** The file in platform-openapi/. */
  doc: string;
  /** The operation's path template in that document (its parameter names may differ from ours). */
  template: string;
}

const v2 = (doc: string, routes: Record<string, string>): Record<RouteKey, Published> =>
  Object.fromEntries(
    Object.entries(routes).map(([key, template]) => {
      const [method, url] = key.split(' ') as [string, string];
      return [`${method} /v2${url}`, { doc, template }];
    }),
  );

export const SERVED: Record<RouteKey, Published> = {
  ...v2('users.json', {
    'GET /users/:userId': '/users/{userId}',
    'GET /users/:userId/settings': '/users/{userId}/settings',
    'GET /users': '/users',
  }),
  ...v2('meeting.json', {
    'POST /users/:userId/meetings': '/users/{userId}/meetings',
    'GET /users/:userId/meetings': '/users/{userId}/meetings',
    'GET /users/:userId/upcoming_meetings': '/users/{userId}/upcoming_meetings',
    'GET /meetings/:meetingId': '/meetings/{meetingId}',
    'PATCH /meetings/:meetingId': '/meetings/{meetingId}',
    'DELETE /meetings/:meetingId': '/meetings/{meetingId}',
    'PUT /meetings/:meetingId/status': '/meetings/{meetingId}/status',
    'GET /meetings/:meetingId/registrants': '/meetings/{meetingId}/registrants',
    'POST /meetings/:meetingId/registrants': '/meetings/{meetingId}/registrants',
    'GET /past_meetings/:meetingId': '/past_meetings/{meetingId}',
    'GET /past_meetings/:meetingId/participants': '/past_meetings/{meetingId}/participants',
    'GET /meetings/meeting_summaries': '/meetings/meeting_summaries',
    'GET /meetings/:meetingId/meeting_summary': '/meetings/{meetingId}/meeting_summary',
    'GET /users/:userId/webinars': '/users/{userId}/webinars',
    'POST /users/:userId/webinars': '/users/{userId}/webinars',
    'GET /users/:userId/recordings': '/users/{userId}/recordings',
    'GET /meetings/:meetingId/recordings': '/meetings/{meetingId}/recordings',
    'DELETE /meetings/:meetingId/recordings': '/meetings/{meetingId}/recordings',
    'PUT /meetings/:meetingId/recordings/status': '/meetings/{meetingUUID}/recordings/status',
    'DELETE /meetings/:meetingId/recordings/:recordingId': '/meetings/{meetingId}/recordings/{recordingId}',
    'PUT /meetings/:meetingId/recordings/:recordingId/status':
      '/meetings/{meetingId}/recordings/{recordingId}/status',
    'GET /meetings/:meetingId/transcript': '/meetings/{meetingId}/transcript',
    'DELETE /meetings/:meetingId/transcript': '/meetings/{meetingId}/transcript',
  }),
  ...v2('calendar.json', {
    'GET /calendars/users/:userIdentifier/calendarList': '/calendars/users/{userIdentifier}/calendarList',
    'GET /calendars/:calId': '/calendars/{calId}',
    'GET /calendars/:calId/events': '/calendars/{calId}/events',
    'POST /calendars/:calId/events': '/calendars/{calId}/events',
    'POST /calendars/:calId/events/quickAdd': '/calendars/{calId}/events/quickAdd',
    'GET /calendars/:calId/events/:eventId': '/calendars/{calId}/events/{eventId}',
    'PATCH /calendars/:calId/events/:eventId': '/calendars/{calId}/events/{eventId}',
    'DELETE /calendars/:calId/events/:eventId': '/calendars/{calId}/events/{eventId}',
  }),
  ...v2('team-chat.json', {
    'GET /chat/users/:userId/messages': '/chat/users/{userId}/messages',
    'POST /chat/users/:userId/messages': '/chat/users/{userId}/messages',
    'GET /chat/users/:userId/messages/:messageId': '/chat/users/{userId}/messages/{messageId}',
    'GET /chat/users/:userId/channels': '/chat/users/{userId}/channels',
    'GET /chat/channels/:channelId': '/chat/channels/{channelId}',
    'GET /chat/users/me/contacts': '/chat/users/me/contacts',
    'GET /chat/users/me/contacts/:identifier': '/chat/users/me/contacts/{identifier}',
    'GET /contacts': '/contacts',
  }),
  ...v2('clips.json', {
    'GET /clips': '/clips',
    'GET /clips/:clipId': '/clips/{clipId}',
    'DELETE /clips/:clipId': '/clips/{clipId}',
    'GET /clips/:clipId/comments': '/clips/{clipId}/comments',
  }),
  ...v2('iq.json', {
    'GET /zra/conversations': '/zra/conversations',
    'GET /zra/conversations/:conversationId': '/zra/conversations/{conversationId}',
    'GET /zra/conversations/:conversationId/content_analysis':
      '/zra/conversations/{conversationId}/content_analysis',
    'GET /zra/conversations/:conversationId/comments': '/zra/conversations/{conversationId}/comments',
    'POST /zra/conversations/:conversationId/comments': '/zra/conversations/{conversationId}/comments',
    'GET /zra/deals': '/zra/deals',
    'GET /zra/deals/:dealId': '/zra/deals/{dealId}',
    'GET /zra/deals/:dealId/activities': '/zra/deals/{dealId}/activities',
  }),
  // canvas.json, not zoom-docs.json: the older document's 6 paths are all in canvas.json too.
  ...v2('canvas.json', {
    'POST /docs/files': '/docs/files',
    'GET /docs/files/:fileId': '/docs/files/{fileId}',
    'PATCH /docs/files/:fileId': '/docs/files/{fileId}',
    'DELETE /docs/files/:fileId': '/docs/files/{fileId}',
    'GET /docs/files/:fileId/content': '/docs/files/{fileId}/content',
    'GET /docs/files/:fileId/children': '/docs/files/{fileId}/children',
    'GET /docs/users/:userId/root': '/docs/users/{userId}/root',
    'POST /docs/import_content': '/docs/import_content',
    'POST /docs/file_search': '/docs/file_search',
  }),
  ...v2('events.json', {
    'GET /zoom_events/events': '/zoom_events/events',
    'POST /zoom_events/events': '/zoom_events/events',
    'GET /zoom_events/events/:eventId': '/zoom_events/events/{eventId}',
    'GET /zoom_events/events/:eventId/registrants': '/zoom_events/events/{eventId}/registrants',
    'GET /zoom_events/events/:eventId/sessions': '/zoom_events/events/{eventId}/sessions',
    'POST /zoom_events/events/:eventId/tickets': '/zoom_events/events/{eventId}/tickets',
    'GET /zoom_events/events/:eventId/tickets': '/zoom_events/events/{eventId}/tickets',
    'GET /zoom_events/hubs': '/zoom_events/hubs',
  }),
  ...v2('marketplace.json', {
    'GET /marketplace/apps/:appId': '/marketplace/apps/{appId}',
    'GET /marketplace/apps/:appId/requests': '/marketplace/apps/{appId}/requests',
    'GET /marketplace/monetization/entitlements': '/marketplace/monetization/entitlements',
    'GET /marketplace/users/:userId/entitlements': '/marketplace/users/{userId}/entitlements',
    'GET /marketplace/users/:userId/apps': '/marketplace/users/{userId}/apps',
  }),
  ...v2('mail.json', {
    'GET /emails/mailboxes/:email/profile': '/emails/mailboxes/{email}/profile',
    'GET /emails/mailboxes/:email/messages': '/emails/mailboxes/{email}/messages',
    'GET /emails/mailboxes/:email/messages/:messageId': '/emails/mailboxes/{email}/messages/{messageId}',
    'POST /emails/mailboxes/:email/messages/send': '/emails/mailboxes/{email}/messages/send',
    'POST /emails/mailboxes/:email/drafts': '/emails/mailboxes/{email}/drafts',
    'GET /emails/mailboxes/:email/drafts': '/emails/mailboxes/{email}/drafts',
    'GET /emails/mailboxes/:email/drafts/:draftId': '/emails/mailboxes/{email}/drafts/{draftId}',
    'PUT /emails/mailboxes/:email/drafts/:draftId': '/emails/mailboxes/{email}/drafts/{draftId}',
    'DELETE /emails/mailboxes/:email/drafts/:draftId': '/emails/mailboxes/{email}/drafts/{draftId}',
    'POST /emails/mailboxes/:email/drafts/send': '/emails/mailboxes/{email}/drafts/send',
    'GET /emails/mailboxes/:email/threads': '/emails/mailboxes/{email}/threads',
    'GET /emails/mailboxes/:email/threads/:threadId': '/emails/mailboxes/{email}/threads/{threadId}',
  }),
};

export interface Unreferenced {
  what: string;
  why: string;
  routes: RouteKey[];
}

/** Emulated routes no published document describes, and why (docs/emulator-fidelity.md says the same). */
export const UNREFERENCED: Unreferenced[] = [
  {
    what: 'OAuth server',
    why: "every document names OAuth only as its security scheme, with an empty authorization and token URL and no operation or body schema; oauth.test.ts holds it to the platform's OAuth reference instead",
    routes: ['GET /oauth/authorize', 'POST /oauth/token', 'POST /oauth/revoke'],
  },
  {
    what: 'Zoom Phone',
    why: "the phone document is not available (its published page is 4 MiB or more and no copy was had, see platform-openapi/README.md); phone.test.ts spells out the fields of the platform's Phone API reference instead",
    routes: [
      'GET /v2/phone/users/:userId/call_history',
      'GET /v2/phone/call_history/:callHistoryUuid',
      'GET /v2/phone/users/:userId/call_logs',
      'GET /v2/phone/users/:userId/voice_mails',
      'GET /v2/phone/voice_mails/:voicemailId',
      'PATCH /v2/phone/voice_mails/:voicemailId',
      'GET /v2/phone/users/:userId/recordings',
      'GET /v2/phone/user/:userId/ai_call_summary/:aiCallSummaryId',
      'GET /v2/phone/voice_mails/download/:fileId',
      'GET /v2/phone/recording/download/:fileId',
      'GET /v2/phone/recording_transcript/download/:recordingId',
      'GET /v2/phone/recording_transcript/download/:recordingId/file',
    ],
  },
  {
    what: 'Cloud recording downloads',
    why: "a recording file's `download_url`: the file's bytes, not an API operation; the documents describe only the URL field",
    routes: ['GET /v2/rec/download/:fileId'],
  },
  {
    what: 'Hosted MCP stand-in',
    why: "the platform's hosted MCP server speaks JSON-RPC over MCP's Streamable HTTP and no OpenAPI document describes it; the other methods answer 405 and the CORS preflight; hosted-mcp.test.ts drives it with the official MCP SDK client",
    routes: ['POST /mcp', 'GET /mcp', 'DELETE /mcp', 'PUT /mcp', 'PATCH /mcp', 'OPTIONS /mcp'],
  },
  {
    what: 'Emulator control API',
    why: "the emulator's own controls (faults, stats, token expiry and revocation, removing the app, webhook log, sending and endpoint validation, reset); the platform has no such routes",
    routes: [
      'POST /_sandbox/faults',
      'GET /_sandbox/faults',
      'DELETE /_sandbox/faults',
      'GET /_sandbox/stats',
      'GET /_sandbox/contract',
      'POST /_sandbox/tokens/expire',
      'POST /_sandbox/tokens/revoke',
      'POST /_sandbox/app/deauthorize',
      'POST /_sandbox/webhooks/validate',
      'GET /_sandbox/webhooks/validations',
      'GET /_sandbox/webhooks',
      'POST /_sandbox/webhooks/send',
      'POST /_sandbox/reset',
      'GET /_sandbox/quirks',
      'POST /_sandbox/quirks',
    ],
  },
];
