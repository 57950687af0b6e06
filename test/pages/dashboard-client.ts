/**
 * A browser's view of one gateway's dashboard over real HTTP: sign in through the form, read
 * the signed-in page's CSRF token, post forms and call the API with the session cookie.
 */
import { expect } from 'vitest';
import { API_KEY } from '../gateway/helpers.js';

export interface Res {
  status: number;
  headers: Headers;
  text: string;
  cookies: string[];
}

export interface DashboardClient {
  http(
    method: string,
    path: string,
    o?: { cookie?: string; form?: Record<string, string>; headers?: Record<string, string>; json?: unknown },
  ): Promise<Res>;
  /** Signs in through the form; the cookie header to send from then on. */
  signIn(key?: string): Promise<string>;
  /** The signed-in page's CSRF token (fails the test when the page is the sign-in form). */
  csrfOf(cookie: string): Promise<string>;
  /** Whether the cookie still stands for a session: the dashboard page, not the sign-in form. */
  signedIn(cookie: string): Promise<boolean>;
}

export function dashboardClient(base: string): DashboardClient {
  const http: DashboardClient['http'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.cookie) headers['cookie'] = o.cookie;
    let body: string | null = null;
    if (o.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(o.form).toString();
    } else if (o.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.json);
    }
    const res = await fetch(`${base}${path}`, { method, headers, body, redirect: 'manual' });
    return {
      status: res.status,
      headers: res.headers,
      text: await res.text(),
      cookies: res.headers.getSetCookie(),
    };
  };
  const page = async (cookie: string) => {
    const r = await http('GET', '/dashboard', { cookie });
    expect(r.status).toBe(200);
    return r.text;
  };
  return {
    http,
    async signIn(key = API_KEY) {
      const r = await http('POST', '/dashboard/login', { form: { key } });
      expect(r.status).toBe(303);
      const set = r.cookies.find((c) => c.startsWith('fg_session='));
      expect(set).toBeDefined();
      return (set ?? '').split(';')[0] ?? '';
    },
    async csrfOf(cookie) {
      const csrf = /name="csrf" value="([^"]+)"/.exec(await page(cookie))?.[1] ?? '';
      expect(csrf.length).toBeGreaterThan(20);
      return csrf;
    },
    async signedIn(cookie) {
      const text = await page(cookie);
      const signInForm = text.includes('action="/dashboard/login"');
      // One or the other, never both: a page that is neither is a test bug.
      expect(signInForm).not.toBe(text.includes('action="/dashboard/logout"'));
      return !signInForm;
    },
  };
}
