/**
 * Descriptions kept here rather than beside their handlers: /openapi.json and /docs
 * (routes/reference-routes.ts), /metrics (metrics.ts), and the dashboard's pages and forms
 * (which pages/dashboard/routes.ts documents as it registers them), with their answers.
 */
import * as z from 'zod';
import type { RouteDoc } from './route-doc.js';

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
const action = (url: string, summary: string, input: z.ZodType = csrf): RouteDoc => ({
  method: 'POST',
  url,
  summary,
  tag: 'pages',
  auth: 'session',
  input,
  bodyType: form,
  ...(url.includes(':videoId') ? { params: videoId } : {}),
  status: 303,
  responseDescription:
    'Back to the dashboard, with the outcome as a notice (also where a request without a session goes).',
  headers: { Location: '/dashboard' },
  responses: { 403: page('The CSRF token is missing or wrong (an HTML page).') },
  errors: [413, 415, 429],
});

/** GET /metrics, which app.ts documents where metrics.ts serves it (only with the API key). */
export const METRICS_DOC: RouteDoc = {
  method: 'GET',
  url: '/metrics',
  summary: 'Prometheus metrics: requests and latency by route, upstream calls, refreshes, webhooks.',
  tag: 'operations',
  auth: 'api_key',
  media: { type: 'text/plain; version=0.0.4; charset=utf-8' },
  responseDescription: 'The Prometheus text exposition format.',
};

/** GET /openapi.json and GET /docs: documented by routes/reference-routes.ts as it serves them. */
export const REFERENCE_DOCS: readonly RouteDoc[] = [
  {
    method: 'GET',
    url: '/openapi.json',
    summary: 'This document.',
    tag: 'operations',
    auth: 'none',
    output: z.record(z.string(), z.unknown()).describe('An OpenAPI 3.1 document.'),
  },
  {
    method: 'GET',
    url: '/docs',
    summary: 'The API reference page.',
    tag: 'operations',
    auth: 'none',
    media: html,
  },
];

/** The operator dashboard's pages and forms: described by pages/dashboard/routes.ts where it is served. */
export const DASHBOARD_DOCS: readonly RouteDoc[] = [
  {
    method: 'GET',
    url: '/dashboard',
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
  {
    method: 'GET',
    url: '/dashboard.css',
    summary: "The dashboard's stylesheet.",
    tag: 'pages',
    auth: 'none',
    media: { type: 'text/css; charset=utf-8' },
  },
  {
    method: 'GET',
    url: '/dashboard.js',
    summary: "The dashboard's script (progressive enhancement; every form works without it).",
    tag: 'pages',
    auth: 'none',
    media: { type: 'text/javascript; charset=utf-8' },
  },
  {
    method: 'POST',
    url: '/dashboard/login',
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
  action('/dashboard/logout', 'Ends the session, for every instance.'),
  action(
    '/dashboard/disconnect',
    'Revokes the platform link and forgets it (POST /api/video/oauth/disconnect).',
  ),
  action(
    '/dashboard/events',
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
  action(
    '/dashboard/events/:videoId/funnel',
    "Changes a stored event's funnel.",
    csrf.extend({ funnel: z.string().optional().describe('a funnel theme key, or empty for none') }),
  ),
  {
    method: 'GET',
    url: '/dashboard/events/:videoId/delete',
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
  action(
    '/dashboard/events/:videoId/delete',
    'Deletes the meeting on the platform and the stored event (DELETE /api/video/events/{videoId}).',
  ),
];
