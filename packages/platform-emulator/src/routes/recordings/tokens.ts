/** Download access tokens (HS512 JWTs per meeting), the recording webhooks and file downloads. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EmulatorContext } from '../../context.js';
import type { MeetingRec, MeetingsSlice } from '../meetings.js';
import { fileBytes, fileName, KINDS } from './files.js';
import {
  recordingCompletedObject,
  recordingFiles,
  transcriptAvailable,
  transcriptCompletedObject,
} from './shapes.js';
import { slice } from './state.js';

const tokenKey = (ctx: EmulatorContext) => `${ctx.options.clientSecret}|recording-download`;

/** A `download_access_token` / webhook `download_token`: a JWT for one meeting's files. */
export function recordingDownloadToken(ctx: EmulatorContext, m: MeetingRec, ttlSeconds = 86_400): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = enc({ alg: 'HS512' });
  const claims = enc({
    iss: ctx.baseUrl,
    accountId: ctx.demo.accountId,
    aud: `${ctx.baseUrl}/oauth`,
    mid: m.uuid,
    exp: Math.floor(ctx.now().getTime() / 1000) + ttlSeconds,
    userId: ctx.demo.id,
  });
  const sig = createHmac('sha512', tokenKey(ctx)).update(`${head}.${claims}`).digest('base64url');
  return `${head}.${claims}.${sig}`;
}

/** The meeting UUID a download token is good for, or undefined when it is forged or expired. */
export function verifyDownloadToken(
  ctx: EmulatorContext,
  token: string,
): { meetingUuid: string } | undefined {
  const [head, claims, sig] = token.split('.');
  if (!head || !claims || !sig) return undefined;
  const want = createHmac('sha512', tokenKey(ctx)).update(`${head}.${claims}`).digest();
  const got = Buffer.from(sig, 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
  try {
    const c = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as {
      mid?: unknown;
      exp?: unknown;
    };
    if (typeof c.mid !== 'string' || typeof c.exp !== 'number' || c.exp * 1000 <= ctx.now().getTime())
      return undefined;
    return { meetingUuid: c.mid };
  } catch {
    return undefined;
  }
}

/** Sends `recording.completed` (with its top-level download_token), then `recording.transcript_completed`. */
export function emitRecordingCompleted(ctx: EmulatorContext, m: MeetingRec): void {
  const token = recordingDownloadToken(ctx, m);
  ctx.webhooks.emit('recording.completed', recordingCompletedObject(ctx, m), {}, { download_token: token });
  if (transcriptAvailable(m, slice(ctx), ctx.now())) {
    ctx.webhooks.emit(
      'recording.transcript_completed',
      transcriptCompletedObject(ctx, m),
      {},
      { download_token: token },
    );
  }
}

/** A file's bytes, content type and name, when the file exists and is neither trashed nor deleted. */
export function recordingDownload(
  ctx: EmulatorContext,
  fileId: string,
): { meeting: MeetingRec; bytes: Buffer; contentType: string; fileName: string } | undefined {
  const now = ctx.now();
  for (const m of ctx.slice<MeetingsSlice>('meetings').meetings) {
    const f = recordingFiles(m, slice(ctx), now).find((x) => x.id === fileId);
    if (f) {
      if (f.state !== 'active') return undefined;
      return {
        meeting: m,
        bytes: fileBytes(m, f.kind),
        contentType: KINDS[f.kind].contentType,
        fileName: fileName(m, f.kind),
      };
    }
  }
  return undefined;
}
