/**
 * Stored events and registrations made up for the paging, search and status-window tests:
 * bulk-loaded straight into the store (insertEvents), as an import or the scale bench would.
 */
import type { Registration, StoredEvent } from '../../src/store/store.js';

const HOUR = 3_600_000;

/** UTC in the stored form (milliseconds, Z), `hours` after `base`. */
export const at = (base: string, hours: number): string =>
  new Date(Date.parse(base) + hours * HOUR).toISOString();

export function storedEvent(
  videoId: string,
  startTime: string,
  over: Partial<StoredEvent> = {},
): StoredEvent {
  return {
    videoId,
    topic: `Event ${videoId}`,
    kind: 'meeting',
    startTime,
    timezone: null,
    duration: 30,
    agenda: null,
    funnel: null,
    status: 'scheduled',
    registration: false,
    joinUrl: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

export function registration(id: string, videoId: string, createdAt: string): Registration {
  return {
    id,
    videoId,
    email: `${id}@example.com`,
    firstName: 'Reg',
    lastName: id,
    registrantId: `r-${id}`,
    joinUrl: null,
    createdAt,
  };
}

/** The list order of stored events: start_time, then video id. */
export const byListOrder = (a: StoredEvent, b: StoredEvent): number =>
  a.startTime < b.startTime
    ? -1
    : a.startTime > b.startTime
      ? 1
      : a.videoId < b.videoId
        ? -1
        : a.videoId > b.videoId
          ? 1
          : 0;
