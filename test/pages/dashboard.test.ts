/**
 * The operator dashboard over real HTTP against a gateway and the emulator: sign-in and the
 * session cookie's flags, CSRF on every form and on cookie-authenticated API writes, creating
 * an event with a funnel, changing it, deleting it after a confirmation page, registrations,
 * webhooks, the time-zone picker, disconnect and sign-out; every page passes html-validate.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TTL_MS, issueSession, verifySession } from '../../src/http/auth/session.js';
import { buildTestApp, eventually } from '../helpers/build-test-app.js';
import { htmlProblems } from '../helpers/validate-html.js';
import { API_KEY, startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { dashboardClient, type DashboardClient, type Res } from './dashboard-client.js';
import { storedEvents } from '../helpers/stored-events.js';

let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway();
  await e.link();
  e.emu.options.webhookUrl = `${e.base}/api/video/webhooks`;
});
afterAll(() => e.close());

// The browser's requests, as test/pages/dashboard-client.ts makes them for every dashboard test.
const http: DashboardClient['http'] = (method, path, o) => dashboardClient(e.base).http(method, path, o);

const cookieNamed = (r: Res, name: string) => r.cookies.find((c) => c.startsWith(`${name}=`));

/** Signs in through the form; returns the cookie header to send from then on. */
async function signIn(): Promise<string> {
  const r = await http('POST', '/dashboard/login', { form: { key: API_KEY } });
  expect(r.status).toBe(303);
  const set = cookieNamed(r, 'fg_session');
  expect(set).toBeDefined();
  return (set ?? '').split(';')[0] ?? '';
}

/** The dashboard page, following one flash cookie along as a browser would. */
async function dashboard(cookie: string, flash?: Res) {
  const f = flash && cookieNamed(flash, 'fg_flash')?.split(';')[0];
  const r = await http('GET', '/dashboard', { cookie: [cookie, f].filter(Boolean).join('; ') });
  expect(r.status).toBe(200);
  const csrf = /name="csrf" value="([^"]+)"/.exec(r.text)?.[1] ?? '';
  return { ...r, csrf };
}

describe('dashboard sign-in', () => {
  it('answers 404 in a brand-only build', async () => {
    const t = await buildTestApp();
    try {
      expect((await t.app.inject({ method: 'GET', url: '/dashboard' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('shows the sign-in form with a strict CSP when signed out', async () => {
    const r = await http('GET', '/dashboard');
    expect(r.status).toBe(200);
    expect(r.text).toContain('action="/dashboard/login"');
    expect(r.text).toMatch(/<label for="key">API key<\/label>/);
    const csp = r.headers.get('content-security-policy') ?? '';
    for (const d of [
      "default-src 'none'",
      "script-src 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ])
      expect(csp).toContain(d);
    expect(csp).not.toContain('unsafe-inline');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.text).not.toMatch(/<script>|<style>| style=/);
  });

  it('refuses a wrong key with the form again, status 401 and no cookie', async () => {
    const r = await http('POST', '/dashboard/login', { form: { key: 'not-the-key' } });
    expect(r.status).toBe(401);
    expect(r.text).toContain('That is not the gateway API key.');
    expect(r.text).toContain('action="/dashboard/login"');
    expect(r.cookies).toEqual([]);
    expect((await http('POST', '/dashboard/login', { form: {} })).status).toBe(401);
  });

  it('sets an HttpOnly, SameSite=Strict, path-wide session cookie that expires in 12 hours', async () => {
    const r = await http('POST', '/dashboard/login', { form: { key: API_KEY } });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/dashboard');
    const set = cookieNamed(r, 'fg_session') ?? '';
    expect(set).toMatch(/; HttpOnly/i);
    expect(set).toMatch(/; SameSite=Strict/i);
    expect(set).toMatch(/; Path=\/(;|$)/);
    expect(set).toMatch(/; Max-Age=43200/);
    const expires = Date.parse(/Expires=([^;]+)/.exec(set)?.[1] ?? '');
    expect(Math.abs(expires - (Date.now() + SESSION_TTL_MS))).toBeLessThan(60_000);
    expect(set).not.toMatch(/Secure/i);
  });

  it('marks the cookie Secure when PUBLIC_URL is https', async () => {
    const s = await startGateway({ env: { PUBLIC_URL: 'https://video.example.com' } });
    try {
      const res = await fetch(`${s.base}/dashboard/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `key=${API_KEY}`,
        redirect: 'manual',
      });
      expect(res.headers.getSetCookie().find((c) => c.startsWith('fg_session='))).toMatch(/; Secure/i);
    } finally {
      await s.close();
    }
  });

  it('verifies tokens without server state: tampering, expiry and a rotated API key all fail', () => {
    const hash = createHmac('sha256', 'k').update('a').digest();
    const other = createHmac('sha256', 'k').update('b').digest();
    const now = Date.now();
    const { token, session } = issueSession(hash, now);
    expect(verifySession(hash, token, now + 1000)).toEqual(session);
    expect(verifySession(other, token, now)).toBeUndefined();
    expect(verifySession(hash, token, now + SESSION_TTL_MS)).toBeUndefined();
    const [exp, nonce, sig] = token.split('.');
    expect(verifySession(hash, `${Number(exp) + 1}.${nonce}.${sig}`, now)).toBeUndefined();
    // A different first character (a last one may differ only in base64 padding bits).
    const forged = `${sig?.startsWith('A') ? 'B' : 'A'}${sig?.slice(1) ?? ''}`;
    expect(verifySession(hash, `${exp}.${nonce}.${forged}`, now)).toBeUndefined();
    expect(verifySession(hash, 'garbage', now)).toBeUndefined();
    expect(verifySession(hash, undefined, now)).toBeUndefined();
  });
});

describe('the signed-in dashboard', () => {
  it('shows the status report, the monitor, the link controls and the recordings', async () => {
    const cookie = await signIn();
    const d = await dashboard(cookie);
    const status = (await e.api('GET', '/api/video/status')).json;
    expect(d.text).toContain('Operator dashboard');
    expect(d.text).toContain(status.account.email);
    expect(d.text).toContain(status.account.name);
    expect(d.text).toContain('Webinar licence');
    if (status.note) expect(d.text).toContain(status.note.replaceAll("'", '&#39;'));
    // Linked already: the control offers to link again, not to link.
    expect(d.text).toContain('href="/api/video/oauth/start">Relink account</a>');
    expect(d.text).not.toContain('>Link account</a>');
    expect(d.text).toContain('action="/dashboard/disconnect"');
    const monitor = (await e.api('GET', '/api/video/monitor')).json;
    for (const [group, g] of Object.entries<any>(monitor.groups)) {
      expect(d.text).toContain(`<span class="group-name">${group}</span>`);
      for (const c of g.capabilities) expect(d.text).toContain(`<code>${c.name}</code>`);
    }
    for (const r of status.recentRecordings) expect(d.text).toContain(r.start_time);
    expect(d.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(d.csrf.length).toBeGreaterThan(20);
    expect(d.text).toContain(`<meta name="csrf-token" content="${d.csrf}"`);
  });

  it('serves its stylesheet and script from this origin', async () => {
    const css = await http('GET', '/dashboard.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(css.text).toContain('var(--colors-');
    const js = await http('GET', '/dashboard.js');
    // text/javascript, as the document declares (RFC 9239 made application/javascript obsolete).
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(
      (await http('GET', '/dashboard.css', { headers: { 'if-none-match': css.headers.get('etag') ?? '' } }))
        .status,
    ).toBe(304);
  });

  it('refuses every form without the session’s CSRF token and changes nothing', async () => {
    const cookie = await signIn();
    const before = (await storedEvents(e.store, {})).length;
    const form = { topic: 'Forged', start: '2031-01-01T10:00', timezone: 'UTC', duration: '30' };
    const none = await http('POST', '/dashboard/events', { cookie, form });
    expect(none.status).toBe(403);
    expect(none.text).toContain('Form refused');
    const other = await http('POST', '/dashboard/events', {
      cookie: await signIn(),
      form: { ...form, csrf: (await dashboard(cookie)).csrf },
    });
    expect(other.status).toBe(403);
    expect((await http('POST', '/dashboard/disconnect', { cookie, form: { csrf: 'x' } })).status).toBe(403);
    expect((await http('POST', '/dashboard/logout', { cookie, form: {} })).status).toBe(403);
    expect(await storedEvents(e.store, {})).toHaveLength(before);
    expect(await e.store.getLink()).toBeDefined();
    // Without a session at all, a form just leads back to sign-in.
    const anon = await http('POST', '/dashboard/events', { form });
    expect(anon.status).toBe(303);
    expect(anon.headers.get('location')).toBe('/dashboard');
  });

  it('takes forms only as application/x-www-form-urlencoded', async () => {
    const cookie = await signIn();
    const r = await http('POST', '/dashboard/events', { cookie, json: { topic: 'JSON' } });
    expect(r.status).toBe(415);
  });

  it('lets the session cookie authenticate API reads, and writes only with x-csrf-token', async () => {
    const cookie = await signIn();
    const { csrf } = await dashboard(cookie);
    const read = await http('GET', '/api/video/status', { cookie });
    expect(read.status).toBe(200);
    expect(JSON.parse(read.text).ok).toBe(true);
    const body = { topic: 'Cookie write', start_time: '2031-02-01T10:00:00Z', funnel: 'freight' };
    const noToken = await http('POST', '/api/video/events', { cookie, json: body });
    expect(noToken.status).toBe(403);
    expect(JSON.parse(noToken.text).error.code).toBe('csrf_token_required');
    const badToken = await http('POST', '/api/video/events', {
      cookie,
      json: body,
      headers: { 'x-csrf-token': 'nope' },
    });
    expect(badToken.status).toBe(403);
    const ok = await http('POST', '/api/video/events', {
      cookie,
      json: body,
      headers: { 'x-csrf-token': csrf },
    });
    expect(ok.status).toBe(201);
    // No credentials, a forged cookie, or a wrong key beside a good cookie: 401 as before.
    expect((await http('GET', '/api/video/status')).status).toBe(401);
    expect((await http('GET', '/api/video/status', { cookie: `${cookie}x` })).status).toBe(401);
    expect(
      (await http('GET', '/api/video/status', { cookie, headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    expect((await e.api('GET', '/api/video/status')).status).toBe(200);
  });

  it('creates an event with a funnel, lists it, changes its funnel and shows its registrations', async () => {
    const cookie = await signIn();
    const { csrf } = await dashboard(cookie);
    const created = await http('POST', '/dashboard/events', {
      cookie,
      form: {
        csrf,
        topic: 'Fleet <b>open</b> day',
        start: '2031-03-04T09:30',
        timezone: 'America/Chicago',
        duration: '45',
        funnel: 'capital',
        registration: 'on',
      },
    });
    expect(created.status).toBe(303);
    expect(created.headers.get('location')).toBe('/dashboard');
    const stored = (await storedEvents(e.store, {})).find((x) => x.topic === 'Fleet <b>open</b> day');
    expect(stored).toMatchObject({
      startTime: '2031-03-04T09:30:00',
      timezone: 'America/Chicago',
      duration: 45,
      funnel: 'capital',
      registration: true,
    });
    const id = stored?.videoId ?? '';
    const after = await dashboard(cookie, created);
    expect(after.text).toContain('role="status">Created “Fleet &lt;b&gt;open&lt;/b&gt; day”');
    expect(after.text).not.toContain('<b>open</b>');
    const row = after.text.slice(after.text.indexOf(`data-video-id="${id}"`));
    expect(row).toMatch(/^[^]*?data-funnel="capital">Meridian Capital<\/span>/);
    expect(row).toContain('America/Chicago');

    const changed = await http('POST', `/dashboard/events/${id}/funnel`, {
      cookie,
      form: { csrf, funnel: 'freight' },
    });
    expect(changed.status).toBe(303);
    expect((await e.store.getEvent(id))?.funnel).toBe('freight');
    const page = await dashboard(cookie, changed);
    expect(page.text).toContain('is now in the freight funnel');

    const reg = await e.api('POST', `/api/video/events/${id}/registrations`, {
      body: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    });
    expect(reg.status).toBe(201);
    const withReg = await dashboard(cookie);
    expect(withReg.text).toContain('1 registered');
    expect(withReg.text).toContain('&lt;ada@example.com&gt;');

    const cleared = await http('POST', `/dashboard/events/${id}/funnel`, {
      cookie,
      form: { csrf, funnel: '' },
    });
    expect(cleared.status).toBe(303);
    expect((await e.store.getEvent(id))?.funnel).toBeNull();
  });

  it('shows gateway errors as a notice on the page, not a stack', async () => {
    const cookie = await signIn();
    const { csrf } = await dashboard(cookie);
    const bad = await http('POST', '/dashboard/events', {
      cookie,
      form: { csrf, topic: 'No time', start: '', timezone: 'UTC', duration: '30', funnel: 'nope' },
    });
    expect(bad.status).toBe(303);
    const page = await dashboard(cookie, bad);
    expect(page.text).toMatch(
      /role="alert"><strong>Error:<\/strong> The input is not valid\. \(start_time: /,
    );
    const missing = await http('POST', '/dashboard/events/999999/funnel', {
      cookie,
      form: { csrf, funnel: 'freight' },
    });
    const p2 = await dashboard(cookie, missing);
    expect(p2.text).toContain('No stored event 999999.');
    const wrongFunnel = (await storedEvents(e.store, {}))[0]?.videoId ?? '';
    const p3 = await dashboard(
      cookie,
      await http('POST', `/dashboard/events/${wrongFunnel}/funnel`, {
        cookie,
        form: { csrf, funnel: 'nope' },
      }),
    );
    expect(p3.text).toContain('funnel &quot;nope&quot; is not a live funnel theme.');
    expect(p3.text).not.toMatch(/at .*\.ts:\d+/);
    // The notice is shown once: the next page has none.
    expect((await dashboard(cookie)).text).not.toContain('role="alert"');
  });

  it('lists recent webhook deliveries', async () => {
    const cookie = await signIn();
    const [ev] = await storedEvents(e.store, {});
    await e.emu.api('POST', '/_sandbox/webhooks/send', {
      body: { event: 'meeting.started', object: { id: ev?.videoId, topic: ev?.topic } },
    });
    await eventually(async () => expect((await e.store.recentWebhooks(5)).length).toBeGreaterThan(0));
    expect((await dashboard(cookie)).text).toContain('<code>meeting.started</code>');
  });

  it('deletes an event only after a confirmation page, on the platform as well as here', async () => {
    const cookie = await signIn();
    const created = await e.api('POST', '/api/video/events', {
      body: { topic: 'Gone <soon>', start_time: '2031-06-01T10:00:00Z', registration: true },
    });
    expect(created.status).toBe(201);
    const id: string = created.json.video_id;
    await e.api('POST', `/api/video/events/${id}/registrations`, {
      body: { email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' },
    });
    const before = await dashboard(cookie);
    const row = before.text.slice(before.text.indexOf(`data-video-id="${id}"`));
    expect(row).toMatch(
      new RegExp(
        `^[^]*?<a\\s+class="button small danger"\\s+href="/dashboard/events/${id}/delete"\\s*>Delete`,
      ),
    );

    // The link only asks: a page naming the event, its registrations and what deleting does.
    const confirm = await http('GET', `/dashboard/events/${id}/delete`, { cookie });
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get('cache-control')).toBe('no-store');
    expect(confirm.text).toContain('Gone &lt;soon&gt;');
    expect(confirm.text).toContain('1 registration');
    expect(confirm.text).toContain(`action="/dashboard/events/${id}/delete"`);
    expect(confirm.text).toContain('href="/dashboard">Keep it</a>');
    expect(await htmlProblems(confirm.text)).toEqual([]);
    expect(await e.store.getEvent(id)).toBeDefined();
    const csrf = /name="csrf" value="([^"]+)"/.exec(confirm.text)?.[1] ?? '';
    expect(csrf.length).toBeGreaterThan(20);

    // The form itself needs the session's token like every other.
    const forged = await http('POST', `/dashboard/events/${id}/delete`, { cookie, form: { csrf: 'x' } });
    expect(forged.status).toBe(403);
    expect(await e.store.getEvent(id)).toBeDefined();

    const r = await http('POST', `/dashboard/events/${id}/delete`, { cookie, form: { csrf } });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/dashboard');
    expect(await e.store.getEvent(id)).toBeUndefined();
    const token = (await e.emu.userToken()).access_token;
    expect((await e.emu.api('GET', `/v2/meetings/${id}`, { token })).status).toBe(404);
    const after = await dashboard(cookie, r);
    expect(after.text).toContain('role="status">Deleted “Gone &lt;soon&gt;” (id ' + id);
    expect(after.text).not.toContain(`data-video-id="${id}"`);

    // Once gone: the confirmation page is a 404 and a repeated post a notice, not a stack.
    const stale = await http('GET', `/dashboard/events/${id}/delete`, { cookie });
    expect(stale.status).toBe(404);
    expect(stale.text).toContain(`No stored event ${id}.`);
    expect(await htmlProblems(stale.text)).toEqual([]);
    const again = await http('POST', `/dashboard/events/${id}/delete`, { cookie, form: { csrf } });
    expect((await dashboard(cookie, again)).text).toContain(`No stored event ${id}.`);
    // Signed out, the confirmation page leads to sign-in.
    const anon = await http('GET', `/dashboard/events/${id}/delete`);
    expect(anon.status).toBe(303);
    expect(anon.headers.get('location')).toBe('/dashboard');
  });

  it('groups the time zones by region with the place names, UTC first, every zone once', async () => {
    const d = await dashboard(await signIn());
    const from = d.text.indexOf('<select id="ev-tz"');
    const select = d.text.slice(from, d.text.indexOf('</select>', from));
    const zones = Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC');
    const regions = [...new Set(zones.map((z) => z.split('/')[0]))].sort();
    expect([...select.matchAll(/<optgroup label="([^"]+)">/g)].map((m) => m[1])).toEqual(regions);
    const values = [...select.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]);
    expect(values[0]).toBe('UTC');
    expect(select).toMatch(/<option value="UTC" selected>UTC<\/option>/);
    expect(values.slice(1).sort()).toEqual([...zones].sort());
    expect(select).toMatch(
      /<optgroup label="America">[^]*?<option value="America\/Chicago">Chicago<\/option>/,
    );
    expect(select).toContain('<option value="America/Argentina/San_Juan">Argentina / San Juan</option>');
    expect(select).toMatch(/<optgroup label="Europe">[^]*?<option value="Europe\/Berlin">Berlin<\/option>/);
  });

  it('serves pages that pass html-validate, headings in order included', async () => {
    const cookie = await signIn();
    const pages: [string, string][] = [
      ['sign-in', (await http('GET', '/dashboard')).text],
      ['refused sign-in', (await http('POST', '/dashboard/login', { form: { key: 'nope' } })).text],
      ['relay', (await http('GET', '/dashboard?linked=1')).text],
      ['resumed', (await http('GET', '/dashboard?linked=1&resumed=1')).text],
      ['signed in', (await dashboard(cookie)).text],
      ['form refused', (await http('POST', '/dashboard/events', { cookie, form: { topic: 'x' } })).text],
      ['oauth callback error', (await http('GET', '/api/video/oauth/callback?state=x&code=y')).text],
    ];
    // The signed-in page with what makes it longest: events with registrations and deliveries.
    expect(pages[4]?.[1]).toContain('registered</summary>');
    const problems: string[] = [];
    for (const [name, text] of pages)
      problems.push(...(await htmlProblems(text)).map((p) => `${name}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('resumes after the OAuth round trip, where a browser may withhold the Strict cookie', async () => {
    const relay = await http('GET', '/dashboard?linked=1');
    expect(relay.text).toContain(
      '<meta http-equiv="refresh" content="0;url=/dashboard?linked=1&amp;resumed=1"',
    );
    const resumed = await http('GET', '/dashboard?linked=1&resumed=1');
    expect(resumed.text).toContain('The platform account is linked. Sign in to see it.');
    expect(resumed.text).toContain('action="/dashboard/login"');
    const page = await dashboard(await signIn());
    expect(page.text).not.toContain('The platform account is linked.');
    const linked = await http('GET', '/dashboard?linked=1', { cookie: await signIn() });
    expect(linked.text).toContain('role="status">The platform account is linked.</div>');
  });

  it('disconnects the account through the form, then signs out', async () => {
    const cookie = await signIn();
    const { csrf } = await dashboard(cookie);
    const r = await http('POST', '/dashboard/disconnect', { cookie, form: { csrf } });
    expect(r.status).toBe(303);
    expect(await e.store.getLink()).toBeUndefined();
    const page = await dashboard(cookie, r);
    expect(page.text).toContain('Disconnected');
    expect(page.text).toContain('none linked');
    expect(page.text).not.toContain('action="/dashboard/disconnect"');
    expect(page.text).toContain('href="/api/video/oauth/start">Link account</a>');
    expect(await htmlProblems(page.text)).toEqual([]);

    const out = await http('POST', '/dashboard/logout', { cookie, form: { csrf } });
    expect(out.status).toBe(303);
    expect(cookieNamed(out, 'fg_session')).toMatch(/^fg_session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/);
    const after = await dashboard('', out);
    expect(after.text).toContain('Signed out.');
    expect(after.text).toContain('action="/dashboard/login"');
    await e.link();
  });
});
