/** The searchable view of a meeting: topic, agenda, AI summary and transcript, for the hosted-MCP tools. */
import type { MeetingRec } from '../meetings.js';
import { meetingContent, transcriptAvailable, type RecordingsSlice } from '../recordings.js';

export interface MeetingDoc {
  id: number;
  uuid: string;
  topic: string;
  start_time: string;
  duration: number;
  timezone: string;
  agenda: string;
  /** Only for meetings that ended with an AI summary. */
  summary?: { overview: string; details: { label: string; summary: string }[]; next_steps: string[] };
  /** Only while the cloud-recording transcript exists (not trashed or deleted). */
  transcript?: { speaker: string; text: string; start: number }[];
}

export const NO_RECORDINGS: RecordingsSlice = {
  trashed: {},
  trashedFiles: {},
  deleted: [],
  deletedFiles: [],
};

/** What the tools can see: every meeting, plus summaries and transcripts where they exist. */
export function meetingDocs(
  meetings: MeetingRec[],
  recordings: RecordingsSlice | undefined,
  now: Date,
): MeetingDoc[] {
  return meetings.map((m) => {
    const ended = m.status === 'ended' || Date.parse(m.start_time) + m.duration * 60_000 < now.getTime();
    const content = ended ? meetingContent(m) : undefined;
    const doc: MeetingDoc = {
      id: m.id,
      uuid: m.uuid,
      topic: m.topic,
      start_time: m.start_time,
      duration: m.duration,
      timezone: m.timezone,
      agenda: m.agenda,
    };
    if (content && m.has_summary) doc.summary = content.summary;
    if (content && transcriptAvailable(m, recordings ?? NO_RECORDINGS, now)) {
      doc.transcript = content.transcript.map((c) => ({ speaker: c.speaker, text: c.text, start: c.start }));
    }
    return doc;
  });
}
