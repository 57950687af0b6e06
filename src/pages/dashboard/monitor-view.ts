/**
 * The monitor section: whether the platform can be reached (and why not), the link's token and
 * webhook facts, the rate budgets and daily quotas left per label (quotas-view.ts), then every
 * capability group with its state and latency, each opening onto its capabilities and the
 * scopes they need.
 */
import type { MonitorReport } from '../../gateway/monitor.js';
import { html, type Raw } from './html.js';
import { badge, platformState, unavailable, when, type Loaded } from './parts.js';
import { quotasPart } from './quotas-view.js';

const expiry = (seconds: number | null) =>
  seconds === null ? '—' : seconds <= 0 ? 'expired' : `in ${Math.round(seconds / 60)} min`;

type Group = MonitorReport['groups'][string];
type Capability = Group['capabilities'][number];

export function monitorSection(monitor: Loaded<MonitorReport>): Raw {
  if (!monitor.ok) {
    return html`<section class="card wide" aria-labelledby="monitor-h">
      <h2 id="monitor-h">Monitor</h2>
      ${unavailable('Monitor', monitor.error)}
    </section>`;
  }
  const m = monitor.value;
  const groups = Object.entries(m.groups).map(([name, g]) => groupPart(name, g));
  return html`<section class="card wide" aria-labelledby="monitor-h">
    <h2 id="monitor-h">Monitor</h2>
    ${factsPart(m)} ${quotasPart(m)}
    <h3 id="groups-h">Capabilities</h3>
    <div class="groups">${groups}</div>
  </section>`;
}

/** The link, the platform, the token, the last webhook in and those going out, the budgets. */
function factsPart(m: MonitorReport): Raw {
  return html`<dl class="facts">
    <div>
      <dt>Link</dt>
      <dd>
        ${badge(m.link.status)}${m.link.mode ? html` <span class="muted">${m.link.mode}</span>` : ''}
        ${m.link.cause ? html`<span class="muted">: ${m.link.cause}</span>` : ''}
      </dd>
    </div>
    <div>
      <dt>Platform</dt>
      <dd>
        ${badge(platformState(m.platform), m.platform.cause === null ? 'reachable' : undefined)}
        ${
          m.platform.message
            ? html`<span class="muted">: ${m.platform.message} Since ${when(m.platform.since)}.</span>`
            : m.platform.lastAnswerAt
              ? html`<span class="muted">last answer ${when(m.platform.lastAnswerAt)}</span>`
              : html`<span class="muted">no calls yet</span>`
        }
      </dd>
    </div>
    <div>
      <dt>Token expires</dt>
      <dd>${expiry(m.link.tokenExpiresInSeconds)}</dd>
    </div>
    <div>
      <dt>Granted scopes</dt>
      <dd>${m.link.scopes.length}</dd>
    </div>
    <div>
      <dt>Last webhook</dt>
      <dd>
        ${m.webhooks.lastReceived ? html`<code>${m.webhooks.lastReceived.event}</code> ${when(m.webhooks.lastReceived.receivedAt)}` : 'none yet'}
      </dd>
    </div>
    <div>
      <dt>Outgoing webhooks</dt>
      <dd>
        ${m.webhooks.outgoing.subscriptions} subscription(s) · ${m.webhooks.outgoing.deliveries.pending}
        pending · ${m.webhooks.outgoing.deliveries.failed} failed
      </dd>
    </div>
    <div>
      <dt>Rate budgets</dt>
      <dd>${m.budgetsShared ? 'shared (Redis)' : 'this instance'}</dd>
    </div>
  </dl>`;
}

/** A capability group, opening onto its capabilities. */
function groupPart(name: string, g: Group): Raw {
  return html`<details class="group">
    <summary>
      <span class="group-name">${name}</span> ${badge(g.state)}
      <span class="muted"
        >${g.latencyMs === null ? 'no calls yet' : `${g.latencyMs} ms`}${g.breaker === 'open' ? ' · circuit open' : ''}</span
      >
    </summary>
    <table>
      <caption class="visually-hidden">
        Capabilities of ${name}
      </caption>
      <thead>
        <tr>
          <th scope="col">Capability</th>
          <th scope="col">State</th>
          <th scope="col">Availability</th>
          <th scope="col">Scopes needed</th>
        </tr>
      </thead>
      <tbody>
        ${g.capabilities.map(capabilityRow)}
      </tbody>
    </table>
    ${g.lastSuccess ? html`<p class="muted">Last success ${when(g.lastSuccess)}</p>` : ''}
    ${g.lastError ? html`<p class="muted">Last error <code>${g.lastError.code}</code> ${when(g.lastError.at)}</p>` : ''}
  </details>`;
}

function capabilityRow(c: Capability): Raw {
  return html`<tr>
    <th scope="row"><code>${c.name}</code></th>
    <td>${badge(c.state)}</td>
    <td>${c.availability.replaceAll('_', ' ')}</td>
    <td>
      ${
        c.scopesNeeded.length === 0
          ? html`<span class="muted">none</span>`
          : c.scopesNeeded.map(
              (s, i) =>
                html`${i > 0 ? ', ' : ''}<code>${s}</code>${c.scopesGranted.includes(s) ? '' : html` <span class="missing">(not granted)</span>`}`,
            )
      }${c.note ? html`<br /><span class="muted">${c.note}</span>` : ''}
    </td>
  </tr>`;
}
