/**
 * The causes the HTTP tests cannot make on loopback (a reset, no route, a bad certificate, happy
 * eyeballs' AggregateError) read from socket errors as node:http and fetch throw them, and what
 * counts as the platform going out of reach or coming back. The reachable ones (refused, a name
 * that does not resolve, a silent server, 5xx) are in status-unreachable.test.ts over real HTTP.
 */
import { describe, expect, it } from 'vitest';
import { causeOf, Reachability } from '../../src/gateway/platform/reachability.js';

const socketError = (code: string) => Object.assign(new Error(code), { code });
/** As fetch and the keep-alive transport throw it: the socket error as the cause. */
const fetchFailed = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });

describe('causeOf', () => {
  it('names each socket failure', () => {
    const cases: [unknown, string][] = [
      [fetchFailed(socketError('ECONNREFUSED')), 'connection_refused'],
      [fetchFailed(socketError('ENOTFOUND')), 'dns_failure'],
      [fetchFailed(socketError('EAI_AGAIN')), 'dns_failure'],
      [new DOMException('late', 'TimeoutError'), 'timeout'],
      [fetchFailed(socketError('ETIMEDOUT')), 'timeout'],
      [fetchFailed(socketError('ECONNRESET')), 'connection_reset'],
      [fetchFailed(socketError('EHOSTUNREACH')), 'host_unreachable'],
      [fetchFailed(socketError('CERT_HAS_EXPIRED')), 'tls_failure'],
      [fetchFailed(socketError('ERR_TLS_CERT_ALTNAME_INVALID')), 'tls_failure'],
      [fetchFailed(new AggregateError([socketError('ECONNREFUSED')])), 'connection_refused'],
      [fetchFailed(socketError('EPROTO_SOMETHING')), 'network_error'],
      [new Error('no code at all'), 'network_error'],
    ];
    for (const [err, cause] of cases) expect(causeOf(err), String((err as Error).message)).toBe(cause);
  });
});

describe('Reachability', () => {
  it('counts going out of reach and coming back, not server errors, and keeps when trouble began', () => {
    let t = Date.parse('2030-01-01T00:00:00Z');
    const r = new Reachability('http://platform.test:8080/v2', () => t);
    expect(r.trouble()).toBeUndefined();
    r.answered();
    r.failed({ status: 503 });
    expect(r.changes()).toBe(0);
    expect(r.trouble()).toMatchObject({ reachable: true, cause: 'server_error' });
    t += 1000;
    r.failed({ error: fetchFailed(socketError('ECONNREFUSED')), timeoutMs: 100 });
    expect(r.changes()).toBe(1);
    t += 1000;
    r.failed({ error: new DOMException('late', 'TimeoutError'), timeoutMs: 100 });
    expect(r.changes()).toBe(1);
    expect(r.trouble()).toEqual({
      reachable: false,
      cause: 'timeout',
      message: 'The platform cannot be reached: platform.test:8080 did not answer within 100 ms.',
      since: '2030-01-01T00:00:00.000Z',
    });
    r.answered();
    expect(r.changes()).toBe(2);
    expect(r.trouble()).toBeUndefined();
    expect(r.lastAnswerAt()).toBe('2030-01-01T00:00:02.000Z');
  });
});
