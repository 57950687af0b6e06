/**
 * The monitor's budgets: per rate label what is left of the per-second (or per-minute) budget
 * and of the daily quota it draws on, then the meeting writes each host user made today. A spent
 * quota says "exhausted" in words in its state cell (the bar and bold row header only add to it),
 * so it never rests on colour alone.
 */
import type { MonitorReport } from '../../gateway/monitor.js';
import type { QuotaUse } from '../../gateway/platform/daily-quotas.js';
import { html, type Raw } from './html.js';
import { badge, when } from './parts.js';

const LABEL_NAMES: Record<string, string> = {
  LIGHT: 'Light',
  MEDIUM: 'Medium',
  HEAVY: 'Heavy',
  RESOURCE_INTENSIVE: 'Resource-intensive',
};

const per = (windowMs: number) =>
  windowMs === 1000 ? 'second' : windowMs === 60_000 ? 'minute' : `${windowMs / 1000} s`;

const count = (n: number | null) =>
  n === null ? html`<span class="muted">no cap</span>` : n.toLocaleString('en');

const state = (u: QuotaUse): Raw => (u.exhausted ? badge('exhausted') : badge('ok', 'available'));

/** Cells for one daily quota's limit, use and what is left. */
const useCells = (u: QuotaUse): Raw =>
  html`<td>${count(u.limit)}</td>
    <td>${u.used.toLocaleString('en')}</td>
    <td>${u.exhausted ? html`<strong>0</strong>` : count(u.remaining)}</td>
    <td>${state(u)}</td>`;

type Daily = NonNullable<MonitorReport['dailyQuotas']>;

export function quotasPart(m: MonitorReport): Raw {
  const daily = m.dailyQuotas;
  return html`<h3 id="quotas-h">Rate budgets and daily quotas</h3>
    <p class="muted">
      ${
        daily
          ? html`Daily quotas reset ${when(daily.resetsAt)}; counted in
            ${daily.countedIn === 'redis' ? 'Redis' : 'the database'}, shared by every instance.`
          : 'This gateway does not count daily quotas.'
      }
    </p>
    <div class="scroll">
      <table class="quotas">
        <caption class="visually-hidden">
          Remaining rate budget and daily quota per label
        </caption>
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Rate budget left</th>
            <th scope="col">Daily quota</th>
            <th scope="col">Daily limit</th>
            <th scope="col">Used today</th>
            <th scope="col">Left today</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          ${labelRows(m)}
        </tbody>
      </table>
    </div>
    ${daily ? meetingWritesPart(daily) : ''}`;
}

/** One row per rate label: its budget left, then the daily quota it draws on. */
function labelRows(m: MonitorReport): Raw[] {
  const daily = m.dailyQuotas;
  // A quota more than one label draws on (Heavy and Resource-intensive on paid plans).
  const quotas = Object.values(daily?.labels ?? {}).map((l) => l.quota);
  const shared = (quota: string) => quotas.filter((x) => x === quota).length > 1;
  return Object.entries(m.budgets).map(([label, b]) => {
    const q = daily?.labels[label as keyof typeof daily.labels];
    return html`<tr${q?.exhausted ? html` class="exhausted"` : ''}>
      <th scope="row">${LABEL_NAMES[label] ?? label}</th>
      <td>${b.available} of ${b.limit} per ${per(b.windowMs)}</td>
      ${
        q
          ? html`<td>
                <code>${q.quota}</code>${shared(q.quota) ? html` <span class="muted">(shared)</span>` : ''}
              </td>
              ${useCells(q)}`
          : html`<td colspan="5"><span class="muted">not counted</span></td>`
      }
    </tr>`;
  });
}

function meetingWritesPart(daily: Daily): Raw {
  const users = Object.entries(daily.meetingWrites.users);
  return html`<h3 id="writes-h">Meeting writes per user today</h3>
    <p class="muted">
      Creates, updates and deletes per host user; limit
      ${daily.meetingWrites.limit === null ? 'none' : daily.meetingWrites.limit.toLocaleString('en')} a day.
    </p>
    ${
      users.length === 0
        ? html`<p class="muted">No meeting writes today.</p>`
        : html`<div class="scroll">
            <table class="quotas">
              <caption class="visually-hidden">
                Meeting writes per host user today
              </caption>
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Daily limit</th>
                  <th scope="col">Used today</th>
                  <th scope="col">Left today</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                ${users.map(
                  ([user, u]) =>
                    html`<tr${u.exhausted ? html` class="exhausted"` : ''}>
                      <th scope="row"><code>${user}</code></th>
                      ${useCells(u)}
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }`;
}
