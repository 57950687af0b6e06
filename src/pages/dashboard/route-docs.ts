/**
 * How the operator dashboard's pages and forms describe themselves in the API reference: one
 * description per route, which routes.ts puts in that route's declaration (`config.doc`).
 */
import * as z from 'zod';
import type { RouteDocBody } from '../../http/openapi.js';

const html = { type: 'text/html; charset=utf-8' };
const toDashboard = {
  description: 'Back to the dashboard (post/redirect/get).',
  headers: { Location: '/dashboard' },
};
const page = (description: string) => ({ description, media: html });
const csrf = z.object({ csrf: z.string().describe('the CSRF token of the dashboard page the form is on') });
const videoId = z.object({ videoId: z.string().describe('the stored event (meeting id)') });
const form = 'application/x-www-form-urlencoded';

/** A signed-in dashboard form: session and CSRF token, then back to the dashboard with a notice. */
const action = (summary: string, input: z.ZodType = csrf, onEvent = false): RouteDocBody => ({
  summary,
  tag: 'pages',
  auth: 'session',
  input,
  bodyType: form,
  ...(onEvent ? { params: videoId } : {}),
  status: 303,
  responseDescription:
    'Back to the dashboard, with the outcome as a notice (also where a request without a session goes).',
  headers: { Location: '/dashboard' },
  responses: { 403: page('The CSRF token is missing or wrong (an HTML page).') },
  errors: [413, 415, 429],
});

/** Each page's and form's description, by route (routes.ts puts each in its route's declaration). */
export const DASHBOARD_DOCS = {
  page: {
    summary:
      'The operator dashboard: without a session the sign-in page, with one the status report, monitor, stored events, recordings and webhook deliveries.',
    tag: 'pages',
    auth: 'none',
    input: z.object({
      fresh: z
        .literal('1')
        .optional()
        .describe('1: probe the platform now instead of showing the status report kept for a minute'),
      linked: z
        .literal('1')
        .optional()
        .describe('1: the OAuth link just completed (the callback redirects here)'),
      resumed: z
        .literal('1')
        .optional()
        .describe('1: the same-site hop that brings the session cookie back after the platform redirect'),
    }),
    media: html,
    responseDescription: 'The dashboard, or the sign-in page without a session.',
  },
  css: {
    summary: "The dashboard's stylesheet.",
    tag: 'pages',
    auth: 'none',
    media: { type: 'text/css; charset=utf-8' },
  },
  js: {
    summary: "The dashboard's script (progressive enhancement; every form works without it).",
    tag: 'pages',
    auth: 'none',
    media: { type: 'text/javascript; charset=utf-8' },
  },
  login: {
    summary: 'Signs in with the API key: opens a session (fg_session cookie) and goes to the dashboard.',
    tag: 'pages',
    auth: 'none',
    input: z.object({ key: z.string().describe('the gateway API key') }),
    bodyType: form,
    status: 303,
    responseDescription: 'Signed in: to the dashboard with the session cookie.',
    headers: { Location: '/dashboard', 'Set-Cookie': 'fg_session, the session' },
    responses: { 401: page('Not the API key: the sign-in page again, with the error.') },
    errors: [413, 415, 429],
  },
  logout: action('Ends the session, for every instance.'),
  disconnect: action('Revokes the platform link and forgets it (POST /api/video/oauth/disconnect).'),
  createEvent: action(
    'Creates a meeting as a stored event (create_meeting) from the new-event form.',
    csrf.extend({
      topic: z.string(),
      start: z.string().describe('a datetime-local value, yyyy-mm-ddThh:mm'),
      timezone: z.string().optional().describe('an IANA zone (default UTC)'),
      duration: z.string().optional().describe('minutes (default 60)'),
      funnel: z.string().optional().describe('a funnel theme key, or empty for none'),
      registration: z.string().optional().describe('present when registration is required'),
      idempotency_key: z
        .string()
        .optional()
        .describe("this render's key: sending the same form again replays the first creation"),
    }),
  ),
  funnel: action(
    "Changes a stored event's funnel.",
    csrf.extend({ funnel: z.string().optional().describe('a funnel theme key, or empty for none') }),
    true,
  ),
  confirmDelete: {
    summary: 'The confirmation page of deleting a stored event (a page, so it needs no script).',
    tag: 'pages',
    auth: 'session',
    params: videoId,
    media: html,
    responses: {
      303: { ...toDashboard, description: 'Without a session: to the dashboard (sign-in).' },
      404: page('No such stored event (an HTML page).'),
    },
  },
  delete: action(
    'Deletes the meeting on the platform and the stored event (DELETE /api/video/events/{videoId}).',
    csrf,
    true,
  ),
} satisfies Record<string, RouteDocBody>;
