/**
 * Small pieces the dashboard views share: notices, state badges (text, not color alone), times,
 * sizes, funnel chips and the hidden CSRF field.
 */
import { CSRF_FIELD } from '../../http/auth/csrf.js';
import type { Notice } from './flash.js';
import { html, type FunnelView, type Raw } from './html.js';

export type Loaded<T> = { ok: true; value: T } | { ok: false; error: string };

export const noticeList = (notices: Notice[]): Raw =>
  html`${notices.map((n) =>
    n.kind === 'error'
      ? html`<div class="notice notice-error" role="alert"><strong>Error:</strong> ${n.text}</div>`
      : html`<div class="notice notice-ok" role="status">${n.text}</div>`,
  )}`;

export const unavailable = (what: string, error: string): Raw =>
  html`<div class="notice notice-error" role="alert"><strong>${what} unavailable:</strong> ${error}</div>`;

export const csrfField = (token: string): Raw =>
  html`<input type="hidden" name="${CSRF_FIELD}" value="${token}" />`;

type Tone = 'ok' | 'warn' | 'bad' | 'info' | 'muted';

const TONES: Record<string, Tone> = {
  ok: 'ok',
  linked: 'ok',
  scheduled: 'info',
  started: 'ok',
  ended: 'muted',
  cancelled: 'muted',
  missing_scope: 'warn',
  no_license: 'warn',
  needs_relink: 'bad',
  refresh_failing: 'warn',
  upstream_error: 'bad',
  platform_unreachable: 'bad',
  platform_failing: 'bad',
  not_linked: 'bad',
  no_public_api: 'muted',
  open: 'bad',
  closed: 'ok',
  delivered: 'ok',
  pending: 'info',
  failed: 'bad',
  exhausted: 'bad',
};

/** The platform's state as a badge state: reachable, unreachable, or answering with failures. */
export const platformState = (p: { reachable: boolean; cause: string | null }): string =>
  p.cause === null ? 'ok' : p.reachable ? 'platform_failing' : 'platform_unreachable';

export const badge = (state: string, label = state.replaceAll('_', ' ')): Raw =>
  html`<span class="badge badge-${TONES[state] ?? 'muted'}">${label}</span>`;

const UTC = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?(\.\d+)?Z$/;
const LOCAL = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?$/;

/** A time as the operator gave it: UTC marked as such, a local time with its zone. */
export function when(value: string | null | undefined, zone?: string | null): Raw {
  if (!value) return html`<span class="muted">—</span>`;
  const utc = UTC.exec(value);
  if (utc) return html`<time datetime="${value}">${utc[1]} ${utc[2]} UTC</time>`;
  const local = LOCAL.exec(value);
  if (local) return html`<time datetime="${value}">${local[1]} ${local[2]}</time> ${zone ?? ''}`;
  return html`${value}`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function funnelChip(key: string | null, funnels: FunnelView[]): Raw {
  if (!key) return html`<span class="muted">none</span>`;
  const f = funnels.find((x) => x.key === key);
  // A funnel the brand no longer has is shown as its bare key, without theme colors.
  if (!f) return html`<span class="chip">${key}</span>`;
  return html`<span class="chip${f.filled ? ' chip-filled' : ''}" data-funnel="${f.key}">${f.name}</span>`;
}

export function funnelOptions(funnels: FunnelView[], selected: string | null): Raw {
  return html`<option value="" ${selected === null ? html` selected` : ''}>No funnel</option>
    ${funnels.map(
      (f) =>
        html`<option value="${f.key}" ${f.key === selected ? html` selected` : ''}>
          ${f.name} (${f.key})
        </option>`,
    )}`;
}
