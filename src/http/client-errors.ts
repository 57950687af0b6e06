/**
 * Answers for requests Node's HTTP parser gives up on before any route sees them (Fastify's
 * clientErrorHandler), in the one error shape: a request whose head or body did not arrive in
 * time gets 408, a head over Node's size limit 431, anything else it cannot parse 400. The connection is
 * closed either way. Nothing is written when an answer is already under way on the socket (a
 * 401 sent before an unread body, say): a second status line would corrupt it.
 *
 * An HTTP/1.1 request without Host (RFC 9112 §3.2 requires one) is refused here too, before the
 * edge and Fastify: Node's own refusal is a bare 400 with no body, so the server is made with
 * requireHostHeader off and missingHost answers instead. Likewise an Expect other than
 * 100-continue (expectationFailed) gets 417 in the one error shape rather than Node's bare one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { errorBody } from './errors.js';
import { withSecurityHeaders } from './security-headers.js';

function raw(status: number, body: string): string {
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
    `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `Connection: close\r\n\r\n${body}`
  );
}

export function clientErrorHandler(limits: Config['http']) {
  const timedOut = raw(
    408,
    JSON.stringify(
      errorBody(
        'request_timeout',
        `The request did not arrive in time: its head must arrive within ${limits.headersTimeoutMs} ms and all of it within ${limits.requestTimeoutMs} ms.`,
      ),
    ),
  );
  const tooLarge = raw(
    431,
    JSON.stringify(
      errorBody(
        'request_header_fields_too_large',
        'The request line and headers are larger than this server accepts.',
      ),
    ),
  );
  const malformed = raw(400, JSON.stringify(errorBody('bad_request', 'The request is not valid HTTP.')));
  return function onClientError(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Duplex): void {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.write(timedOut);
      else socket.write(err.code === 'HPE_HEADER_OVERFLOW' ? tooLarge : malformed);
    }
    // A request that timed out is worth a line (a slow client, or a slow-request attack);
    // Node's other refusals are noise from scanners and broken clients.
    const peer = (socket as Duplex & { remoteAddress?: string }).remoteAddress;
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') this.log.info({ remoteAddress: peer }, 'request timed out');
    else this.log.debug({ code: err.code, remoteAddress: peer }, 'client error');
    socket.destroy(err);
  };
}

/** A refusal sent before Fastify sees the request, closing the connection (its body is unread). */
function refusal(status: number, code: string, message: string) {
  const body = JSON.stringify(errorBody(code, message));
  const headers = withSecurityHeaders({
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  });
  return (res: ServerResponse) => void res.writeHead(status, headers).end(body);
}

const noHost = refusal(400, 'missing_host', 'An HTTP/1.1 request must carry a Host header.');

/** Answers an HTTP/1.1 request that has no Host with 400 (true), or leaves it (false). */
export function missingHost(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1 || req.headers.host !== undefined)
    return false;
  noHost(res);
  return true;
}

/**
 * For the server's checkExpectation event: an Expect other than 100-continue, which Node would
 * answer with a bare 417.
 */
export const expectationFailed = refusal(
  417,
  'expectation_failed',
  'The only expectation this server meets is Expect: 100-continue.',
);
