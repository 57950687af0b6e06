/**
 * The dashboard's monitor shows the rate budgets and daily quotas over real HTTP (quotas small
 * through FLEETGATE_DAILY_QUOTAS): after meeting writes the user's row has the monitor's used
 * and remaining numbers, a spent quota (meeting writes, the shared Heavy one) reads "exhausted"
 * in words, and the page still passes html-validate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlProblems } from '../helpers/validate-html.js';
import { startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { dashboardClient } from './dashboard-client.js';

let e: GatewayEnv;
let cookie: string;
beforeAll(async () => {
  e = await startGateway({ env: { FLEETGATE_DAILY_QUOTAS: 'meeting_writes_per_user=2,heavy=1' } });
  await e.link();
  cookie = await dashboardClient(e.base).signIn();
});
afterAll(() => e.close());

async function page(): Promise<string> {
  const r = await dashboardClient(e.base).http('GET', '/dashboard', { cookie });
  expect(r.status).toBe(200);
  expect(await htmlProblems(r.text)).toEqual([]);
  return r.text;
}

const text = (s: string) =>
  s
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** The cells of the table row whose row header reads `header`, as text, header first. */
function row(html: string, header: string): { exhausted: boolean; cells: string[] } | undefined {
  for (const m of html.matchAll(/<tr( class="exhausted")?>([\s\S]*?)<\/tr>/g)) {
    const cells = [...(m[2] ?? '').matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => text(c[1] ?? ''));
    if (cells[0] === header) return { exhausted: m[1] !== undefined, cells };
  }
  return undefined;
}

const monitor = async () => (await e.api('GET', '/api/video/monitor')).json;
const create = (topic: string, day: number) =>
  e.api('POST', '/api/video/events', { body: { topic, start_time: `2031-03-${day}T17:00:00Z` } });

describe('the dashboard’s rate budgets and daily quotas', () => {
  it('shows each label’s budget left per second and its daily quota, and when they reset', async () => {
    const d = await page();
    const m = await monitor();
    expect(d).toContain('<h3 id="quotas-h">Rate budgets and daily quotas</h3>');
    const light = row(d, 'Light');
    expect(light?.cells[1]).toMatch(/^\d+ of 30 per second$/);
    expect(light?.cells.slice(2)).toEqual([
      'light',
      'no cap',
      expect.stringMatching(/^\d+$/),
      'no cap',
      'available',
    ]);
    expect(row(d, 'Resource-intensive')?.cells[1]).toMatch(/^\d+ of 10 per minute$/);
    expect(row(d, 'Heavy')?.cells.slice(2, 4)).toEqual(['heavy (shared)', '1']);
    const reset = m.dailyQuotas.resetsAt as string;
    expect(d).toContain(`<time datetime="${reset}">${reset.slice(0, 10)} 00:00 UTC</time>`);
    expect(text(d)).toContain('counted in the database, shared by every instance');
    expect(d).toContain('No meeting writes today.');
  });

  it('shows a user’s meeting writes with the monitor’s numbers, then reads exhausted when spent', async () => {
    const user = (await e.store.getLink())?.userId ?? '';
    expect((await create('Quota A', 10)).status).toBe(201);
    let d = await page();
    let u = (await monitor()).dailyQuotas.meetingWrites.users[user];
    expect(u).toEqual({ limit: 2, used: 1, remaining: 1, exhausted: false });
    expect(row(d, user)).toEqual({ exhausted: false, cells: [user, '2', '1', '1', 'available'] });
    expect(text(d)).toContain('Creates, updates and deletes per host user; limit 2 a day.');

    expect((await create('Quota B', 11)).status).toBe(201);
    expect((await create('Quota C', 12)).status).toBe(429);
    d = await page();
    u = (await monitor()).dailyQuotas.meetingWrites.users[user];
    expect(u).toEqual({ limit: 2, used: 2, remaining: 0, exhausted: true });
    expect(row(d, user)).toEqual({ exhausted: true, cells: [user, '2', '2', '0', 'exhausted'] });
  });

  it('reads the shared Heavy quota as exhausted on both labels that draw on it', async () => {
    const heavy = () =>
      e.gateway.platform.call({
        method: 'GET',
        path: '/calendars/users/me/calendarList',
        label: 'HEAVY',
        group: 'calendar',
      });
    // Whether or not the page's own reads spent it, a second Heavy call is past a quota of 1.
    await heavy().catch(() => undefined);
    await expect(heavy()).rejects.toMatchObject({ status: 429, code: 'daily_quota_exhausted' });
    const d = await page();
    const m = await monitor();
    expect(m.dailyQuotas.labels.HEAVY).toMatchObject({ limit: 1, remaining: 0, exhausted: true });
    for (const label of ['Heavy', 'Resource-intensive']) {
      const r = row(d, label);
      expect(r?.exhausted).toBe(true);
      expect(r?.cells.slice(2)).toEqual([
        'heavy (shared)',
        '1',
        String(m.dailyQuotas.labels.HEAVY.used),
        '0',
        'exhausted',
      ]);
    }
  });
});
