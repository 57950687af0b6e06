/**
 * The schemas the stored-event paths (meetings-routes.ts) check and answer, for their
 * declarations: the gateway's own list of the meetings it created, one event, its registrations.
 */
import * as z from 'zod';
import { entry } from '../../../gateway/capabilities/registry.js';
import type { registrationToWire } from '../../../gateway/events-service.js';
import type { Holds } from '../../openapi.js';

export const videoIdParam = z.object({
  videoId: z.string().regex(/^\d{1,20}$/, 'videoId is the meeting id (digits)'),
});

export const page = (item: z.ZodType) =>
  z.object({
    items: z.array(item),
    nextCursor: z
      .string()
      .nullable()
      .describe('pass as cursor (with the same filters) for the next page; null on the last'),
  });

export const registration = z.object({
  id: z.string(),
  video_id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  registrant_id: z.string(),
  join_url: z.string().nullable(),
  created_at: z.string(),
});
export type RegistrationHolds = Holds<ReturnType<typeof registrationToWire>, z.output<typeof registration>>;

/** Their routes' common part: the operator's key, in the capabilities tag. */
export const stored = { tag: 'capabilities', auth: 'api_key' } as const;
export const one = { params: videoIdParam };
/** DELETE runs delete_meeting and answers what it answers. */
export const deleteOutput = entry('meetings', 'delete_meeting').operation?.output;
