/** Recording files: kinds, ids, names and the real bytes (MP4/M4A boxes, WebVTT, chat TXT, summary JSON). */
import type { MeetingRec } from '../meetings.js';
import { zoomTime } from '../../time.js';
import { digest, meetingContent, windowOf } from './content.js';

export type Kind = 'mp4' | 'm4a' | 'transcript' | 'chat' | 'summary';

export const KINDS: Record<
  Kind,
  { fileType: string; ext: string; recordingType: string; contentType: string; name: string }
> = {
  mp4: {
    fileType: 'MP4',
    ext: 'MP4',
    recordingType: 'shared_screen_with_speaker_view',
    contentType: 'video/mp4',
    name: 'Recording_1920x1080.mp4',
  },
  m4a: {
    fileType: 'M4A',
    ext: 'M4A',
    recordingType: 'audio_only',
    contentType: 'audio/mp4',
    name: 'Recording.m4a',
  },
  transcript: {
    fileType: 'TRANSCRIPT',
    ext: 'VTT',
    recordingType: 'audio_transcript',
    contentType: 'text/vtt; charset=utf-8',
    name: 'Recording.transcript.vtt',
  },
  chat: {
    fileType: 'CHAT',
    ext: 'TXT',
    recordingType: 'chat_file',
    contentType: 'text/plain; charset=utf-8',
    name: 'RecordingnewChat.txt',
  },
  summary: {
    fileType: 'SUMMARY',
    ext: 'JSON',
    recordingType: 'summary',
    contentType: 'application/json; charset=utf-8',
    name: 'Summary.json',
  },
};

/** A v4-shaped UUID from a string, as the platform's recording file ids look. */
function uuidFrom(s: string): string {
  const h = digest(s).toString('hex');
  const variant = ((parseInt(h[16] ?? '0', 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const fileIdOf = (m: MeetingRec, kind: Kind) => uuidFrom(`${m.uuid}|${kind}`);
export const opaque = (s: string, n: number) => digest(s).toString('base64url').slice(0, n);

function box(type: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + payload.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, payload]);
}

/** A tiny ISO-BMFF file (ftyp, free, mdat), recognisable as MP4/M4A by any sniffer. */
function isoMedia(kind: 'mp4' | 'm4a', m: MeetingRec): Buffer {
  const brands = kind === 'mp4' ? ['isom', 'isom', 'iso2', 'avc1', 'mp41'] : ['M4A ', 'M4A ', 'isom', 'mp42'];
  const minor = Buffer.alloc(4);
  minor.writeUInt32BE(kind === 'mp4' ? 0x200 : 0, 0);
  const ftyp = box(
    'ftyp',
    Buffer.concat([
      Buffer.from(brands[0] ?? 'isom', 'latin1'),
      minor,
      ...brands.slice(1).map((b) => Buffer.from(b, 'latin1')),
    ]),
  );
  const free = box('free', Buffer.from(`Meridian Fleet sandbox recording: ${m.topic}`, 'utf8'));
  const chunks: Buffer[] = [];
  for (let i = 0; i < 8; i++) chunks.push(digest(`${m.uuid}|${kind}|${i}`));
  return Buffer.concat([ftyp, free, box('mdat', Buffer.concat(chunks))]);
}

const clock = (sec: number, withMs: boolean) => {
  const total = Math.max(0, Math.round(sec * 1000));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const hms = `${pad(Math.floor(total / 3_600_000))}:${pad(Math.floor(total / 60_000) % 60)}:${pad(Math.floor(total / 1000) % 60)}`;
  return withMs ? `${hms}.${pad(total % 1000, 3)}` : hms;
};

/** The transcript as the platform writes it: WebVTT, numbered cues, "Speaker: text". */
export function transcriptVtt(m: MeetingRec): string {
  const c = meetingContent(m);
  const cues = c.transcript.map(
    (q, i) => `${i + 1}\n${clock(q.start, true)} --> ${clock(q.end, true)}\n${q.speaker}: ${q.text}`,
  );
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

export function fileBytes(m: MeetingRec, kind: Kind): Buffer {
  switch (kind) {
    case 'mp4':
    case 'm4a':
      return isoMedia(kind, m);
    case 'transcript':
      return Buffer.from(transcriptVtt(m), 'utf8');
    case 'chat':
      return Buffer.from(
        meetingContent(m)
          .chat.map((c) => `${clock(c.at, false)}\t ${c.speaker}:\t${c.text}\r\n`)
          .join(''),
        'utf8',
      );
    case 'summary': {
      const s = meetingContent(m).summary;
      const { end } = windowOf(m);
      return Buffer.from(
        JSON.stringify(
          {
            meeting_id: m.id,
            meeting_uuid: m.uuid,
            meeting_topic: m.topic,
            summary_created_time: zoomTime(new Date(end + 120_000)),
            summary_title: s.title,
            summary_overview: s.overview,
            summary_details: s.details,
            next_steps: s.next_steps,
          },
          null,
          2,
        ),
        'utf8',
      );
    }
  }
}

export function fileName(m: MeetingRec, kind: Kind): string {
  const gmt = m.start_time.replace(/[-:]/g, '').replace('T', '-').replace('Z', '');
  return `GMT${gmt}_${KINDS[kind].name}`;
}
