/**
 * Between Fastify and the contract check: a received request as check.ts reads it, and the
 * platform's answer to the violations it refuses for. A path or query value the documents
 * forbid is `400 {"code": 300, "message": "Invalid parameter: <name>."}`; a body is
 * `400 {"code": 300, "message": "Validation Failed.", "errors": [{"field", "message": "Invalid
 * field."}]}`, or "Request Body should be a valid JSON object." when it is missing or not JSON
 * (platform-api.md §2), each in its area's own words where they differ (STYLES). Undeclared
 * names are not refused: the platform ignores them. Also here: `me` from an account-level token.
 */
import type { FastifyRequest } from 'fastify';
import { zerr, ZoomError } from '../zoom-error.js';
import { describeRequest, type ContractViolation, type PlatformRequest } from './check.js';
import type { OperationRule } from './rules.js';

/** Whether the request carried a body at all (a JSON content type with nothing after it does not). */
const sentBody = (req: FastifyRequest): boolean => {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
};

/** `bodyRead`: false when the request was answered before its body was parsed. */
export function platformRequest(req: FastifyRequest, bodyRead = true): PlatformRequest {
  const [path = '', search = ''] = req.url.split('?', 2);
  const query: PlatformRequest['query'] = {};
  for (const [k, v] of new URLSearchParams(search)) {
    const had = query[k];
    query[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v];
  }
  return {
    method: req.method,
    path,
    query,
    contentType: req.headers['content-type'],
    hasBody: req.body !== undefined || sentBody(req),
    body: req.body,
    ...(bodyRead ? {} : { bodyUnread: true }),
    userAgent: req.headers['user-agent'],
  };
}

/** How one area of the platform words a refusal of its request rules. */
type Style = (fields: string[], first: ContractViolation) => ZoomError;

const byField = (fields: string[]) => fields.map((field) => ({ field, message: 'Invalid field.' }));

/** Most of the API: a parameter is "Invalid parameter: <name>.", a body "Validation Failed." with its fields. */
const general: Style = (fields, first) =>
  first.where === 'body'
    ? fields.length > 0
      ? zerr.validation(byField(fields))
      : zerr.invalidJson()
    : zerr.badParam(first.name);

/** Query errors answered as "Validation Failed." with the fields, as these operations do. */
const fieldList: Style = (fields, first) =>
  fields.length > 0 ? zerr.validation(byField(fields)) : general(fields, first);

/**
 * The areas whose refusals read otherwise, as the emulator's own handlers answer them (and
 * their area tests hold): calendar documents no error codes, so the HTTP status is the code;
 * mail answers every malformed request the same; revenue accelerator and the cloud-recording
 * reads and deletes list their query fields, except where a document names its one answer.
 */
const STYLES: Record<string, Style> = {
  'calendar.json': (fields) => new ZoomError(400, 400, 'Bad Request.', {}, byField(fields)),
  'mail.json': () => new ZoomError(400, 400, 'Invalid Request.'),
  'iq.json': fieldList,
  'iq.json GET /zra/conversations/{conversationId}/content_analysis': () =>
    new ZoomError(400, 1001, 'Invalid request parameter.'),
  'meeting.json GET /users/{userId}/recordings': fieldList,
  'meeting.json GET /meetings/{meetingId}/recordings': fieldList,
  'meeting.json DELETE /meetings/{meetingId}/recordings': fieldList,
  'meeting.json DELETE /meetings/{meetingId}/recordings/{recordingId}': fieldList,
};

/** The platform's refusal for the violations it refuses; undefined when it refuses none. */
export function refusalOf(rule: OperationRule, violations: ContractViolation[]): ZoomError | undefined {
  const refused = violations.filter((v) => v.refuse);
  const first = refused[0];
  if (!first) return undefined;
  // Fields of the same kind as the first: a body's properties, or the parameters.
  const fields = [
    ...new Set(
      refused
        .filter((v) => (v.where === 'body') === (first.where === 'body') && v.name !== '(body)')
        .map((v) => v.name),
    ),
  ];
  const style =
    STYLES[`${rule.document} ${rule.method} ${rule.template}`] ?? STYLES[rule.document] ?? general;
  return style(fields, first);
}

/**
 * `me` names the token's own user, which an account-level (server-to-server) token does not
 * have: it must name users by id or email (platform-api.md §1.3). A violation for a `me` path
 * segment or `user_id=me`, or undefined.
 */
export function meWithoutUser(
  rule: OperationRule | undefined,
  req: PlatformRequest,
): ContractViolation | undefined {
  const inPath = req.path.split('/').includes('me');
  const inQuery = Object.entries(req.query).some(([k, v]) => /user_?id/i.test(k) && v === 'me');
  if (!inPath && !inQuery) return undefined;
  return {
    request: describeRequest(req),
    document: rule?.document ?? 'none',
    operation: rule
      ? `${rule.method} ${rule.template}${rule.operationId ? ` (${rule.operationId})` : ''}`
      : '(none)',
    where: inPath ? 'path' : 'query',
    name: 'me',
    rule: 'no me with an account token',
    message: 'an account-level (server-to-server) token names users by id or email, never `me`',
    refuse: true,
  };
}
