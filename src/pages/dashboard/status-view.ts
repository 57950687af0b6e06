/**
 * The account section: the status report's verdict (account, ok or why not, the platform's
 * failure with its cause when that is why, note, webinar licence) and the
 * link controls. "Link account" (or "Relink account" once an account is linked) is a plain link
 * into the OAuth flow, which comes back to /dashboard?linked=1; "Disconnect" is a form, since it
 * changes state.
 */
import type { StatusReport } from '../../gateway/status.js';
import { html, type Raw } from './html.js';
import { badge, csrfField, platformState, unavailable, when, type Loaded } from './parts.js';

export function statusSection(report: Loaded<StatusReport>, csrf: string): Raw {
  const r = report.ok ? report.value : undefined;
  const facts = r
    ? html`<dl class="facts">
          <div>
            <dt>Status</dt>
            <dd>
              ${
                r.ok
                  ? badge('ok', 'healthy')
                  : r.platform
                    ? html`${badge(platformState(r.platform))}
                        <span class="muted"
                          >${r.platform.cause.replaceAll('_', ' ')} since ${when(r.platform.since)}</span
                        >`
                    : badge(r.account ? 'needs_relink' : 'not_linked')
              }
            </dd>
          </div>
          <div>
            <dt>Account</dt>
            <dd>
              ${
                r.account
                  ? html`${r.account.name}<br /><span class="muted">${r.account.email}</span><br /><span
                        class="muted"
                        >id ${r.account.id}</span
                      >`
                  : html`<span class="muted">none linked</span>`
              }
            </dd>
          </div>
          <div>
            <dt>Webinar licence</dt>
            <dd>${r.webinarLicense ? 'yes' : 'no'}</dd>
          </div>
          <div>
            <dt>Stored events</dt>
            <dd>${r.storedEvents.length}</dd>
          </div>
          <div>
            <dt>Registrations</dt>
            <dd>${r.registrationsTotal}</dd>
          </div>
          <div>
            <dt>Checked</dt>
            <dd>${when(r.checkedAt)}</dd>
          </div>
        </dl>
        ${r.note ? html`<p class="note">${r.note}</p>` : ''}`
    : unavailable('Status report', report.ok ? '' : report.error);
  // Without a report we cannot tell whether a link exists, so both controls stay available.
  const linked = r ? r.account !== null : true;
  // Linked and healthy, linking again is the lesser action; a link that needs renewing asks for it.
  const link = !r?.account
    ? html`<a class="button primary" href="/api/video/oauth/start">Link account</a>`
    : html`<a class="button${r.ok ? '' : ' primary'}" href="/api/video/oauth/start">Relink account</a>`;
  return html`<section class="card" aria-labelledby="status-h">
    <h2 id="status-h">Platform account</h2>
    ${facts}
    <div class="actions">
      ${link}
      ${
        linked
          ? html`<form method="post" action="/dashboard/disconnect">
              ${csrfField(csrf)}<button type="submit" class="button danger">Disconnect</button>
            </form>`
          : ''
      }
      <a class="button" href="/dashboard?fresh=1">Check again</a>
    </div>
  </section>`;
}
