/**
 * Recent activity: the status report's recent cloud recordings and the latest webhook deliveries.
 */
import type { StatusReport } from '../../gateway/status.js';
import { html, type Raw } from './html.js';
import { bytes, unavailable, when, type Loaded } from './parts.js';

export function recordingsSection(report: Loaded<StatusReport>): Raw {
  let body: Raw;
  if (!report.ok) body = unavailable('Recordings', report.error);
  else if (report.value.recentRecordings.length === 0)
    body = html`<p class="muted">
      No recordings in the last 30 days${report.value.ok ? '' : ' (no linked account)'}.
    </p>`;
  else
    body = html`<div class="scroll">
      <table>
        <caption class="visually-hidden">
          Recent recordings
        </caption>
        <thead>
          <tr>
            <th scope="col">Topic</th>
            <th scope="col">Started</th>
            <th scope="col">Files</th>
            <th scope="col">Size</th>
          </tr>
        </thead>
        <tbody>
          ${report.value.recentRecordings.map(
            (r) =>
              html`<tr>
                <th scope="row">${r.topic}</th>
                <td>${when(r.start_time)}</td>
                <td>${r.files}</td>
                <td>${bytes(r.total_size)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  return html`<section class="card tall" aria-labelledby="recordings-h">
    <h2 id="recordings-h">Recent recordings</h2>
    ${body}
  </section>`;
}

export function webhooksSection(hooks: Loaded<{ event: string; receivedAt: string }[]>): Raw {
  let body: Raw;
  if (!hooks.ok) body = unavailable('Webhook deliveries', hooks.error);
  else if (hooks.value.length === 0) body = html`<p class="muted">No webhook deliveries yet.</p>`;
  else
    body = html`<ol class="plain deliveries">
      ${hooks.value.map(
        (h) => html`<li><code>${h.event}</code> <span class="muted">${when(h.receivedAt)}</span></li>`,
      )}
    </ol>`;
  return html`<section class="card" aria-labelledby="webhooks-h">
    <h2 id="webhooks-h">Recent webhook deliveries</h2>
    ${body}
  </section>`;
}
