/**
 * hub (docs): the linked user's document hub. read_content reads one document as Markdown (a
 * folder lists its children), lists My Docs, or searches; write_content creates a document from
 * Markdown, or renames one.
 */
import * as z from 'zod';
import { AppError } from '../../../core/errors.js';
import { defineOp, id, objectUnion, pageOf, pageSchema, paging, seg } from '../operation.js';
import { granular } from '../scopes.js';

const GROUP = 'hub';
/** The import endpoint's documented limit. */
const MARKDOWN_MAX_BYTES = 100 * 1024;

interface PlatformFile {
  file_id?: string;
  file_name?: string;
  file_type?: string;
  file_link?: string;
  created_time?: string;
  modified_time?: string;
}

const fileView = z.object({
  file_id: z.string().nullable(),
  file_name: z.string().nullable(),
  file_type: z.string().nullable().describe('doc, folder or data_table'),
  file_link: z.string().nullable().describe('opens the file in the docs web app'),
  created_time: z.string().nullable(),
  modified_time: z.string().nullable(),
});
/** A search hit: the search endpoint gives no times. */
const fileHit = fileView.omit({ created_time: true, modified_time: true });
const childrenPage = pageSchema(fileView);

const file = (f: PlatformFile): z.output<typeof fileView> => ({
  file_id: f.file_id ?? null,
  file_name: f.file_name ?? null,
  file_type: f.file_type ?? null,
  file_link: f.file_link ?? null,
  created_time: f.created_time ?? null,
  modified_time: f.modified_time ?? null,
});

const hitOf = (f: PlatformFile): z.output<typeof fileHit> => ({
  file_id: f.file_id ?? null,
  file_name: f.file_name ?? null,
  file_type: f.file_type ?? null,
  file_link: f.file_link ?? null,
});

const fileId = id('file_id');

export const hubOps = [
  defineOp({
    group: GROUP,
    name: 'read_content',
    scopes: granular('docs:read:export'),
    summary:
      "Reads a document's metadata and Markdown content (a folder gives its children instead); without file_id lists My Docs, and with q searches.",
    kind: 'read',
    input: z.object({
      file_id: fileId
        .optional()
        .describe('the document or folder to read; leave out (or "root") for the top of My Docs'),
      q: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .optional()
        .describe('search titles and text; with file_id, only within that folder'),
      ...paging(50, 20),
    }),
    output: objectUnion(
      z.union([
        pageSchema(fileHit).describe('with q: the search hits'),
        childrenPage.describe('without file_id (or with root): the top of My Docs'),
        fileView
          .extend({ markdown: z.null(), children: childrenPage })
          .describe('a folder: its metadata and children'),
        fileView.extend({ markdown: z.string() }).describe('a document: its metadata and Markdown'),
      ]),
    ),
    async run(ctx, i) {
      if (i.q !== undefined) {
        const r = await ctx.platform.call<{ files?: PlatformFile[]; next_page_token?: string }>({
          method: 'POST',
          path: '/docs/file_search',
          body: {
            query: i.q,
            ...(i.file_id ? { ancestor_ids: [i.file_id] } : {}),
            page_size: i.limit,
            ...(i.cursor ? { next_page_token: i.cursor } : {}),
          },
          label: 'LIGHT',
          group: GROUP,
        });
        return pageOf((r.data.files ?? []).map(hitOf), r.data.next_page_token);
      }
      const children = async (parent: string) => {
        const r = await ctx.platform.call<{ files?: PlatformFile[]; next_page_token?: string }>({
          method: 'GET',
          path: `/docs/files/${seg(parent)}/children`,
          query: { page_size: i.limit, next_page_token: i.cursor },
          label: 'MEDIUM',
          group: GROUP,
        });
        return pageOf((r.data.files ?? []).map(file), r.data.next_page_token);
      };
      if (i.file_id === undefined || i.file_id === 'root') return children('root');
      const meta = await ctx.platform.call<PlatformFile>({
        method: 'GET',
        path: `/docs/files/${seg(i.file_id)}`,
        label: 'LIGHT',
        group: GROUP,
      });
      if (meta.data.file_type === 'folder') {
        return { ...file(meta.data), markdown: null, children: await children(i.file_id) };
      }
      const content = await ctx.platform.call<{ file_name?: string; file_content?: string }>({
        method: 'GET',
        path: `/docs/files/${seg(i.file_id)}/content`,
        label: 'HEAVY',
        group: GROUP,
      });
      return { ...file(meta.data), markdown: content.data.file_content ?? '' };
    },
  }),

  defineOp({
    group: GROUP,
    name: 'write_content',
    scopes: granular('docs:write:import'),
    summary:
      'Creates a document from Markdown (optionally inside a folder) and returns its id and link; with file_id, renames that document to title.',
    kind: 'write',
    // With file_id it renames an existing document.
    overwrites: true,
    // Without file_id it adds a new document each time.
    creates: true,
    input: z
      .object({
        title: z.string().trim().min(1).max(200).describe('document title (the new name when renaming)'),
        markdown: z
          .string()
          .max(MARKDOWN_MAX_BYTES)
          .refine((v) => Buffer.byteLength(v, 'utf8') <= MARKDOWN_MAX_BYTES, 'must be at most 100 KB')
          .optional()
          .describe('the document body in Markdown, at most 100 KB; required when creating'),
        parent_id: fileId.optional().describe('folder to create the document in; default the top of My Docs'),
        file_id: fileId.optional().describe('rename this existing document instead of creating one'),
      })
      .superRefine((i, c) => {
        if (i.file_id === undefined) {
          if (i.markdown === undefined)
            c.addIssue({ code: 'custom', path: ['markdown'], message: 'markdown is required to create' });
          return;
        }
        for (const k of ['markdown', 'parent_id'] as const) {
          if (i[k] !== undefined)
            c.addIssue({
              code: 'custom',
              path: [k],
              message: `${k} cannot be changed on an existing document; only the title can`,
            });
        }
      }),
    output: objectUnion(
      z.union([
        z
          .object({
            file_id: z.string(),
            file_name: z.string(),
            file_link: z.string().nullable().describe('opens the document in the docs web app'),
          })
          .describe('a new document'),
        fileView.extend({ renamed: z.literal(true) }).describe('with file_id: the renamed document'),
      ]),
    ),
    async run(ctx, i) {
      if (i.file_id !== undefined) {
        await ctx.platform.call({
          method: 'PATCH',
          path: `/docs/files/${seg(i.file_id)}`,
          body: { file_name: i.title },
          label: 'MEDIUM',
          group: GROUP,
        });
        const meta = await ctx.platform.call<PlatformFile>({
          method: 'GET',
          path: `/docs/files/${seg(i.file_id)}`,
          label: 'LIGHT',
          group: GROUP,
        });
        return { ...file(meta.data), renamed: true as const };
      }
      const r = await ctx.platform.call<{ file_id?: string; file_link?: string }>({
        method: 'POST',
        path: '/docs/import_content',
        body: {
          file_name: i.title,
          content: i.markdown ?? '',
          ...(i.parent_id ? { parent_id: i.parent_id } : {}),
        },
        label: 'HEAVY',
        group: GROUP,
      });
      if (!r.data?.file_id)
        throw new AppError(502, 'upstream_error', 'The platform did not return the new document.');
      return { file_id: r.data.file_id, file_name: i.title, file_link: r.data.file_link ?? null };
    },
  }),
];
