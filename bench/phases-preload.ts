/**
 * Loaded into fleetgate by bench/phases.ts (`node --import`, compiled to a temporary .mjs): times
 * our own share of each GET /api/video/* call from node:http's diagnostics channels, apart from
 * the platform's. Per call, µs: `before`, from the request's start to the upstream request
 * written (the route, auth, validation, the operation, handing the request to node:http and its
 * write), and `after`, from the upstream answer's headers to our answer written (its body read,
 * parsed and mapped, ours serialised and written). One call at a time is assumed (the bench sends
 * them so). The rows go to FLEETGATE_PHASES_OUT as JSON when the process exits.
 */
import dc from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';

const out = process.env['FLEETGATE_PHASES_OUT'] ?? '';
const PREFIX = '/api/video/';
let started = 0;
let sent = 0;
let answered = 0;
const rows: [number, number][] = [];

const url = (m: unknown) => (m as { request: IncomingMessage }).request.url ?? '';

dc.subscribe('http.server.request.start', (m) => {
  if (!url(m).startsWith(PREFIX)) return;
  started = performance.now();
  sent = answered = 0;
});
dc.subscribe('http.client.request.start', () => {
  if (started && !sent) sent = performance.now();
});
dc.subscribe('http.client.response.finish', () => {
  if (started) answered = performance.now();
});
dc.subscribe('http.server.response.finish', (m) => {
  if (!started || !url(m).startsWith(PREFIX)) return;
  if (sent && answered) rows.push([(sent - started) * 1000, (performance.now() - answered) * 1000]);
  started = 0;
});
const save = () => {
  if (out && rows.length) writeFileSync(out, JSON.stringify(rows));
};
process.on('exit', save);
// fleetgate exits by itself on SIGTERM; a process without a handler of its own (the bare proxy)
// would die without an 'exit' event, so it saves and exits here.
process.on('SIGTERM', () => {
  save();
  if (process.listenerCount('SIGTERM') === 1) process.exit(0);
});
