/** The `search_meetings` tool: keyword search over meetings with date bounds and signed page tokens. */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { MeetingDoc } from './docs.js';
import { type Match, scoreDoc, terms } from './text.js';

export class McpToolError extends Error {}

export interface SearchArgs {
  q?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page_size?: number | undefined;
  next_page_token?: string | undefined;
}

export interface SearchHit {
  id: number;
  uuid: string;
  topic: string;
  start_time: string;
  duration: number;
  timezone: string;
  has_summary: boolean;
  has_transcript: boolean;
  matches: Match[];
}

export interface SearchResult {
  page_size: number;
  total_records: number;
  next_page_token: string;
  meetings: SearchHit[];
}

export const PAGE_TOKEN_TTL_MS = 15 * 60_000;

/** `yyyy-mm-dd` or an ISO date-time; a bare `to` date covers its whole day. */
export function bound(value: string | undefined, name: string, end: boolean): number | undefined {
  if (value === undefined || value === '') return undefined;
  const v = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T${end ? '23:59:59.999' : '00:00:00'}Z` : value;
  const t = /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(t)) throw new McpToolError(`Invalid parameter: ${name}.`);
  return t;
}

export function signToken(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22);
}

/** Keyword search over the meetings, best matches first (newest first when q is empty). */
export function searchMeetings(
  docs: MeetingDoc[],
  args: SearchArgs,
  opts: { now: Date; secret: string },
): SearchResult {
  const from = bound(args.from, 'from', false);
  const to = bound(args.to, 'to', true);
  if (from !== undefined && to !== undefined && from > to) throw new McpToolError('Invalid parameter: to.');
  const size = Math.min(Math.max(1, Math.floor(args.page_size ?? 50)), 300);
  const want = new Set(terms(args.q ?? ''));
  const scoped = docs.filter((d) => {
    const t = Date.parse(d.start_time);
    return (from === undefined || t >= from) && (to === undefined || t <= to);
  });
  const ranked = scoped
    .map((d) => ({ d, ...(want.size ? scoreDoc(d, want) : { score: 1, matches: [] }) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || b.d.start_time.localeCompare(a.d.start_time) || a.d.id - b.d.id);

  // Stateless page tokens: offset + the query they belong to + expiry, signed.
  const query = createHash('sha256')
    .update(JSON.stringify([[...want].sort(), from ?? null, to ?? null]))
    .digest('base64url')
    .slice(0, 12);
  let offset = 0;
  if (args.next_page_token) {
    const [payload, sig] = args.next_page_token.split('.');
    const got = Buffer.from(sig ?? '');
    const expected = Buffer.from(payload === undefined ? '' : signToken(opts.secret, payload));
    const good =
      payload !== undefined &&
      got.length === expected.length &&
      expected.length > 0 &&
      timingSafeEqual(got, expected);
    const parts = good ? Buffer.from(payload, 'base64url').toString('utf8').split('|') : [];
    const [o, qh, exp] = [Number(parts[0]), parts[1], Number(parts[2])];
    if (!good || qh !== query || !Number.isInteger(o) || o < 0 || !(exp > opts.now.getTime())) {
      throw new McpToolError('The next page token is invalid or expired.');
    }
    offset = o;
  }
  const page = ranked.slice(offset, offset + size);
  let next = '';
  if (offset + size < ranked.length) {
    const payload = Buffer.from(
      `${offset + size}|${query}|${opts.now.getTime() + PAGE_TOKEN_TTL_MS}`,
    ).toString('base64url');
    next = `${payload}.${signToken(opts.secret, payload)}`;
  }
  return {
    page_size: size,
    total_records: ranked.length,
    next_page_token: next,
    meetings: page.map(({ d, matches }) => ({
      id: d.id,
      uuid: d.uuid,
      topic: d.topic,
      start_time: d.start_time,
      duration: d.duration,
      timezone: d.timezone,
      has_summary: d.summary !== undefined,
      has_transcript: d.transcript !== undefined,
      matches,
    })),
  };
}
