/** Zoom Phone: route scopes, the enum values the list filters accept, and the silent MP3 served as audio. */

/**
 * A few frames of silent MPEG-1 Layer III (128 kbit/s, 44.1 kHz, mono): real, playable audio
 * bytes for the voicemail and recording downloads.
 */
export const SILENT_MP3 = (() => {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0xc4]);
  return Buffer.concat(Array.from({ length: 12 }, () => frame));
})();

// Scopes as the platform's Phone API lists them per operation (granular, then classic).
export const PHONE_SCOPES = {
  callHistory: [
    'phone:read:list_call_logs',
    'phone:read:list_call_logs:admin',
    'phone:read:admin',
    'phone_call_log:read',
  ],
  callPath: ['phone:read:call_log:admin', 'phone:read:admin', 'phone_call_log:read:admin'],
  callLogs: [
    'phone:read:list_call_logs',
    'phone:read:list_call_logs:admin',
    'phone:read',
    'phone:read:admin',
    'phone_call_log:read',
    'phone_call_log:read:admin',
  ],
  voicemails: [
    'phone:read:list_voicemails',
    'phone:read:list_voicemails:admin',
    'phone:read',
    'phone:read:admin',
    'phone_voicemail:read',
    'phone_voicemail:read:admin',
  ],
  voicemail: [
    'phone:read:voicemail',
    'phone:read:voicemail:admin',
    'phone:read',
    'phone:read:admin',
    'phone_voicemail:read',
    'phone_voicemail:read:admin',
  ],
  voicemailUpdate: [
    'phone:update:voicemail',
    'phone:update:voicemail:admin',
    'phone:write',
    'phone:write:admin',
    'phone_voicemail:write',
    'phone_voicemail:write:admin',
  ],
  recordings: [
    'phone:read:list_recordings',
    'phone:read:list_recordings:admin',
    'phone:read',
    'phone:read:admin',
    'phone_recording:read',
    'phone_recording:read:admin',
  ],
  recordingFile: [
    'phone:read:call_recording',
    'phone:read:call_recording:admin',
    'phone:read',
    'phone:read:admin',
    'phone_recording:read',
    'phone_recording:read:admin',
  ],
  transcript: [
    'phone:read:recording_transcript',
    'phone:read:recording_transcript:admin',
    'phone:read',
    'phone:read:admin',
    'phone_recording:read',
    'phone_recording:read:admin',
  ],
  aiSummary: [
    'phone:read:ai_call_summary',
    'phone:read:ai_call_summary:admin',
    'phone:read',
    'phone:read:admin',
  ],
};

export const CALL_RESULTS = [
  'answered',
  'accepted',
  'picked_up',
  'connected',
  'succeeded',
  'voicemail',
  'hang_up',
  'canceled',
  'call_failed',
  'unconnected',
  'rejected',
  'busy',
  'ring_timeout',
  'overflowed',
  'no_answer',
  'invalid_key',
  'invalid_operation',
  'abandoned',
  'system_blocked',
  'service_unavailable',
];
export const EXT_TYPES = [
  'user',
  'call_queue',
  'auto_receptionist',
  'common_area',
  'zoom_room',
  'cisco_room',
  'shared_line_group',
  'group_call_pickup',
  'external_contact',
];
export const NUMBER_TYPES = [
  'zoom_pstn',
  'zoom_toll_free_number',
  'external_pstn',
  'external_contact',
  'byoc',
  'byop',
  '3rd_party_contact_center',
  'zoom_service_number',
  'external_service_number',
  'zoom_contact_center',
  'meeting_phone_number',
  'meeting_id',
  'anonymous_number',
  'zoom_revenue_accelerator',
];
