/**
 * The business application's side of outgoing webhooks, for tests: an HTTP server on loopback
 * that records every delivery and verifies its signature with the `standardwebhooks` package
 * (written by others, so our signer is checked against an independent implementation). Per
 * path it can answer a number of first attempts with an error status, and answer late.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  json: any;
  /** Whether the signature verified with the secret registered for this path (false if none). */
  verified: boolean;
  /** The status we answered. */
  answered: number;
}

export interface Receiver {
  url(path: string): string;
  received: Received[];
  on(path: string): Received[];
  /** Registers the secret deliveries to `path` are verified with. */
  secret(path: string, secret: string): void;
  /** Answers the next `times` deliveries to `path` with `status`. */
  fail(path: string, times: number, status?: number): void;
  /** Answers deliveries to `path` only after `ms` (0: at once again), so attempts stay under way. */
  hold(path: string, ms: number): void;
  close(): Promise<void>;
}

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : '';
};

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const secrets = new Map<string, string>();
  const failures = new Map<string, { times: number; status: number }>();
  const holds = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': header(req, 'webhook-id'),
        'webhook-timestamp': header(req, 'webhook-timestamp'),
        'webhook-signature': header(req, 'webhook-signature'),
      };
      const secret = secrets.get(path);
      let verified = false;
      if (secret) {
        try {
          new Webhook(secret).verify(body, headers);
          verified = true;
        } catch {
          verified = false;
        }
      }
      const failure = failures.get(path);
      let answered = 204;
      if (failure && failure.times > 0) {
        failure.times -= 1;
        answered = failure.status;
      }
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      received.push({
        path,
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
        body,
        json,
        verified,
        answered,
      });
      const held = holds.get(path) ?? 0;
      if (held > 0) setTimeout(() => res.writeHead(answered).end(), held);
      else res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path) => received.filter((r) => r.path === path),
    secret: (path, secret) => secrets.set(path, secret),
    fail: (path, times, status = 500) => failures.set(path, { times, status }),
    hold: (path, ms) => holds.set(path, ms),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
