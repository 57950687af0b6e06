/**
 * One HTTP request over a fresh socket bound to a chosen loopback address (127.0.0.x is all
 * loopback on Linux), so the server sees that address as the socket's peer.
 */
import { request } from 'node:http';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function sendFrom(
  base: string,
  from: string,
  path: string,
  o: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: new URL(base).hostname,
        port: new URL(base).port,
        localAddress: from,
        agent: false,
        path,
        method: o.method ?? 'GET',
        headers: o.headers ?? {},
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}
