/** Zoom Phone: call routes (call history, the call path of one call, legacy call logs). */
import { p, q, zerr, ZoomError } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { CALL_RESULTS, EXT_TYPES, NUMBER_TYPES, PHONE_SCOPES } from './constants.js';
import type { PhoneHelpers } from './helpers.js';
import { ME } from './seed.js';
import type { PhoneShapes } from './shapes.js';
import { dateWindow, many, oneOf, truthy } from './validation.js';
import type { BadParam } from './validation.js';

export function registerCallRoutes(ctx: EmulatorContext, h: PhoneHelpers, sh: PhoneShapes): void {
  getCallHistory(ctx, h, sh);
  getCallHistoryItem(ctx, h, sh);
  getCallLogs(ctx, h, sh);
}

function getCallHistory(ctx: EmulatorContext, h: PhoneHelpers, sh: PhoneShapes): void {
  ctx.route({
    method: 'GET',
    url: '/phone/users/:userId/call_history',
    scopes: PHONE_SCOPES.callHistory,
    label: 'MEDIUM',
    product: 'phone',
    handler: (req) => {
      h.phoneUser(req, 300);
      const bad: BadParam = (name) => new ZoomError(400, 301, `Invalid request param: ${name}.`);
      const w = dateWindow(req, h.now(), 86_400_000, bad);
      const timeType = oneOf(req, 'time_type', ['start_time', 'end_time'] as const, bad) ?? 'start_time';
      const directions = many(req, 'directions', ['inbound', 'outbound'], bad);
      const connectTypes = many(req, 'connect_types', ['internal', 'external'], bad);
      const callTypes = many(req, 'call_types', ['general', 'emergency'], bad);
      const results = many(req, 'call_results', CALL_RESULTS, bad);
      const numberTypes = many(req, 'number_types', NUMBER_TYPES, bad);
      const extTypes = many(req, 'extension_types', EXT_TYPES, bad);
      const groups = many(req, 'group_ids', undefined, bad);
      const sites = many(req, 'site_ids', undefined, bad);
      const recording = oneOf(req, 'recording_status', ['recorded', 'non_recorded'] as const, bad);
      const withVoicemail = truthy(req, 'with_voicemail', bad);
      const keyword = q(req, 'keyword');
      const department = q(req, 'department');
      const costCenter = q(req, 'cost_center');
      const items = h
        .ended()
        .filter((c) => {
          const t = Date.parse(timeType === 'start_time' ? c.start_time : c.end_time);
          if (t < w.fromMs || t > w.toMs) return false;
          const e = sh.historyEntry(c) as Record<string, unknown>;
          if (directions && !directions.includes(c.direction)) return false;
          if (connectTypes && !connectTypes.includes(String(e['connect_type']))) return false;
          if (callTypes && !callTypes.includes('general')) return false;
          if (results && !results.includes(c.result)) return false;
          if (
            numberTypes &&
            !numberTypes.some((n) => e['caller_number_type'] === n || e['callee_number_type'] === n)
          )
            return false;
          if (extTypes && !extTypes.some((x) => e['caller_ext_type'] === x || e['callee_ext_type'] === x))
            return false;
          if (groups && !groups.includes(h.groupId)) return false;
          if (sites && !sites.includes(h.siteId)) return false;
          if (recording && (recording === 'recorded') !== (c.recording_id !== '')) return false;
          if (withVoicemail !== undefined && withVoicemail !== (c.voicemail_id !== '')) return false;
          if (keyword && !sh.keywordHit(c, keyword)) return false;
          if (department && department !== ME.department) return false;
          if (costCenter && costCenter !== ME.costCenter) return false;
          return true;
        })
        .sort((a, b) => b.start_time.localeCompare(a.start_time));
      const pg = h.page(req, items, 300, bad);
      return {
        call_logs: pg.items.map(sh.historyEntry),
        from: w.from,
        to: w.to,
        next_page_token: pg.nextPageToken,
        page_count: Math.ceil(pg.totalRecords / pg.pageSize),
        page_size: pg.pageSize,
        total_records: pg.totalRecords,
      };
    },
  });
}

function getCallHistoryItem(ctx: EmulatorContext, h: PhoneHelpers, sh: PhoneShapes): void {
  ctx.route({
    method: 'GET',
    url: '/phone/call_history/:callHistoryUuid',
    scopes: PHONE_SCOPES.callPath,
    label: 'LIGHT',
    product: 'phone',
    handler: (req) => {
      const id = p(req, 'callHistoryUuid');
      const c = h.ended().find((x) => x.id === id);
      // Undocumented body; developers report "Call Log does not exist" for unknown ids.
      if (!c) throw new ZoomError(404, 404, 'Call Log does not exist.');
      const seg = sh.segment(c);
      return {
        id: c.id,
        call_history_uuid: c.id,
        ...sh.core(c),
        international: false,
        department: ME.department,
        cost_center: ME.costCenter,
        site_id: h.siteId,
        group_id: h.groupId,
        site_name: ME.siteName,
        call_path: [{ id: c.path_id.slice(9), ...seg }],
        call_elements: [{ call_element_id: c.path_id, ...seg }],
      };
    },
  });
}

function getCallLogs(ctx: EmulatorContext, h: PhoneHelpers, sh: PhoneShapes): void {
  ctx.route({
    method: 'GET',
    url: '/phone/users/:userId/call_logs',
    scopes: PHONE_SCOPES.callLogs,
    label: 'MEDIUM',
    product: 'phone',
    handler: (req) => {
      h.phoneUser(req);
      const bad = zerr.badParam;
      const w = dateWindow(req, h.now(), 86_400_000, bad);
      const type = oneOf(req, 'type', ['all', 'missed'] as const, bad) ?? 'all';
      const timeType = oneOf(req, 'time_type', ['startTime', 'endTime'] as const, bad) ?? 'startTime';
      const phoneNumber = q(req, 'phone_number')?.replace(/[^\d+]/g, '');
      const items = h
        .ended()
        .filter((c) => {
          const t = Date.parse(timeType === 'startTime' ? c.start_time : c.end_time);
          if (t < w.fromMs || t > w.toMs) return false;
          if (type === 'missed' && !(c.direction === 'inbound' && c.result !== 'answered')) return false;
          if (
            phoneNumber &&
            !c.peer.number.endsWith(phoneNumber.replace(/^\+/, '')) &&
            c.peer.ext !== phoneNumber
          )
            return false;
          return true;
        })
        .sort((a, b) => b.start_time.localeCompare(a.start_time));
      const pg = h.page(req, items, 400);
      return {
        call_logs: pg.items.map(sh.legacyEntry),
        from: w.from,
        to: w.to,
        next_page_token: pg.nextPageToken,
        page_count: Math.ceil(pg.totalRecords / pg.pageSize),
        page_size: pg.pageSize,
        total_records: pg.totalRecords,
      };
    },
  });
}
