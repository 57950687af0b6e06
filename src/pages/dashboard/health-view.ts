/**
 * The link's health history: its last transitions as announced to subscribers (`connection.*`,
 * kept by the store with each link change), newest first, each with the health before and after,
 * why, and for a failed refresh the attempt and the next try. A link that needs relinking (or
 * keeps failing to refresh) gets a Relink button into the OAuth flow.
 */
import type { LinkHealthEntry } from '../../store/store.js';
import { html, type Raw } from './html.js';
import { badge, unavailable, when, type Loaded } from './parts.js';

/** Transitions the dashboard shows. */
export const HEALTH_SHOWN = 10;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function detail(e: LinkHealthEntry): Raw | string {
  if (e.type === 'connection.refresh_failed')
    return html`attempt ${typeof e.data['attempt'] === 'number' ? e.data['attempt'] : '?'}, next try
    ${when(text(e.data['next_attempt_at']))}`;
  if (
    e.type === 'connection.recovered' &&
    typeof e.data['failed_attempts'] === 'number' &&
    e.data['failed_attempts'] > 0
  )
    return `after ${e.data['failed_attempts']} failed attempts`;
  return '';
}

export function healthSection(history: Loaded<LinkHealthEntry[]>): Raw {
  let body: Raw;
  let relink = false;
  if (!history.ok) body = unavailable('Link health', history.error);
  else if (history.value.length === 0) body = html`<p class="muted">No link transitions recorded yet.</p>`;
  else {
    const now = text(history.value[0]?.data['status_after']);
    relink = now === 'needs_relink' || now === 'refresh_failing';
    body = html`<p>Now: ${badge(now || 'not_linked')}</p>
      <div class="scroll">
        <table>
          <caption class="visually-hidden">
            Link health transitions, newest first
          </caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Health</th>
              <th scope="col">Reason</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            ${history.value.map(
              (e) =>
                html`<tr>
                  <td>${when(e.at)}</td>
                  <th scope="row">${e.type.replace(/^connection\./, '')}</th>
                  <td>
                    ${badge(text(e.data['status_before']) || 'not_linked')} →
                    ${badge(text(e.data['status_after']) || 'not_linked')}
                  </td>
                  <td>${text(e.data['reason']).replaceAll('_', ' ')}</td>
                  <td>${detail(e)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>`;
  }
  return html`<section class="card" aria-labelledby="health-h">
    <h2 id="health-h">Link health</h2>
    ${body}
    ${
      relink
        ? html`<div class="actions">
            <a class="button primary" href="/api/video/oauth/start">Relink account</a>
          </div>`
        : ''
    }
  </section>`;
}
