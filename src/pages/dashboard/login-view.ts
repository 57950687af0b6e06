/**
 * The signed-out pages: the sign-in form (API key in, session cookie out), and the one-step
 * relay that resumes the dashboard after a cross-site redirect chain (see routes.ts).
 */
import type { Notice } from './flash.js';
import { html, page, type BrandView } from './html.js';
import { noticeList } from './parts.js';

export function renderLogin(brand: BrandView, notices: Notice[]): string {
  return page({
    title: 'Sign in',
    brand,
    main: html`<section class="card login" aria-labelledby="login-h">
      <h1 id="login-h">Sign in</h1>
      ${noticeList(notices)}
      <p>Sign in with the gateway's API key (<code>FLEETGATE_API_KEY</code>). The session lasts 12 hours.</p>
      <form method="post" action="/dashboard/login" class="stack">
        <label for="key">API key</label>
        <input
          id="key"
          name="key"
          type="password"
          autocomplete="current-password"
          required
          spellcheck="false"
          autocapitalize="off"
        />
        <button type="submit" class="button primary">Sign in</button>
      </form>
    </section>`,
  });
}

export function renderRelay(brand: BrandView, target: string): string {
  return page({
    title: 'Returning to the dashboard',
    brand,
    head: html`<meta http-equiv="refresh" content="0;url=${target}" />`,
    main: html`<section class="card login" aria-labelledby="relay-h">
      <h1 id="relay-h">Returning to the dashboard</h1>
      <p><a href="${target}">Continue to the dashboard</a></p>
    </section>`,
  });
}

/** A form without this session's CSRF token: nothing was done. */
export function renderRefused(brand: BrandView): string {
  return page({
    title: 'Form refused',
    brand,
    main: html`<section class="card login" aria-labelledby="refused-h">
      <h1 id="refused-h">Form refused</h1>
      ${noticeList([{ kind: 'error', text: 'The form did not carry this session’s security token, so nothing was changed.' }])}
      <p><a href="/dashboard">Back to the dashboard</a></p>
    </section>`,
  });
}
