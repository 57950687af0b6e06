/**
 * Shared assertions and settings for the hardening suites: the one error shape with a fitting
 * status, and a tally of what the fuzzers saw (printed, so the README's figures can be re-read).
 */
import { expect } from 'vitest';

/** Our own rate limits off (they have their own suite), platform budgets and daily quotas out of the way. */
export const HARDENING_ENV = {
  FLEETGATE_RATE_LIMIT_API: '0',
  FLEETGATE_RATE_LIMIT_MCP: '0',
  FLEETGATE_RATE_LIMIT_LOGIN: '0',
  FLEETGATE_RATE_BUDGETS: 'light=100000,medium=100000,heavy=100000,resource_intensive=100000',
  FLEETGATE_DAILY_QUOTAS: 'heavy=100000000,meeting_writes_per_user=100000000',
};

/** Client-error statuses the API uses; anything else is a bug in the mapping. */
const CLIENT_ERRORS = new Set([400, 401, 402, 403, 404, 405, 409, 413, 414, 415, 422, 429]);

interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

export function expectErrorShape(res: Answer, label: string): void {
  const where = `${label} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  if (res.statusCode < 400) return;
  expect(String(res.headers['content-type']), where).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as { error?: { code?: unknown; message?: unknown; details?: unknown } };
  expect(Object.keys(body), where).toEqual(['error']);
  expect(body.error?.code, where).toMatch(/^[a-z][a-z0-9_]*$/);
  expect(typeof body.error?.message === 'string' && body.error.message.length > 0, where).toBe(true);
  if (body.error?.details !== undefined) expect(typeof body.error.details, where).toBe('object');
  if (res.statusCode >= 500) {
    // The platform has no public API for some capabilities; that is the one 5xx by design.
    expect({ status: res.statusCode, code: body.error?.code }, where).toEqual({
      status: 501,
      code: 'no_public_api',
    });
  } else expect(CLIENT_ERRORS.has(res.statusCode), where).toBe(true);
}

export function tally() {
  const byStatus = new Map<number, number>();
  const labels = new Set<string>();
  let total = 0;
  return {
    add(label: string, status: number) {
      total += 1;
      labels.add(label);
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    },
    labels: () => labels.size,
    count: (pred: (status: number) => boolean) =>
      [...byStatus].filter(([s]) => pred(s)).reduce((n, [, c]) => n + c, 0),
    report(name: string) {
      const statuses = Object.fromEntries([...byStatus].sort(([a], [b]) => a - b));
      const fiveXX = [...byStatus].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
      console.log(
        `[fuzz:${name}] cases=${total} operations=${labels.size} 5xx=${fiveXX} statuses=${JSON.stringify(statuses)}`,
      );
    },
  };
}
