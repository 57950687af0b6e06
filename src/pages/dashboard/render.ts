/**
 * The signed-in dashboard page, assembled from its sections. Every section renders from data
 * that may have failed to load; a failure shows as a notice in that section, never a stack.
 */
import type { MonitorReport } from '../../gateway/monitor.js';
import type { StatusReport } from '../../gateway/status.js';
import type { LinkHealthEntry } from '../../store/store.js';
import type { DeliveryLogEntry } from '../../store/webhooks.js';
import { outgoingSection, recordingsSection, webhooksSection } from './activity-view.js';
import { eventsSection, type EventRow } from './events-view.js';
import type { Notice } from './flash.js';
import { healthSection } from './health-view.js';
import { html, page, type BrandView } from './html.js';
import { monitorSection } from './monitor-view.js';
import { csrfField, noticeList, type Loaded } from './parts.js';
import { statusSection } from './status-view.js';

export interface DashboardData {
  report: Loaded<StatusReport>;
  monitor: Loaded<MonitorReport>;
  events: Loaded<EventRow[]>;
  webhooks: Loaded<{ event: string; receivedAt: string }[]>;
  outgoing: Loaded<DeliveryLogEntry[]>;
  /** The link's last health transitions, newest first. */
  health: Loaded<LinkHealthEntry[]>;
}

export function renderDashboard(p: {
  brand: BrandView;
  csrf: string;
  notices: Notice[];
  data: DashboardData;
  timezones: readonly string[];
  /** The new-event form's idempotency key, fresh for each render. */
  createKey: string;
}): string {
  return page({
    title: 'Operator dashboard',
    brand: p.brand,
    // The token is also here for scripts that call /api/video/* with the session cookie.
    head: html`<meta name="csrf-token" content="${p.csrf}" />`,
    controls: html`<form method="post" action="/dashboard/logout">
      ${csrfField(p.csrf)}<button type="submit" class="button on-bar">Sign out</button>
    </form>`,
    main: html`<h1>Operator dashboard</h1>
      ${noticeList(p.notices)}
      <div class="grid">
        ${statusSection(p.data.report, p.csrf)} ${healthSection(p.data.health)}
        ${recordingsSection(p.data.report)} ${webhooksSection(p.data.webhooks)}
        ${outgoingSection(p.data.outgoing)}
        ${eventsSection({
          events: p.data.events,
          funnels: p.brand.funnels,
          timezones: p.timezones,
          csrf: p.csrf,
          createKey: p.createKey,
        })}
        ${monitorSection(p.data.monitor)}
      </div>`,
  });
}
