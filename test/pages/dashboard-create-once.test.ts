/**
 * The dashboard's "new event" form creates at most once per rendered form: each render carries a
 * fresh idempotency key, and a resubmission (a double click, a browser retry) replays the first
 * creation through the shared invoke instead of booking a second meeting (counted by the emulator).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint, IDEMPOTENCY_KEY_PATTERN } from '../../src/gateway/capabilities/idempotent-invoke.js';
import { operationOf, parseInput } from '../../src/gateway/capabilities/registry.js';
import { eventInput } from '../../src/pages/dashboard/event-form.js';
import { startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { storedEvents } from '../helpers/stored-events.js';
import { dashboardClient, type DashboardClient, type Res } from './dashboard-client.js';

let e: GatewayEnv;
let client: DashboardClient;
let cookie: string;
beforeAll(async () => {
  e = await startGateway();
  await e.link();
  client = dashboardClient(e.base);
  cookie = await client.signIn();
});
afterAll(() => e.close());

const meetingsCreated = async (): Promise<number> =>
  (await e.emu.api('GET', '/_sandbox/stats')).json.requests['POST /v2/users/me/meetings'] ?? 0;

/** One render of the signed-in page: its CSRF token and the create form's key. */
async function render() {
  const r = await client.http('GET', '/dashboard', { cookie });
  expect(r.status).toBe(200);
  const csrf = /name="csrf" value="([^"]+)"/.exec(r.text)?.[1] ?? '';
  const createForm = r.text.slice(r.text.indexOf('action="/dashboard/events"'));
  const key = /^[^]*?<\/form>/.exec(createForm)?.[0].match(/name="idempotency_key" value="([^"]+)"/)?.[1];
  return { csrf, key };
}

/** The notice the next page shows after a form's redirect, as a browser follows it. */
async function noticeAfter(r: Res): Promise<string> {
  expect(r.status).toBe(303);
  expect(r.headers.get('location')).toBe('/dashboard');
  const flash = r.cookies.find((c) => c.startsWith('fg_flash='))?.split(';')[0] ?? '';
  const page = await client.http('GET', '/dashboard', { cookie: `${cookie}; ${flash}` });
  return /role="(?:status|alert)">([^]*?)<\/div>/.exec(page.text)?.[1] ?? '';
}

let n = 0;
const formFor = (csrf: string, key: string | undefined) => ({
  csrf,
  ...(key !== undefined ? { idempotency_key: key } : {}),
  topic: `Sent twice ${++n}`,
  start: '2031-05-06T09:30',
  timezone: 'UTC',
  duration: '30',
  funnel: 'freight',
});

const post = (form: Record<string, string>) => client.http('POST', '/dashboard/events', { cookie, form });

describe('the dashboard create form', () => {
  it('carries a fresh idempotency key in a hidden field on every render', async () => {
    const a = await render();
    const b = await render();
    expect(a.key).toMatch(new RegExp(IDEMPOTENCY_KEY_PATTERN));
    expect(b.key).toMatch(new RegExp(IDEMPOTENCY_KEY_PATTERN));
    expect(a.key).not.toBe(b.key);
  });

  it('creates once when the same form is sent twice, and redirects both the same way', async () => {
    const { csrf, key } = await render();
    const form = formFor(csrf, key);
    const count = await meetingsCreated();
    const first = await post(form);
    const again = await post(form);
    expect(await meetingsCreated()).toBe(count + 1);
    const stored = (await storedEvents(e.store, {})).filter((x) => x.topic === form.topic);
    expect(stored).toHaveLength(1);
    const id = stored[0]?.videoId ?? '';
    expect(await noticeAfter(first)).toContain(`Created “${form.topic}” (id ${id}) in the freight funnel.`);
    const replayed = await noticeAfter(again);
    expect(replayed).toContain(`Created “${form.topic}” (id ${id}) in the freight funnel.`);
    expect(replayed).toContain('nothing new was created');
    // The next render's form is a new one: it creates again.
    const next = await render();
    expect(
      await noticeAfter(await post({ ...form, csrf: next.csrf, idempotency_key: next.key ?? '' })),
    ).toMatch(/^Created /);
    expect(await meetingsCreated()).toBe(count + 2);
  });

  it('refuses the same form sent back with other values, creating nothing', async () => {
    const { csrf, key } = await render();
    const form = formFor(csrf, key);
    await post(form);
    const count = await meetingsCreated();
    const changed = await post({ ...form, topic: `${form.topic} changed` });
    expect(await noticeAfter(changed)).toContain('This form was already sent with other values');
    expect(await meetingsCreated()).toBe(count);
  });

  it('waits for a first send still running and answers with its event', async () => {
    const { csrf, key = '' } = await render();
    const form = formFor(csrf, key);
    const op = operationOf('meetings', 'create_meeting');
    const input = parseInput(op.input, eventInput(new URLSearchParams(form)));
    // The claim the first send holds while the platform call runs.
    await e.store.putIdempotent({
      key,
      requestHash: fingerprint('meetings', 'create_meeting', input),
      status: 0,
      body: '',
      createdAt: new Date().toISOString(),
    });
    let seen!: () => void;
    const looked = new Promise<void>((resolve) => (seen = resolve));
    const get = e.store.getIdempotent.bind(e.store);
    e.store.getIdempotent = async (k) => {
      const r = await get(k);
      if (k === key) seen();
      return r;
    };
    try {
      const count = await meetingsCreated();
      const second = post(form);
      await looked;
      // The first send finishes after the second found it running, with a whole event (the
      // invoke holds a replayed answer to the operation's output schema too).
      const now = new Date().toISOString();
      const body = {
        video_id: '424242',
        topic: form.topic,
        kind: 'meeting',
        start_time: now,
        funnel: 'freight',
        status: 'scheduled',
        timezone: null,
        duration: 30,
        agenda: null,
        registration: false,
        join_url: null,
        created_at: now,
        updated_at: now,
      };
      await e.store.finishIdempotent(key, 200, JSON.stringify(body));
      expect(await noticeAfter(await second)).toContain(`Created “${form.topic}” (id 424242)`);
      expect(await meetingsCreated()).toBe(count);
    } finally {
      e.store.getIdempotent = get;
    }
  });
});
