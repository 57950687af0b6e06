/**
 * Zoom Phone: the demo user's call history (and the legacy call logs it replaces), the call
 * path of one call, voicemails (read status can be changed), call recordings with their
 * transcripts, AI call summaries, and the audio downloads. Phone has its own, lower rate
 * limits, so every route is registered with `product: 'phone'`. Calls only show up once they
 * have ended by the emulator's clock, so today's seeded calls appear as the day goes on.
 * The pieces live in ./phone/; this module re-exports the public surface.
 */
export type {
  AiCallSummaryRec,
  PhoneCallRec,
  PhoneRecordingRec,
  PhoneSlice,
  VoicemailRec,
} from './phone/types.js';
export { PHONE_SCOPES } from './phone/constants.js';
export { phoneModule } from './phone/module.js';
