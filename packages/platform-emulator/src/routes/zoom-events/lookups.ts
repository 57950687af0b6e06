/** What the Zoom Events routes share: the slice, the demo user's role in an event, and the event asked for (404/403 as the platform answers). */
import { ZoomError } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import type { UsersSlice } from '../users.js';
import { eventNotFound } from './constants.js';
import { eventObject as toEventObject } from './shapes.js';
import type { EventRec, ZoomEventsSlice } from './types.js';

export type EventLookups = ReturnType<typeof eventLookups>;

/** The lookups, closing over the context as the routes do. */
export function eventLookups(ctx: EmulatorContext) {
  const slice = () => ctx.slice<ZoomEventsSlice>('zoomEvents');
  const me = () => ctx.demo.email.toLowerCase();
  /** A host's user id: the demo user's, a colleague's from the users slice, or '' if unknown. */
  const userIdOf = (email: string) => {
    if (email.toLowerCase() === me()) return ctx.demo.id;
    const users = ctx.slice<UsersSlice | undefined>('users');
    return users?.colleagues.find((c) => c.email.toLowerCase() === email.toLowerCase())?.id ?? '';
  };
  const isHost = (e: EventRec) => e.host_email.toLowerCase() === me();
  const isAttendee = (e: EventRec) =>
    !isHost(e) && (slice().registrants[e.event_id] ?? []).some((r) => r.email.toLowerCase() === me());
  const canSee = (e: EventRec) => isHost(e) || isAttendee(e);
  const eventObject = (e: EventRec, form: 'read' | 'create') => toEventObject(e, form, ctx.baseUrl);
  const findEvent = (id: string) => {
    const e = slice().events.find((x) => x.event_id === id);
    if (!e) throw eventNotFound();
    if (!canSee(e)) throw new ZoomError(403, 260200, 'Event access denied.');
    return e;
  };
  /** An event the demo user hosts: registrants and tickets are the host's to see and make. */
  const hostedEvent = (id: string) => {
    const e = findEvent(id);
    if (!isHost(e)) throw new ZoomError(403, 260200, 'Event access denied.');
    return e;
  };
  return { slice, me, userIdOf, isHost, isAttendee, canSee, eventObject, findEvent, hostedEvent };
}
