/**
 * Mail (the platform's Gmail-like API, camelCase): the demo user's mailbox (`me` or its address)
 * with profile, messages (list / get in full|minimal|metadata|raw / send), drafts (create, list,
 * get, update, delete, send) and threads. Sent and drafted mail is given as base64url RFC 2822
 * and parsed for its headers and text. Errors carry the HTTP status as `code`, as the platform's
 * mail API does (400 "Invalid Request.", 404 "Not Found."). This file registers the module;
 * the records, MIME building and parsing, search, the seed, lookups and the routes of each
 * resource are in mail/.
 */
import { defineModule } from '../context.js';
import type { MailSlice } from './mail/records.js';
import { seedMail } from './mail/seed.js';
import { registerMessageRoutes } from './mail/routes-messages.js';
import { registerDraftRoutes } from './mail/routes-drafts.js';
import { registerThreadRoutes } from './mail/routes-threads.js';

export const mailModule = defineModule<MailSlice>({
  name: 'mail',
  seed: seedMail,
  register(ctx) {
    registerMessageRoutes(ctx);
    registerDraftRoutes(ctx);
    registerThreadRoutes(ctx);
  },
});
