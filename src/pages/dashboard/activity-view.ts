/**
 * Recent activity: the status report's recent cloud recordings, the latest webhook deliveries
 * from the platform, and the latest outgoing deliveries to subscribers.
 */
import type { StatusReport } from '../../gateway/status.js';
import type { DeliveryLogEntry } from '../../store/webhooks.js';
import { html, type Raw } from './html.js';
import { badge, bytes, unavailable, when, type Loaded } from './parts.js';

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

export function outgoingSection(deliveries: Loaded<DeliveryLogEntry[]>): Raw {
  let body: Raw;
  if (!deliveries.ok) body = unavailable('Outgoing webhooks', deliveries.error);
  else if (deliveries.value.length === 0)
    body = html`<p class="muted">
      No outgoing deliveries yet (subscribe with POST /api/video/subscriptions).
    </p>`;
  else
    body = html`<div class="scroll">
      <table>
        <caption class="visually-hidden">
          Outgoing webhook deliveries
        </caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">Last attempt</th>
          </tr>
        </thead>
        <tbody>
          ${deliveries.value.map(
            (d) =>
              html`<tr>
                <th scope="row"><code>${d.type}</code> <span class="muted">${d.subscriptionId}</span></th>
                <td>${badge(d.status)}</td>
                <td>${d.attempts}</td>
                <td>${d.lastStatus ?? d.lastError ?? '—'}</td>
                <td>${when(d.lastAttemptAt)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  return html`<section class="card" aria-labelledby="outgoing-h">
    <h2 id="outgoing-h">Outgoing webhooks</h2>
    ${body}
  </section>`;
}
