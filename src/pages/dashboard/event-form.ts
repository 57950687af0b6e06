/**
 * The "new event" form's fields as create_meeting input. A datetime-local value has no zone:
 * with "UTC" selected it becomes the UTC form (`…Z`), otherwise a local time plus its zone, the
 * two forms a stored event keeps. Validation stays with the capability's own schema.
 */
const MINUTES = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

export function eventInput(form: URLSearchParams): Record<string, unknown> {
  const start = (form.get('start') ?? '').trim();
  const withSeconds = MINUTES.test(start) ? `${start}:00` : start;
  const zone = form.get('timezone') || 'UTC';
  return {
    topic: form.get('topic') ?? '',
    start_time: zone === 'UTC' ? `${withSeconds}Z` : withSeconds,
    ...(zone === 'UTC' ? {} : { timezone: zone }),
    duration: form.get('duration') || '60',
    funnel: form.get('funnel') || null,
    // A checkbox is sent only when ticked.
    registration: form.get('registration') !== null,
  };
}
