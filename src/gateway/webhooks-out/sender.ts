/**
 * One HTTP attempt of a delivery: POST the body to the subscriber with the given headers,
 * connecting only to the addresses the guard approved (a pinned lookup, so a second DNS answer
 * cannot redirect the connection), no redirects followed, a timeout, and the answer's body read
 * and dropped (at most 64 KB). Reports the status code, or the network error.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './target-guard.js';

export interface AttemptResult {
  status: number | null;
  error: string | null;
}

const MAX_ANSWER_BYTES = 64 * 1024;

function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const first = addresses[0];
    if (options.all) callback(null, addresses);
    else if (first) callback(null, first.address, first.family);
    else callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
  };
}

export function postWebhook(o: {
  url: URL;
  addresses: ResolvedAddress[];
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}): Promise<AttemptResult> {
  const request = o.url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: AttemptResult) => {
      clearTimeout(timer);
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const req = request(
      o.url,
      {
        method: 'POST',
        headers: { ...o.headers, 'content-length': String(Buffer.byteLength(o.body)) },
        lookup: pinnedLookup(o.addresses),
        // A fresh connection per attempt: a pooled socket would skip the pinned lookup.
        agent: false,
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        res.on('close', () => done({ status: res.statusCode ?? null, error: null }));
        res.on('error', () => done({ status: res.statusCode ?? null, error: null }));
      },
    );
    // The whole attempt is bounded, not just each idle gap (a trickling answer still ends).
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
      o.timeoutMs,
    );
    req.on('error', (err: NodeJS.ErrnoException) => done({ status: null, error: err.code ?? err.message }));
    req.end(o.body);
  });
}
