/**
 * The one reviewed list of places where a published document is itself wrong, each with the
 * reason. Applied, the same way, by the rules generator (scripts/generate-contract-rules.ts,
 * whose output the emulator enforces at run time) and by the suite's strict check, which reads
 * the full documents: no correction lives anywhere else in code. An entry names what it
 * changes so a reviewer can hold it against the document; one that no longer applies (its
 * target gone or already right) fails the rules test, so the list cannot rot.
 */

export interface ServerCorrection {
  kind: 'server';
  document: string;
  /** The path prefix the platform really serves the document's paths under. */
  base: string;
  reason: string;
}

export interface SchemaCorrection {
  kind: 'schema';
  document: string;
  method: string;
  /** The operation's path template in the document. */
  template: string;
  /**
   * A JSON pointer inside the operation, where `@name` picks the parameter of that name (e.g.
   * `/parameters/@page_size/schema`,
   * `/requestBody/content/application~1json/schema/properties/type`).
   */
  pointer: string;
  /** What the document has there now (checked: a correction applies to this text only). */
  was: unknown;
  /** What it should be; undefined removes the member. */
  becomes: unknown;
  reason: string;
}

export type Correction = ServerCorrection | SchemaCorrection;

/** A date-time that may be local (no offset), as the descriptions that allow it say. */
const LOCAL_OR_OFFSET = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})?$';

/** Two entries per field: its `format: date-time` removed, a pattern that allows local time added. */
function localTimes(document: string, at: [method: string, template: string, pointer: string][]) {
  return at.flatMap(([method, template, pointer]) => [
    {
      kind: 'schema' as const,
      document,
      method,
      template,
      pointer: `${pointer}/format`,
      was: 'date-time',
      becomes: undefined,
    },
    {
      kind: 'schema' as const,
      document,
      method,
      template,
      pointer: `${pointer}/pattern`,
      was: undefined,
      becomes: LOCAL_OR_OFFSET,
    },
  ]);
}

const CATEGORIES = [
  'Education & Family',
  'Business & Networking',
  'Entertainment & Visual Arts',
  'Food & Drink',
  'Fitness & Health',
  'Home & Lifestyle',
  'Community & Spirituality',
  'Other',
];

/** The `oneOf` branches of a chat message's recipient and of a mention's contact, as published. */
const CONTACT_FORMS: Record<string, unknown[]> = {
  '/requestBody/content/application~1json/schema/properties/to_contact': [
    { type: 'string', format: 'email', example: 'jchill@example.com' },
    { type: 'string', example: 'za7AvP7o9AxypYwpaKYsOJ2K3VwXBZn4JtxgPGk8Lf7_1w' },
    { type: 'string', example: 'MbLtBAYYQUSqP64XySjfnQ' },
  ],
  '/requestBody/content/application~1json/schema/properties/at_items/items/properties/at_contact': [
    {
      type: 'string',
      description: 'The email address of the contact. \n\n',
      format: 'email',
      example: 'jchill@example.com',
    },
    {
      type: 'string',
      description: 'The member ID of the contact. \n\n',
      example: 'R4VM29Oj0fVM2hhEmSKVM2hhezJTezJTKVM2hezJT2hezJTSK',
    },
  ],
};

export const CORRECTIONS: Correction[] = [
  {
    kind: 'server',
    document: 'clips.json',
    base: '/v2',
    reason:
      "clips.json's `servers` URL is `https://api.zoom.us/` with no `/v2`, but the Clips reference page says every endpoint is served under `api.zoom.us/v2/` like the rest of the API (platform-api.md §1.1), and the platform's SDK calls `/v2/clips`",
  },
  ...localTimes('meeting.json', [
    [
      'POST',
      '/users/{userId}/meetings',
      '/requestBody/content/application~1json/schema/properties/start_time',
    ],
    ['PATCH', '/meetings/{meetingId}', '/requestBody/content/application~1json/schema/properties/start_time'],
  ]).map((c) => ({
    ...c,
    reason:
      '`start_time` is typed `format: date-time` (RFC 3339, which needs an offset), but its own description says the platform takes local time too: `yyyy-MM-ddTHH:mm:ss` with the time zone in `timezone`',
  })),
  ...localTimes('calendar.json', [
    [
      'POST',
      '/calendars/{calId}/events',
      '/requestBody/content/application~1json/schema/properties/start/properties/dateTime',
    ],
    [
      'POST',
      '/calendars/{calId}/events',
      '/requestBody/content/application~1json/schema/properties/end/properties/dateTime',
    ],
  ]).map((c) => ({
    ...c,
    reason:
      '`dateTime` is typed `format: date-time` (RFC 3339, which needs an offset), but its own description says "A time zone offset is required unless a time zone is explicitly specified in `timeZone`"',
  })),
  ...(['start', 'end'] as const).flatMap((field): Correction[] => {
    const at = `/requestBody/content/application~1json/schema/properties/${field}/oneOf`;
    const common = {
      kind: 'schema' as const,
      document: 'calendar.json',
      method: 'PATCH',
      template: '/calendars/{calId}/events/{eventId}',
    };
    const oneOfReason =
      "the two `oneOf` branches (an all-day `date`, a timed `dateTime`) require nothing, so every object matches both and `oneOf` (exactly one) can never hold; each branch requires its own field, as the insert operation's descriptions say";
    return [
      { ...common, pointer: `${at}/0/required`, was: undefined, becomes: ['date'], reason: oneOfReason },
      { ...common, pointer: `${at}/1/required`, was: undefined, becomes: ['dateTime'], reason: oneOfReason },
      ...localTimes('calendar.json', [
        ['PATCH', '/calendars/{calId}/events/{eventId}', `${at}/1/properties/dateTime`],
      ]).map((c) => ({
        ...c,
        reason:
          '`dateTime` is typed `format: date-time` (RFC 3339, which needs an offset), but the same field of the insert operation says "A time zone offset is required unless a time zone is explicitly specified in `timeZone`"',
      })),
    ];
  }),
  ...(
    [
      ['/required', ['email']],
      ['/properties/email/format', 'email'],
    ] as const
  ).map(([at, was]): Correction => ({
    kind: 'schema',
    document: 'events.json',
    method: 'POST',
    template: '/zoom_events/events/{eventId}/tickets',
    pointer: `/requestBody/content/application~1json/schema/properties/tickets/items/allOf/0${at}`,
    was,
    becomes: undefined,
    reason:
      'each ticket requires a valid `email`, yet the 201 answer documents a per-ticket failure `email_not_found` ("invalid or missing email") reported while the rest of the batch is created: the platform takes the batch and reports the ticket, so a missing or malformed email is no refusal of the request',
  })),
  {
    kind: 'schema',
    document: 'iq.json',
    method: 'GET',
    template: '/zra/conversations/{conversationId}/content_analysis',
    pointer: '/parameters/@analysis_type/schema/enum',
    was: ['topics', 'nextSteps', 'engagingQuestions', 'indicators', 'smartChapters', 'dealMemo', 'all'],
    becomes: [
      'topics',
      'nextSteps',
      'engagingQuestions',
      'indicators',
      'smartChapters',
      'dealMemo',
      'playbooks',
      'all',
    ],
    reason:
      '`analysis_type`\'s description lists `playbooks` ("Playbooks analysis") among the values, and the response documents a `playbooks` analysis, but the `enum` leaves it out',
  },
  {
    kind: 'schema',
    document: 'events.json',
    method: 'POST',
    template: '/zoom_events/events',
    pointer: '/requestBody/content/application~1json/schema/properties/categories/enum',
    was: CATEGORIES,
    becomes: undefined,
    reason:
      '`categories` is an array of category names, but the document puts their `enum` on the array instead of on its items, so no array could ever match; moved to the items (next entry)',
  },
  {
    kind: 'schema',
    document: 'events.json',
    method: 'POST',
    template: '/zoom_events/events',
    pointer: '/requestBody/content/application~1json/schema/properties/categories/items/enum',
    was: undefined,
    becomes: CATEGORIES,
    reason: 'the `enum` the document put on the `categories` array (previous entry), where it belongs',
  },
  ...(
    [
      '/requestBody/content/application~1json/schema/properties/to_contact',
      '/requestBody/content/application~1json/schema/properties/at_items/items/properties/at_contact',
    ] as const
  ).flatMap((at): Correction[] => [
    {
      kind: 'schema',
      document: 'team-chat.json',
      method: 'POST',
      template: '/chat/users/{userId}/messages',
      pointer: `${at}/oneOf`,
      was: CONTACT_FORMS[at],
      becomes: undefined,
      reason:
        'a contact is named by email, user id or member id, each a `oneOf` branch of plain strings; every email also matches the plain-string branches, so `oneOf` (exactly one) refuses every valid value; read as `anyOf` (next entry)',
    },
    {
      kind: 'schema',
      document: 'team-chat.json',
      method: 'POST',
      template: '/chat/users/{userId}/messages',
      pointer: `${at}/anyOf`,
      was: undefined,
      becomes: CONTACT_FORMS[at],
      reason: 'the branches of the `oneOf` above, any of which may match',
    },
  ]),
  {
    kind: 'schema',
    document: 'team-chat.json',
    method: 'GET',
    template: '/contacts',
    pointer: '/parameters/@contact_types/schema',
    was: { type: 'integer', example: 1, default: 1 },
    becomes: { type: 'string', pattern: '^[1-8](,[1-8])*$', default: '1' },
    reason:
      '`contact_types` is typed a single integer, but its description says "A comma-separated list of the type of user contact to query" with the values 1 to 8',
  },
];

/** The path prefix a document's operations are served under: its server URL's path, corrected. */
export function serverBase(document: string, doc: { servers?: { url?: string }[] }): string {
  const fix = CORRECTIONS.find((c): c is ServerCorrection => c.kind === 'server' && c.document === document);
  if (fix) return fix.base;
  const url = doc.servers?.[0]?.url ?? '';
  return new URL(url, 'https://api.zoom.us').pathname.replace(/\/$/, '');
}

const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The document with its schema corrections applied, as a new object (the input is not changed).
 * Throws naming the entry when a correction does not find what it says the document has, so a
 * corrected or changed document makes the list be reviewed again.
 */
export function applyCorrections<T extends { paths?: Record<string, Record<string, unknown>> }>(
  document: string,
  doc: T,
): T {
  const fixes = CORRECTIONS.filter(
    (c): c is SchemaCorrection => c.kind === 'schema' && c.document === document,
  );
  if (fixes.length === 0) return doc;
  const out = structuredClone(doc);
  for (const c of fixes) {
    const op = out.paths?.[c.template]?.[c.method.toLowerCase()];
    const where = `correction ${c.document} ${c.method} ${c.template} ${c.pointer}`;
    if (op === undefined) throw new Error(`${where}: the document has no such operation`);
    const parts = c.pointer.split('/').slice(1).map(unescape);
    const last = parts.pop();
    let parent: unknown = op;
    for (const part of parts)
      parent = part.startsWith('@')
        ? (parent as { name?: unknown }[] | undefined)?.find?.((p) => p.name === part.slice(1))
        : (parent as Record<string, unknown> | undefined)?.[part];
    if (typeof parent !== 'object' || parent === null || last === undefined)
      throw new Error(`${where}: the pointer leads nowhere`);
    const holder = parent as Record<string, unknown>;
    if (JSON.stringify(holder[last]) !== JSON.stringify(c.was))
      throw new Error(
        `${where}: the document has ${JSON.stringify(holder[last])}, not ${JSON.stringify(c.was)}; review the correction`,
      );
    if (c.becomes === undefined) delete holder[last];
    else holder[last] = structuredClone(c.becomes);
  }
  return out;
}
