/**
 * Tracing against a real OTLP/HTTP receiver (a node:http server here): the service runs as a
 * process (the bundle, as npm start runs it) with the standard OTEL_* variables pointing at it, a request carrying a `traceparent`
 * reaches a gateway read that calls the platform (the emulator), and the receiver gets one trace
 * whose spans go request → platform call, in OTLP JSON and in OTLP protobuf; each outgoing
 * webhook delivery's span links to the span (request or intake) that wrote its message. Without the
 * variables the SDK is never loaded (a module-resolution probe in the child says so).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';
import { eventually } from '../helpers/build-test-app.js';
import { moduleProbe } from '../helpers/module-probe.js';
import { startService } from '../helpers/spawn-service.js';

const API_KEY = 'tracing-test-api-key-0123456789';

interface Received {
  contentType: string;
  body: Buffer;
}

interface Attr {
  key: string;
  value: string | number | boolean | undefined;
}

interface FlatSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 2 server, 3 client. */
  kind: number;
  attributes: Attr[];
  events: { name: string; attributes: Attr[] }[];
  links: { traceId: string; spanId: string }[];
  service: string | undefined;
}

/** An OTLP/HTTP receiver: POST /v1/traces, kept as received. */
async function receiver(): Promise<{ server: Server; url: string; got: Received[]; hooks: string[] }> {
  const got: Received[] = [];
  /** Outgoing webhooks the service sent to /hook, by type. */
  const hooks: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/hook') {
        hooks.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string }).type);
        res.writeHead(204).end();
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      got.push({ contentType: req.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
      const json = (req.headers['content-type'] ?? '').includes('json');
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got, hooks };
}

// --- OTLP JSON (ExportTraceServiceRequest as protobuf's JSON mapping, ids in hex) ---

interface JsonValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface JsonAttr {
  key: string;
  value: JsonValue;
}
const jsonValue = (v: JsonValue) =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));
const jsonAttrs = (a: JsonAttr[] | undefined): Attr[] =>
  (a ?? []).map((x) => ({ key: x.key, value: jsonValue(x.value) }));

function spansFromJson(body: Buffer): FlatSpan[] {
  const req = JSON.parse(body.toString('utf8')) as {
    resourceSpans: {
      resource: { attributes: JsonAttr[] };
      scopeSpans: {
        spans: {
          traceId: string;
          spanId: string;
          parentSpanId?: string;
          name: string;
          kind: number;
          attributes?: JsonAttr[];
          events?: { name: string; attributes?: JsonAttr[] }[];
          links?: { traceId: string; spanId: string }[];
        }[];
      }[];
    }[];
  };
  return req.resourceSpans.flatMap((rs) => {
    const service = jsonAttrs(rs.resource.attributes).find((a) => a.key === 'service.name')?.value;
    return rs.scopeSpans.flatMap((ss) =>
      ss.spans.map((s) => ({
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? '',
        name: s.name,
        kind: s.kind,
        attributes: jsonAttrs(s.attributes),
        events: (s.events ?? []).map((e) => ({ name: e.name, attributes: jsonAttrs(e.attributes) })),
        links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
        service: typeof service === 'string' ? service : undefined,
      })),
    );
  });
}

// --- OTLP protobuf: just enough of the wire format for the fields the test reads ---

type Field = { no: number; wire: number; int?: bigint; bytes?: Buffer };

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = () => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++];
      if (b === undefined) throw new Error('truncated varint');
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const no = key >> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ no, wire, int: varint() });
    else if (wire === 2) {
      const len = Number(varint());
      out.push({ no, wire, bytes: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 1) {
      out.push({ no, wire, bytes: buf.subarray(i, i + 8) });
      i += 8;
    } else if (wire === 5) {
      out.push({ no, wire, bytes: buf.subarray(i, i + 4) });
      i += 4;
    } else throw new Error(`wire type ${wire}`);
  }
  return out;
}
const all = (f: Field[], no: number) => f.filter((x) => x.no === no);
const one = (f: Field[], no: number) => all(f, no)[0];

/** KeyValue { key = 1; AnyValue value = 2 { string 1, bool 2, int 3, double 4 } }. */
function protoAttrs(f: Field[], no: number): Attr[] {
  return all(f, no).map((kv) => {
    const k = fields(kv.bytes ?? Buffer.alloc(0));
    const v = fields(one(k, 2)?.bytes ?? Buffer.alloc(0))[0];
    const value =
      v === undefined
        ? undefined
        : v.no === 1
          ? v.bytes?.toString('utf8')
          : v.no === 2
            ? v.int === 1n
            : v.no === 3
              ? Number(v.int)
              : v.bytes?.readDoubleLE(0);
    return { key: one(k, 1)?.bytes?.toString('utf8') ?? '', value };
  });
}

/**
 * ExportTraceServiceRequest { ResourceSpans resource_spans = 1 { Resource resource = 1
 * { attributes = 1 }; ScopeSpans scope_spans = 2 { Span spans = 2 { trace_id 1, span_id 2,
 * parent_span_id 4, name 5, kind 6, attributes 9, events 11 { name 2, attributes 3 },
 * links 13 { trace_id 1, span_id 2 } } } } }.
 */
function spansFromProtobuf(body: Buffer): FlatSpan[] {
  return all(fields(body), 1).flatMap((rs) => {
    const r = fields(rs.bytes ?? Buffer.alloc(0));
    const resource = fields(one(r, 1)?.bytes ?? Buffer.alloc(0));
    const service = protoAttrs(resource, 1).find((a) => a.key === 'service.name')?.value;
    return all(r, 2).flatMap((ss) =>
      all(fields(ss.bytes ?? Buffer.alloc(0)), 2).map((sp) => {
        const s = fields(sp.bytes ?? Buffer.alloc(0));
        return {
          traceId: one(s, 1)?.bytes?.toString('hex') ?? '',
          spanId: one(s, 2)?.bytes?.toString('hex') ?? '',
          parentSpanId: one(s, 4)?.bytes?.toString('hex') ?? '',
          name: one(s, 5)?.bytes?.toString('utf8') ?? '',
          kind: Number(one(s, 6)?.int ?? 0n),
          attributes: protoAttrs(s, 9),
          events: all(s, 11).map((e) => {
            const ef = fields(e.bytes ?? Buffer.alloc(0));
            return { name: one(ef, 2)?.bytes?.toString('utf8') ?? '', attributes: protoAttrs(ef, 3) };
          }),
          links: all(s, 13).map((l) => {
            const lf = fields(l.bytes ?? Buffer.alloc(0));
            return {
              traceId: one(lf, 1)?.bytes?.toString('hex') ?? '',
              spanId: one(lf, 2)?.bytes?.toString('hex') ?? '',
            };
          }),
          service: typeof service === 'string' ? service : undefined,
        };
      }),
    );
  });
}

const attr = (s: FlatSpan, key: string) => s.attributes.find((a) => a.key === key)?.value;

/** The SDK's packages, as the probe names what a process loaded (bundled or not). */
const SDK = /^node_modules\/@opentelemetry\/(sdk-trace|exporter-|context-async-hooks|resources|core)\//;

const WEBHOOK_SECRET = `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Starts the service traced to a fresh receiver, makes one traced gateway read, stops it. With
 * `webhooks`, also an event whose start the emulator announces to the gateway's intake, which
 * the gateway passes on to its env subscriber (the receiver's /hook).
 */
async function tracedRead(protocol: 'http/json' | 'http/protobuf', webhooks = false) {
  const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-tracing-'));
  const rx = await receiver();
  const probe = await moduleProbe(dir);
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  try {
    const svc = await startService({
      FLEETGATE_DATA_DIR: dir,
      BRAND_WATCH: '0',
      FLEETGATE_API_KEY: API_KEY,
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: rx.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      OTEL_SERVICE_NAME: 'fleetgate-under-test',
      ...(webhooks
        ? {
            FLEETGATE_WEBHOOK_URL: `${rx.url}/hook`,
            FLEETGATE_WEBHOOK_SECRET: WEBHOOK_SECRET,
            FLEETGATE_WEBHOOK_ALLOW_PRIVATE: '1',
            FLEETGATE_WEBHOOK_RETRY_BASE_MS: '100',
          }
        : {}),
      ...probe.env,
    });
    let status: number;
    try {
      const res = await fetch(`${svc.base}/api/video/contacts?page_size=5`, {
        headers: { authorization: `Bearer ${API_KEY}`, traceparent: `00-${traceId}-${parentId}-01` },
      });
      status = res.status;
      await res.arrayBuffer();
      if (webhooks) {
        const created = await fetch(`${svc.base}/api/video/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            topic: 'Traced',
            start_time: '2031-05-01T10:00:00.000Z',
            funnel: 'freight',
          }),
        });
        expect(created.status).toBe(201);
        const id = ((await created.json()) as { video_id: string }).video_id;
        const sent = await fetch(`${svc.sandboxBase}/_sandbox/webhooks/send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ event: 'meeting.started', object: { id } }),
        });
        expect(sent.status).toBe(202);
        await eventually(() =>
          expect(rx.hooks).toEqual(expect.arrayContaining(['event.created', 'event.started'])),
        );
      }
    } finally {
      // Shutdown flushes the exporter: everything buffered reaches the receiver before exit.
      expect(await svc.stop('SIGTERM')).toBe(0);
    }
    const spans = rx.got.flatMap((r) =>
      r.contentType.includes('json') ? spansFromJson(r.body) : spansFromProtobuf(r.body),
    );
    return {
      status,
      spans,
      traceId,
      parentId,
      received: rx.got,
      receiverUrl: rx.url,
      output: svc.output(),
      loaded: await probe.loaded(),
    };
  } finally {
    rx.server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function expectRequestThenPlatformCall(r: Awaited<ReturnType<typeof tracedRead>>) {
  expect(r.status).toBe(200);
  const trace = r.spans.filter((s) => s.traceId === r.traceId);
  // The server span continues the caller's trace, under the caller's span.
  const server = trace.find((s) => s.kind === 2 && attr(s, 'http.route') === '/api/video/contacts');
  expect(server, JSON.stringify(r.spans.map((s) => s.name))).toBeDefined();
  if (!server) return;
  expect(server.parentSpanId).toBe(r.parentId);
  expect(server.name).toBe('GET /api/video/contacts');
  expect(server.service).toBe('fleetgate-under-test');
  expect(attr(server, 'http.request.method')).toBe('GET');
  expect(attr(server, 'http.response.status_code')).toBe(200);
  expect(attr(server, 'url.path')).toBe('/api/video/contacts');
  // The platform call is a client span under it, in the same trace.
  const clients = trace.filter((s) => s.kind === 3 && s.parentSpanId === server.spanId);
  expect(clients.length).toBeGreaterThanOrEqual(1);
  const call = clients[0];
  if (!call) return;
  expect(call.name).toBe('GET');
  expect(attr(call, 'http.request.method')).toBe('GET');
  expect(attr(call, 'http.response.status_code')).toBe(200);
  expect(String(attr(call, 'url.full'))).toMatch(
    /^http:\/\/127\.0\.0\.1:\d+\/v2\/chat\/users\/me\/contacts$/,
  );
  expect(attr(call, 'server.address')).toBe('127.0.0.1');
  expect(call.events.map((e) => e.name)).toContain('platform.attempt');
  // Nothing secret anywhere: no bearer, no API key, no query string, in any span of any trace.
  for (const s of r.spans) {
    for (const a of [...s.attributes, ...s.events.flatMap((e) => e.attributes)]) {
      const v = String(a.value);
      expect(v).not.toContain(API_KEY);
      expect(v).not.toContain(WEBHOOK_SECRET);
      expect(v.toLowerCase()).not.toContain('bearer');
      if (a.key === 'url.full' || a.key === 'url.path') expect(v).not.toContain('?');
    }
  }
  for (const body of r.received) expect(body.body.toString('latin1')).not.toContain(API_KEY);
  // The request's log lines carry its trace id.
  const lines = r.output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { trace_id?: string; msg?: string });
  expect(lines.some((l) => l.trace_id === r.traceId)).toBe(true);
  // The SDK was loaded (the probe works).
  expect(r.loaded.filter((s) => SDK.test(s)).length).toBeGreaterThan(0);
}

describe('tracing to an OTLP/HTTP receiver', () => {
  it('exports one trace, request → platform call, as OTLP JSON (http/json), and spans for webhooks in and out', async () => {
    const r = await tracedRead('http/json', true);
    expect(r.received.length).toBeGreaterThan(0);
    for (const x of r.received) expect(x.contentType).toMatch(/^application\/json/);
    expectRequestThenPlatformCall(r);
    // The platform's delivery: an intake span under the intake request's server span.
    const intake = r.spans.find(
      (s) => s.name === 'webhook intake' && attr(s, 'fleetgate.webhook.event') === 'meeting.started',
    );
    expect(intake).toBeDefined();
    const intakeRequest = r.spans.find((s) => s.spanId === intake?.parentSpanId);
    expect(intakeRequest?.kind).toBe(2);
    expect(intakeRequest?.traceId).toBe(intake?.traceId);
    expect(attr(intakeRequest as FlatSpan, 'http.route')).toBe('/api/video/webhooks');
    // Its announcement to the subscriber: a delivery span, a trace of its own, linked to the
    // intake span whose change wrote the message.
    const delivery = r.spans.find(
      (s) => s.name === 'webhook delivery' && attr(s, 'fleetgate.webhook.type') === 'event.started',
    );
    expect(delivery?.kind).toBe(3);
    expect(delivery?.parentSpanId).toBe('');
    expect(delivery?.traceId).not.toBe(intake?.traceId);
    expect(delivery?.links).toEqual([{ traceId: intake?.traceId, spanId: intake?.spanId }]);
    expect(attr(delivery as FlatSpan, 'fleetgate.webhook.cause_trace_id')).toBe(intake?.traceId);
    // The event's creation: its delivery links to the creating request's server span.
    const create = r.spans.find((s) => s.kind === 2 && attr(s, 'http.route') === '/api/video/events');
    expect(create?.name).toBe('POST /api/video/events');
    const created = r.spans.find(
      (s) => s.name === 'webhook delivery' && attr(s, 'fleetgate.webhook.type') === 'event.created',
    );
    expect(created?.parentSpanId).toBe('');
    expect(created?.links).toEqual([{ traceId: create?.traceId, spanId: create?.spanId }]);
    expect(attr(delivery as FlatSpan, 'http.response.status_code')).toBe(204);
    expect(attr(delivery as FlatSpan, 'url.full')).toBe(`${r.receiverUrl}/hook`);
    expect(String(attr(delivery as FlatSpan, 'fleetgate.webhook.message_id'))).toMatch(/^msg_/);
  });

  it('exports the same trace as OTLP protobuf (http/protobuf)', async () => {
    const r = await tracedRead('http/protobuf');
    expect(r.received.length).toBeGreaterThan(0);
    for (const x of r.received) expect(x.contentType).toBe('application/x-protobuf');
    expectRequestThenPlatformCall(r);
  });
});

describe('tracing off', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-untraced-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('without OTEL_EXPORTER_OTLP_ENDPOINT the SDK is never loaded, and log lines carry no trace id', async () => {
    const probe = await moduleProbe(dir);
    const env: Record<string, string> = {
      FLEETGATE_DATA_DIR: path.join(dir, 'data'),
      BRAND_WATCH: '0',
      FLEETGATE_API_KEY: API_KEY,
      LOG_LEVEL: 'info',
      // Set to nothing, so none comes from the test runner's own environment.
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      OTEL_EXPORTER_OTLP_PROTOCOL: '',
      OTEL_SERVICE_NAME: '',
      ...probe.env,
    };
    const svc = await startService(env);
    try {
      const res = await fetch(`${svc.base}/api/video/contacts`, {
        headers: {
          authorization: `Bearer ${API_KEY}`,
          traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`,
        },
      });
      expect(res.status).toBe(200);
    } finally {
      expect(await svc.stop('SIGTERM')).toBe(0);
    }
    expect((await probe.loaded()).filter((s) => SDK.test(s))).toEqual([]);
    expect(svc.output()).not.toContain('trace_id');
  });

  it('is configured by the standard variables only; a protocol other than http/json or http/protobuf is refused at start', () => {
    expect(parseConfig({}).tracing).toBeUndefined();
    expect(
      parseConfig({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).tracing,
    ).toBeUndefined();
    expect(parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing).toEqual({
      endpoint: 'http://collector:4318',
      protocol: 'http/protobuf',
      serviceName: 'fleetgate',
    });
    expect(() => parseConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(ConfigError);
    expect(() => parseConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL: must be http\/json or http\/protobuf, not "grpc"/,
    );
    expect(() => parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/,
    );
  });
});
