/** OAuth scopes of the recording routes and the date helpers their query validation uses. */
export const SCOPES = {
  list: [
    'cloud_recording:read:list_user_recordings',
    'cloud_recording:read:list_user_recordings:admin',
    'cloud_recording:read:list_user_recordings:master',
    'recording:read',
    'recording:read:admin',
  ],
  get: [
    'cloud_recording:read:list_recording_files',
    'cloud_recording:read:list_recording_files:admin',
    'cloud_recording:read:list_recording_files:master',
    'recording:read',
    'phone_recording:read:admin',
  ],
  delete: [
    'cloud_recording:delete:meeting_recording',
    'cloud_recording:delete:meeting_recording:admin',
    'cloud_recording:delete:meeting_recording:master',
    'recording:write',
    'recording:write:admin',
  ],
  recover: [
    'cloud_recording:update:recover_meeting_recordings',
    'cloud_recording:update:recover_meeting_recordings:admin',
    'cloud_recording:update:recover_meeting_recordings:master',
    'recording:write',
    'recording:write:admin',
  ],
  deleteFile: [
    'cloud_recording:delete:recording_file',
    'cloud_recording:delete:recording_file:admin',
    'cloud_recording:delete:recording_file:master',
    'recording:write',
    'recording:write:admin',
  ],
  recoverFile: [
    'cloud_recording:update:recover_single_recording',
    'cloud_recording:update:recover_single_recording:admin',
    'cloud_recording:update:recover_single_recording:master',
    'recording:write',
    'recording:write:admin',
  ],
  transcript: [
    'cloud_recording:read:meeting_transcript',
    'cloud_recording:read:meeting_transcript:admin',
    'recording:read',
    'recording:write',
    'recording:read:admin',
    'recording:write:admin',
  ],
  deleteTranscript: [
    'cloud_recording:delete:meeting_transcript',
    'cloud_recording:delete:meeting_transcript:admin',
    'recording:write',
    'recording:write:admin',
  ],
};
/** Downloading a file: any scope that lets the caller read recordings. */
export const DOWNLOAD_SCOPES = [
  ...new Set([...SCOPES.get, ...SCOPES.list, ...SCOPES.transcript.filter((s) => !s.includes('write'))]),
];

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
export const validDate = (s: string) =>
  DATE_RE.test(s) &&
  !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
  new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);
export const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** The same day one calendar month earlier (clamped to the month's last day). */
export function monthBefore(day: string): string {
  const [y, mo, d] = day.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y, mo - 1, 0)).getUTCDate();
  return dayOf(new Date(Date.UTC(y, mo - 2, Math.min(d, last))));
}
