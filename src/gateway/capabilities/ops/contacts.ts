/**
 * contacts: the linked user's contacts (company and external), and a directory search.
 */
import * as z from 'zod';
import { AppError } from '../../../core/errors.js';
import { defineOp, pageOf, pageSchema, paging } from '../operation.js';
import { granular } from '../scopes.js';

interface PlatformContact {
  id?: string;
  member_id?: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  display_name?: string;
  presence_status?: string;
  phone_number?: string;
  job_title?: string;
  dept?: string;
}

const contactView = z.object({
  id: z.string().nullable().describe("the contact's user id (its member id when the platform gives no id)"),
  email: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  display_name: z.string().nullable().describe("the platform's display name, else first and last name"),
  job_title: z.string().nullable(),
  dept: z.string().nullable().describe('department'),
  presence_status: z
    .string()
    .nullable()
    .describe('Available, Away, Do_Not_Disturb or Offline, when the platform gives it'),
});

const contact = (c: PlatformContact): z.output<typeof contactView> => ({
  id: c.id ?? c.member_id ?? null,
  email: c.email ?? null,
  first_name: c.first_name ?? null,
  last_name: c.last_name ?? null,
  display_name: c.display_name ?? ([c.first_name, c.last_name].filter(Boolean).join(' ') || null),
  job_title: c.job_title ?? null,
  dept: c.dept ?? null,
  presence_status: c.presence_status ?? null,
});

export const contactsOps = [
  defineOp({
    group: 'contacts',
    name: 'list_contacts',
    scopes: [...granular('team_chat:read:list_contacts'), ...granular('contact:read:list_contacts')],

    rest: [{ method: 'GET', url: '/api/video/contacts' }],
    summary:
      "Lists the linked user's contacts (type company or external), or searches the company directory when q is given (a server-to-server link can only search: the platform lists contacts for a user link).",
    kind: 'read',
    input: z.object({
      type: z.enum(['company', 'external']).default('company'),
      q: z.string().trim().min(1).max(100).optional().describe('directory search (name or email)'),
      ...paging(50, 20),
    }),
    output: pageSchema(contactView),
    async run(ctx, i) {
      if (i.q) {
        const r = await ctx.platform.call<{ contacts?: PlatformContact[]; next_page_token?: string }>({
          method: 'GET',
          path: '/contacts',
          query: { search_key: i.q, page_size: Math.min(i.limit, 25), next_page_token: i.cursor },
          label: 'MEDIUM',
          group: 'contacts',
        });
        return pageOf((r.data.contacts ?? []).map(contact), r.data.next_page_token);
      }
      // The platform lists contacts for `me` only, which an account-level token does not have.
      if (ctx.uid !== 'me')
        throw new AppError(
          400,
          'not_applicable',
          "The platform lists a user's contacts for a user link only; with server-to-server credentials search the directory with q.",
        );
      const r = await ctx.platform.call<{ contacts?: PlatformContact[]; next_page_token?: string }>({
        method: 'GET',
        path: `/chat/users/me/contacts`,
        query: { type: i.type, page_size: i.limit, next_page_token: i.cursor },
        label: 'MEDIUM',
        group: 'contacts',
      });
      return pageOf((r.data.contacts ?? []).map(contact), r.data.next_page_token);
    },
  }),
];
