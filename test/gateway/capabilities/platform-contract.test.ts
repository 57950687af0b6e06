/**
 * Capability inputs held to what the platform's published documents allow, so a caller's
 * input can never become a request the platform refuses: each case was a request the strict
 * contract check (test/helpers/contract.ts) caught going out, and is now a validation error of
 * ours, naming the field, before any call. Through the generic invoke route, over real HTTP.
 */
import { describe, expect, it } from 'vitest';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();

const invoke = (group: string, name: string, body: unknown) =>
  e.api('POST', `/api/video/capabilities/${group}/${name}`, { body });

/** The paths of a 400 validation_failed answer's issues. */
async function refused(group: string, name: string, body: unknown): Promise<string[]> {
  const r = await invoke(group, name, body);
  expect(r.status, r.text).toBe(400);
  expect(r.json.error.code, r.text).toBe('validation_failed');
  return r.json.error.details.issues.map((i: { path: string }) => i.path);
}

describe('capability inputs the platform would refuse', () => {
  it('list_clips: a page is 30 to 300 clips (clips.json page_size minimum 30)', async () => {
    expect(await refused('clips', 'list_clips', { limit: 3 })).toEqual(['limit']);
    const ok = await invoke('clips', 'list_clips', { limit: 30 });
    expect(ok.status, ok.text).toBe(200);
  });

  it('get_meeting and delete_meeting: a meeting id is digits (meeting.json meetingId: integer)', async () => {
    for (const video_id of ['abc', '4S/3CMLqQ0G4yWhJ9xXa+w==', '@evil.example', '1.5'])
      for (const name of ['get_meeting', 'delete_meeting'])
        expect(await refused('meetings', name, { video_id }), `${name} ${video_id}`).toEqual(['video_id']);
  });

  it('list_meetings, read_message and ai_companion_search: a date is a real calendar date (format date)', async () => {
    expect(await refused('meetings', 'list_meetings', { type: 'previous', from: '2026-02-31' })).toEqual([
      'from',
    ]);
    expect(await refused('meetings', 'list_meetings', { to: '2026-13-01' })).toEqual(['to']);
    expect(await refused('chat', 'read_message', { contact: 'x@example.com', date: '2026-02-30' })).toEqual([
      'date',
    ]);
    const issues = await refused('ai', 'ai_companion_search', { q: 'freight', from: '2026-04-31' });
    expect(issues).toContain('from');
  });
});
