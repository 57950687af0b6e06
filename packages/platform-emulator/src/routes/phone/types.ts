/** Zoom Phone: the record types kept in the `phone` state slice. */

/** The other end of a call: a colleague on an extension, or an outside number. */
export interface Party {
  name: string;
  /** E.164 direct number. */
  number: string;
  company: string;
  /** Colleagues only ('' for outside callers). */
  email: string;
  ext: string;
  /** What calls with them are about; feeds voicemail transcripts and call summaries. */
  topic: string;
}

export interface PhoneCallRec {
  /** Call history UUID: `yyyymmdd-<uuid>`. */
  id: string;
  path_id: string;
  /** The legacy call log id (a bare UUID). */
  log_id: string;
  call_id: string;
  direction: 'inbound' | 'outbound';
  peer: Party;
  start_time: string;
  /** '' when nobody picked up. */
  answer_time: string;
  end_time: string;
  result: 'answered' | 'voicemail' | 'no_answer' | 'busy';
  talk_time: number;
  hold_time: number;
  wait_time: number;
  recording_id: string;
  recording_type: '' | 'automatic' | 'ad-hoc';
  voicemail_id: string;
  ai_call_summary_id: string;
}

export interface VoicemailRec {
  id: string;
  file_id: string;
  /** Call history id of the call that went to voicemail. */
  call: string;
  status: 'read' | 'unread';
  duration: number;
  date_time: string;
  transcript: string;
}

export interface PhoneRecordingRec {
  id: string;
  file_id: string;
  call: string;
  duration: number;
  date_time: string;
}

export interface AiCallSummaryRec {
  id: string;
  call: string;
  call_summary: string;
  next_steps: string;
  detailed_summary: string;
  created_time: string;
  modified_time: string;
  rate: '' | 'thumb_up' | 'thumb_down';
  edited: boolean;
}

export interface PhoneSlice {
  calls: PhoneCallRec[];
  voicemails: VoicemailRec[];
  recordings: PhoneRecordingRec[];
  summaries: AiCallSummaryRec[];
}
