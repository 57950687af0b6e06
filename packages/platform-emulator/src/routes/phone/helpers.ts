/** Zoom Phone: state access and lookups shared by the route handlers (users, paging, finders, audio). */
import type { FastifyReply } from 'fastify';
import { p, zerr, ZoomError } from '../../context.js';
import type { EmulatorContext, EmulatorRequest } from '../../context.js';
import { SILENT_MP3 } from './constants.js';
import type { PhoneSlice } from './types.js';
import type { BadParam } from './validation.js';

/** Builds the helpers for one registered context. */
export function phoneHelpers(ctx: EmulatorContext) {
  const slice = () => ctx.slice<PhoneSlice>('phone');
  const now = () => ctx.now().getTime();
  const siteId = `${ctx.demo.accountId.slice(0, 11)}SiteChiHQ`.slice(0, 22);
  const groupId = `${ctx.demo.accountId.slice(0, 12)}GroupOps`.slice(0, 22);
  const myName = `${ctx.demo.firstName} ${ctx.demo.lastName}`;

  /** Calls that have ended by now. */
  const ended = () => slice().calls.filter((c) => Date.parse(c.end_time) <= now());
  const callById = (id: string) => slice().calls.find((c) => c.id === id);

  /** `{userId}` with the error code this endpoint documents for an unknown user. */
  const phoneUser = (req: EmulatorRequest, code = 1001) => {
    try {
      return ctx.user(req, p(req, 'userId'));
    } catch (e) {
      if (e instanceof ZoomError && e.code === 1001 && code !== 1001)
        throw new ZoomError(404, code, e.message);
      throw e;
    }
  };

  /** Platform pagination, with the page-token error code this endpoint documents. */
  const page = <T>(req: EmulatorRequest, items: T[], tokenCode = 300, bad: BadParam = zerr.badParam) => {
    try {
      return ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
    } catch (e) {
      if (!(e instanceof ZoomError)) throw e;
      if (e.message === zerr.badPageToken().message) throw new ZoomError(400, tokenCode, e.message);
      if (e.message === zerr.badParam('page_size').message) throw bad('page_size');
      throw e;
    }
  };

  const findVoicemail = (id: string, code: number) => {
    const v = slice().voicemails.find((x) => x.id === id && Date.parse(x.date_time) <= now());
    if (!v) throw new ZoomError(400, code, `Voice mail does not exist: ${id}.`);
    return v;
  };
  const recordings = () =>
    slice().recordings.filter((r) => Date.parse(callById(r.call)?.end_time ?? r.date_time) <= now());

  const sendAudio = (reply: FastifyReply, name: string) =>
    reply
      .code(200)
      .header('content-type', 'audio/mpeg')
      .header('content-disposition', `attachment; filename="${name}.mp3"`)
      .send(SILENT_MP3);

  // The platform answers 302 to a file host that serves the transcript JSON; the emulator's
  // "file host" is the path below, reached with the same bearer token.
  const transcriptOf = (req: EmulatorRequest) => {
    const r = recordings().find((x) => x.id === p(req, 'recordingId'));
    if (!r) throw new ZoomError(400, 404, 'File does not exist.');
    return r;
  };
  return {
    slice,
    now,
    siteId,
    groupId,
    myName,
    ended,
    callById,
    phoneUser,
    page,
    findVoicemail,
    recordings,
    sendAudio,
    transcriptOf,
  };
}

export type PhoneHelpers = ReturnType<typeof phoneHelpers>;
