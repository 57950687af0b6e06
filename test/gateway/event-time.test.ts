/**
 * A stored event's start time, converted between its two forms and its instant, across
 * daylight-saving changes; and a platform delivery's start taken back into the stored form.
 */
import { describe, expect, it } from 'vitest';
import { inFormOf, instantOf, normalStart } from '../../src/gateway/event-time.js';
import { platformTimes } from '../../src/gateway/events-service.js';
import type { StoredEvent } from '../../src/store/store.js';

const ms = (iso: string) => Date.parse(iso);

describe('start times', () => {
  it('gives a UTC start its milliseconds and leaves a local one as it is', () => {
    expect(normalStart('2030-12-20T17:00:00Z')).toBe('2030-12-20T17:00:00.000Z');
    expect(normalStart('2030-12-20T17:00:00.250Z')).toBe('2030-12-20T17:00:00.250Z');
    expect(normalStart('2030-12-20T11:00:00')).toBe('2030-12-20T11:00:00');
  });

  it('reads a local time in its zone, on both sides of a DST change', () => {
    expect(instantOf('2030-12-20T11:00:00', 'America/Chicago')).toBe(ms('2030-12-20T17:00:00Z'));
    expect(instantOf('2030-07-01T11:00:00', 'America/Chicago')).toBe(ms('2030-07-01T16:00:00Z'));
    // Chicago moves to summer time at 02:00 on 2030-03-10; 03:30 that day is already UTC-5.
    expect(instantOf('2030-03-10T01:30:00', 'America/Chicago')).toBe(ms('2030-03-10T07:30:00Z'));
    expect(instantOf('2030-03-10T03:30:00', 'America/Chicago')).toBe(ms('2030-03-10T08:30:00Z'));
    expect(instantOf('2030-12-20T11:00:00', 'Asia/Kolkata')).toBe(ms('2030-12-20T05:30:00Z'));
    expect(instantOf('2030-12-20T17:00:00.000Z', 'America/Chicago')).toBe(ms('2030-12-20T17:00:00Z'));
    expect(instantOf('2030-12-20T11:00:00', null)).toBeNaN();
  });

  it('reads a time the clocks skip as the same time after the change, and an hour they repeat as its first pass', () => {
    // 02:30 does not exist in Chicago on 2030-03-10: read as 03:30 CDT, as Temporal's
    // 'compatible' rule does, not an hour earlier.
    expect(instantOf('2030-03-10T02:30:00', 'America/Chicago')).toBe(ms('2030-03-10T08:30:00Z'));
    // 01:30 happens twice on 2030-11-03: the first, still in CDT.
    expect(instantOf('2030-11-03T01:30:00', 'America/Chicago')).toBe(ms('2030-11-03T06:30:00Z'));
  });

  it('writes an instant in the form of another start', () => {
    const at = ms('2030-07-01T16:00:00Z');
    expect(inFormOf('2030-12-20T11:00:00', at, 'America/Chicago')).toBe('2030-07-01T11:00:00');
    expect(inFormOf('2030-12-20T11:00:00', at, 'Europe/Berlin')).toBe('2030-07-01T18:00:00');
    expect(inFormOf('2030-12-20T17:00:00Z', at, 'America/Chicago')).toBe('2030-07-01T16:00:00.000Z');
  });
});

describe('a platform delivery taken into the stored form', () => {
  const event = (startTime: string, timezone: string | null): StoredEvent => ({
    videoId: '1',
    topic: 't',
    kind: 'meeting',
    startTime,
    timezone,
    duration: 60,
    agenda: null,
    funnel: null,
    status: 'scheduled',
    registration: false,
    joinUrl: null,
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
  });

  it('changes nothing when the moment and zone are as stored', () => {
    const local = event('2030-12-20T11:00:00', 'America/Chicago');
    expect(platformTimes(local, '2030-12-20T17:00:00Z', 'America/Chicago')).toEqual({});
    expect(platformTimes(local, undefined, undefined)).toEqual({});
    expect(platformTimes(event('2030-12-20T17:00:00.000Z', null), '2030-12-20T17:00:00Z', undefined)).toEqual(
      {},
    );
  });

  it('keeps the local form for a new moment or a new zone, and the UTC form for UTC', () => {
    const local = event('2030-12-20T11:00:00', 'America/Chicago');
    expect(platformTimes(local, '2030-12-21T15:30:00Z', undefined)).toEqual({
      startTime: '2030-12-21T09:30:00',
      timezone: 'America/Chicago',
    });
    expect(platformTimes(local, undefined, 'America/New_York')).toEqual({
      startTime: '2030-12-20T12:00:00',
      timezone: 'America/New_York',
    });
    expect(platformTimes(event('2030-12-20T17:00:00Z', null), '2030-12-21T15:30:00Z', 'UTC')).toEqual({
      startTime: '2030-12-21T15:30:00.000Z',
      timezone: 'UTC',
    });
  });

  it('ignores a start it cannot read and a zone that is not one', () => {
    const local = event('2030-12-20T11:00:00', 'America/Chicago');
    expect(platformTimes(local, 'next Tuesday', 'Mars/Olympus')).toEqual({});
  });
});
