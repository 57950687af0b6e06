/**
 * The capability catalog, read from the declarations (ops/*.ts): the seed's 14 groups and 54
 * capabilities (names and order are a contract), plus the few added beyond it (marked
 * `beyondSeed`), each with the platform scopes that admit it and where it comes from. The
 * registry, the monitor and MCP read the whole list; the status report's capabilityMap and
 * capabilities keep exactly the seed's.
 */
import type { Availability } from './operation.js';
import { DECLARED } from './ops/index.js';

export type { Availability } from './operation.js';

export interface CapabilityDef {
  group: string;
  name: string;
  /** Any one of these granted scopes admits the capability. */
  scopes: string[];
  availability: Availability;
  /** Said to users where the platform offers no public endpoint, or where we compose one. */
  note?: string;
  /** Not one of the seed's: served everywhere except the status report's seed lists. */
  beyondSeed?: true;
}

export const CAPABILITIES: readonly CapabilityDef[] = DECLARED.map((d) => ({
  group: d.group,
  name: d.name,
  scopes: [...d.scopes],
  availability: d.availability ?? 'rest',
  ...(d.note ? { note: d.note } : {}),
  ...(d.beyondSeed ? { beyondSeed: true as const } : {}),
}));

/** The seed's capabilities only, in its order: what the status report lists. */
export const SEED_CAPABILITIES: readonly CapabilityDef[] = CAPABILITIES.filter((c) => !c.beyondSeed);

/** Group → the seed's capability names, in its order (the status report's capabilityMap). */
export function capabilityMap(): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const c of SEED_CAPABILITIES) (map[c.group] ??= []).push(c.name);
  return map;
}

/** The seed's `apis`: name → path. */
export const APIS: Readonly<Record<string, string>> = {
  oauthStart: '/api/video/oauth/start',
  status: '/api/video/status',
  monitor: '/api/video/monitor',
  meetings: '/api/video/events',
  appointments: '/api/video/appointments',
  calendar: '/api/video/calendar/events',
  recordings: '/api/video/recordings',
  contacts: '/api/video/contacts',
  search: '/api/video/search?q=<query>',
  aiAsk: '/api/video/ai/ask',
  agenticSearch: '/api/video/ai/search?q=<query>',
  phoneLogs: '/api/video/phone/call-logs',
  voicemails: '/api/video/phone/voicemails',
  clips: '/api/video/clips',
  raDeals: '/api/video/ra/deals',
  raConversations: '/api/video/ra/conversations',
  videoEvents: '/api/video/events-hub',
};
