/**
 * The practical limit for the brand API: a bare node:http server that sends, for each path,
 * the identical bytes and headers fleetgate sends (captured by the bench before it starts), and
 * the same 304 for a request carrying the captured ETag.
 * Reads its routes from the JSON file named in argv[2]; prints its port when listening.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

interface Route {
  status: number;
  headers: Record<string, string>;
  body: string;
  notModified?: Record<string, string>;
}

const routes = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as Record<string, Route>;
const bodies = new Map(
  Object.entries(routes).map(([p, r]) => [p, { ...r, buf: Buffer.from(r.body, 'base64') }]),
);

const server = createServer((req, res) => {
  const r = bodies.get(req.url ?? '');
  if (!r) {
    res.writeHead(404).end();
    return;
  }
  // The least a conditional GET can cost: one string comparison against the stored validator.
  if (r.notModified && req.headers['if-none-match'] === r.headers['etag']) {
    res.writeHead(304, r.notModified);
    res.end();
    return;
  }
  res.writeHead(r.status, r.headers);
  res.end(r.buf);
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  process.stdout.write(`${typeof a === 'object' && a ? a.port : 0}\n`);
});
