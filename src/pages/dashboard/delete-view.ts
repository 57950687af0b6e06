/**
 * Deleting a stored event from the dashboard asks first, on a page of its own: the row's
 * "Delete…" link (a GET, so it changes nothing) leads here, and only this page's form (POST,
 * with the session's CSRF token) deletes. Works the same with or without the script.
 */
import type { StoredEvent } from '../../store/store.js';
import type { Notice } from './flash.js';
import { html, page, type BrandView } from './html.js';
import { csrfField, funnelChip, noticeList, when } from './parts.js';

export function renderDeleteConfirm(p: {
  brand: BrandView;
  csrf: string;
  event: StoredEvent;
  registrations: number;
}): string {
  const e = p.event;
  const id = encodeURIComponent(e.videoId);
  return page({
    title: 'Delete event',
    brand: p.brand,
    controls: html`<form method="post" action="/dashboard/logout">
      ${csrfField(p.csrf)}<button type="submit" class="button on-bar">Sign out</button>
    </form>`,
    main: html`<section class="card login confirm" aria-labelledby="delete-h">
      <h1 id="delete-h">Delete “${e.topic}”?</h1>
      <dl class="facts">
        <div>
          <dt>Starts</dt>
          <dd>${when(e.startTime, e.timezone)}</dd>
        </div>
        <div>
          <dt>Funnel</dt>
          <dd>${funnelChip(e.funnel, p.brand.funnels)}</dd>
        </div>
        <div>
          <dt>Registrations</dt>
          <dd>${p.registrations === 1 ? '1 registration' : `${p.registrations} registrations`}</dd>
        </div>
        <div>
          <dt>Meeting id</dt>
          <dd>${e.videoId}</dd>
        </div>
      </dl>
      <p>
        This deletes the meeting on the platform and the stored event here, with its registrations. Its join
        link stops working. It cannot be undone.
      </p>
      <form method="post" action="/dashboard/events/${id}/delete" class="actions">
        ${csrfField(p.csrf)}
        <button type="submit" class="button danger">Delete event</button>
        <a class="button" href="/dashboard">Keep it</a>
      </form>
    </section>`,
  });
}

/** The confirmation page of an event that is not (or no longer) stored. */
export function renderEventMissing(brand: BrandView, notice: Notice): string {
  return page({
    title: 'Event not found',
    brand,
    main: html`<section class="card login" aria-labelledby="missing-h">
      <h1 id="missing-h">Event not found</h1>
      ${noticeList([notice])}
      <p><a href="/dashboard">Back to the dashboard</a></p>
    </section>`,
  });
}
