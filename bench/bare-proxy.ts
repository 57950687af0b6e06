/**
 * The practical limit for the gateway's added latency on this machine: a bare node:http server
 * that does the least a gateway can do for `GET /api/video/recordings` — one keep-alive request
 * to the emulator with a fixed token, the whole body read, parsed, mapped to the same items
 * fleetgate answers with, and sent back as JSON. No auth, validation, retries, deadline, metrics
 * or logging. argv: the emulator's base URL and an access token; prints its port when listening.
 * The item mapping is written out again here, not imported: the baseline loads none of our code.
 */
import { Agent, createServer, request } from 'node:http';

interface PlatformRecording {
  uuid?: string;
  id?: number | string;
  topic?: string;
  start_time?: string;
  duration?: number;
  total_size?: number;
  recording_count?: number;
}

const [upstream = '', token = ''] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true });

const server = createServer((req, res) => {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const target = new URL(`${upstream}/v2/users/me/recordings${q >= 0 ? url.slice(q) : ''}`);
  target.searchParams.set('page_size', '30');
  const up = request(
    target,
    { agent, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } },
    (r) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (c: string) => (text += c));
      r.on('end', () => {
        const data = JSON.parse(text) as { meetings?: PlatformRecording[] };
        const body = JSON.stringify({
          items: (data.meetings ?? []).map((m) => ({
            video_id: m.id === undefined ? null : String(m.id),
            uuid: m.uuid ?? null,
            topic: m.topic ?? null,
            start_time: m.start_time ?? null,
            duration: m.duration ?? null,
            total_size: m.total_size ?? null,
            files: m.recording_count ?? 0,
          })),
          nextCursor: null,
        });
        res.writeHead(r.statusCode ?? 502, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
        });
        res.end(body);
      });
    },
  );
  up.on('error', () => res.writeHead(502).end());
  up.end();
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  process.stdout.write(`${typeof a === 'object' && a ? a.port : 0}\n`);
});
