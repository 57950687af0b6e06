/**
 * The events section: a form that creates a meeting with a funnel (create_meeting, at most once
 * per render: create-event.ts), and the stored events with their funnel, status, registrations,
 * a per-event funnel change and a link to delete the event (through a confirmation page,
 * delete-view.ts).
 */
import type { Registration, StoredEvent } from '../../store/store.js';
import { IDEMPOTENCY_FIELD } from './create-event.js';
import { html, type FunnelView, type Raw } from './html.js';
import { badge, csrfField, funnelChip, funnelOptions, unavailable, when, type Loaded } from './parts.js';

/** How many registered, and the first few of them (oldest first). */
export interface RegistrationsSummary {
  total: number;
  first: Registration[];
}

export interface EventRow {
  event: StoredEvent;
  registrations: Loaded<RegistrationsSummary>;
}

/** Ids reach HTML ids and URLs; platform ids are digits, but nothing is assumed. */
const idPart = (v: string) => v.replace(/[^A-Za-z0-9_-]/g, '_');

function registrationsCell(row: EventRow): Raw {
  if (!row.registrations.ok) return html`<span class="missing">${row.registrations.error}</span>`;
  const { total, first } = row.registrations.value;
  if (total === 0) return html`<span class="muted">${row.event.registration ? 'none yet' : 'closed'}</span>`;
  const rest = total - first.length;
  return html`<details>
    <summary>${total} registered</summary>
    <ul class="plain">
      ${first.map(
        (r) => html`<li>${r.firstName} ${r.lastName} <span class="muted">&lt;${r.email}&gt;</span></li>`,
      )}
    </ul>
    ${rest > 0 ? html`<p class="muted">and ${rest} more</p>` : ''}
  </details>`;
}

function funnelForm(e: StoredEvent, funnels: FunnelView[], csrf: string): Raw {
  const id = `funnel-${idPart(e.videoId)}`;
  return html`<form
    method="post"
    action="/dashboard/events/${encodeURIComponent(e.videoId)}/funnel"
    class="inline"
  >
    ${csrfField(csrf)}
    <label for="${id}" class="visually-hidden">Funnel for ${e.topic}</label>
    <select id="${id}" name="funnel">
      ${funnelOptions(funnels, e.funnel)}
    </select>
    <button type="submit" class="button small">
      Save<span class="visually-hidden"> funnel for ${e.topic}</span>
    </button>
  </form>`;
}

/**
 * The IANA zones grouped by their region, each shown by its place ("America/Argentina/Buenos_Aires"
 * under America as "Argentina / Buenos Aires"): a plain select stays usable without a script and
 * with any assistive technology, and typing a place's first letters finds it, region or not.
 */
function zoneOptions(timezones: readonly string[]): Raw {
  const regions = new Map<string, string[]>();
  for (const zone of [...timezones].sort()) {
    const region = zone.includes('/') ? zone.slice(0, zone.indexOf('/')) : 'Other';
    regions.set(region, [...(regions.get(region) ?? []), zone]);
  }
  const place = (zone: string) =>
    (zone.includes('/') ? zone.slice(zone.indexOf('/') + 1) : zone)
      .replaceAll('_', ' ')
      .replaceAll('/', ' / ');
  return html`<option value="UTC" selected>UTC</option>
    ${[...regions].map(
      ([region, zones]) =>
        html`<optgroup label="${region}">
          ${zones.map((z) => html`<option value="${z}">${place(z)}</option>`)}
        </optgroup>`,
    )}`;
}

/** `key`: this render's idempotency key, so sending the same form again creates nothing more. */
function createForm(funnels: FunnelView[], timezones: readonly string[], csrf: string, key: string): Raw {
  return html`<form method="post" action="/dashboard/events" class="create">
    ${csrfField(csrf)}
    <input type="hidden" name="${IDEMPOTENCY_FIELD}" value="${key}" />
    <fieldset>
      <legend>New event</legend>
      <div class="fields">
        <p class="field wide">
          <label for="ev-topic">Topic</label>
          <input id="ev-topic" name="topic" type="text" required maxlength="200" />
        </p>
        <p class="field">
          <label for="ev-start">Start time</label>
          <input id="ev-start" name="start" type="datetime-local" required />
        </p>
        <p class="field">
          <label for="ev-tz">Time zone</label>
          <select id="ev-tz" name="timezone" data-local-zone>
            ${zoneOptions(timezones)}
          </select>
        </p>
        <p class="field">
          <label for="ev-duration">Duration (minutes)</label>
          <input id="ev-duration" name="duration" type="number" min="1" max="1440" value="60" required />
        </p>
        <p class="field">
          <label for="ev-funnel">Funnel</label>
          <select id="ev-funnel" name="funnel">
            ${funnelOptions(funnels, null)}
          </select>
        </p>
        <p class="field check">
          <input id="ev-registration" name="registration" type="checkbox" />
          <label for="ev-registration">Open registration</label>
        </p>
      </div>
      <button type="submit" class="button primary">Create event</button>
    </fieldset>
  </form>`;
}

export function eventsSection(p: {
  events: Loaded<EventRow[]>;
  funnels: FunnelView[];
  timezones: readonly string[];
  csrf: string;
  createKey: string;
}): Raw {
  let list: Raw;
  if (!p.events.ok) list = unavailable('Stored events', p.events.error);
  else if (p.events.value.length === 0) list = html`<p class="muted">No stored events yet.</p>`;
  else
    list = html`<div class="scroll">
      <table class="events">
        <caption class="visually-hidden">
          Stored events
        </caption>
        <thead>
          <tr>
            <th scope="col">Topic</th>
            <th scope="col">Starts</th>
            <th scope="col">Funnel</th>
            <th scope="col">Status</th>
            <th scope="col">Registrations</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          ${p.events.value.map(
            (row) =>
              html`<tr data-video-id="${row.event.videoId}">
                <th scope="row">
                  ${row.event.topic}<br /><span class="muted"
                    >id ${row.event.videoId} · ${row.event.duration} min</span
                  >
                </th>
                <td>${when(row.event.startTime, row.event.timezone)}</td>
                <td>${funnelChip(row.event.funnel, p.funnels)}</td>
                <td>${badge(row.event.status)}</td>
                <td>${registrationsCell(row)}</td>
                <td>
                  <div class="row-actions">
                    ${funnelForm(row.event, p.funnels, p.csrf)}
                    <a
                      class="button small danger"
                      href="/dashboard/events/${encodeURIComponent(row.event.videoId)}/delete"
                      >Delete<span aria-hidden="true">…</span
                      ><span class="visually-hidden"> ${row.event.topic}</span></a
                    >
                  </div>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  return html`<section class="card wide" aria-labelledby="events-h">
    <h2 id="events-h">Events</h2>
    ${createForm(p.funnels, p.timezones, p.csrf, p.createKey)} ${list}
  </section>`;
}
