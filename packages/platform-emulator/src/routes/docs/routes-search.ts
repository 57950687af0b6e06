/**
 * The Docs file-search route: filters by name and content, type, ancestor folders, owner and time
 * window, title matches first, paged with the token in the body.
 */
import type { FastifyRequest } from 'fastify';
import { body } from '../../context.js';
import type { EmulatorContext, EmulatorRequest } from '../../context.js';
import { DOC_SCOPES as SCOPES, notFound } from './records.js';
import { readSearch } from './search.js';
import type { DocsStore } from './store.js';

export function registerSearchRoute(ctx: EmulatorContext, store: DocsStore): void {
  const { slice, link, parentOf, descendants } = store;

  ctx.route({
    method: 'POST',
    url: '/docs/file_search',
    scopes: SCOPES.search,
    label: 'LIGHT',
    handler: (req: EmulatorRequest) => {
      const { filters: f, pageSize, token } = readSearch(body(req));
      const s = slice();
      let within: Set<string> | undefined;
      if (f.ancestor_ids) {
        within = new Set();
        for (const a of f.ancestor_ids) {
          const parent = parentOf(a);
          if (parent === undefined)
            throw notFound('The specified ancestor folder or shared folder was not found or is unavailable.');
          for (const d of descendants(typeof parent === 'string' ? parent : parent.file_id))
            within.add(d.file_id);
        }
      }
      const needle = f.query?.toLowerCase();
      const me = ctx.demo;
      const isMe = (id: string) => id === 'me' || id === me.id || id.toLowerCase() === me.email;
      const items = s.files
        .filter((x) => x.file_type !== 'folder')
        .filter((x) => !f.file_types || f.file_types.includes(x.file_type))
        .filter((x) => !within || within.has(x.file_id))
        .filter((x) => !f.created_by || (isMe(f.created_by) && x.owner_id === me.id))
        .filter((x) => !f.owner_id || (isMe(f.owner_id) && x.owner_id === me.id))
        .filter(
          (x) =>
            !needle || x.file_name.toLowerCase().includes(needle) || x.content.toLowerCase().includes(needle),
        )
        .filter((x) => {
          const c = Date.parse(x.created_time);
          const m = Date.parse(x.modified_time);
          return (
            (f.created_time_from === undefined || c >= f.created_time_from) &&
            (f.created_time_to === undefined || c <= f.created_time_to) &&
            (f.modified_time_from === undefined || m >= f.modified_time_from) &&
            (f.modified_time_to === undefined || m <= f.modified_time_to)
          );
        })
        // Title matches first, then the most recently modified.
        .sort(
          (a, b) =>
            Number(!!needle && b.file_name.toLowerCase().includes(needle)) -
              Number(!!needle && a.file_name.toLowerCase().includes(needle)) ||
            b.modified_time.localeCompare(a.modified_time) ||
            a.file_id.localeCompare(b.file_id),
        );
      // The token travels in the body; paging reuses the platform's token store with the filters
      // as the token's signature, so changing a filter while paging is a 400 as documented.
      const query: Record<string, string> = { filters: JSON.stringify(f) };
      if (pageSize !== undefined) query['page_size'] = String(pageSize);
      if (token !== undefined) query['next_page_token'] = token;
      const pageReq = { query, params: {}, routeOptions: req.routeOptions } as unknown as FastifyRequest;
      const page = ctx.paginate(pageReq, items, { defaultSize: 10, maxSize: 50 });
      return {
        files: page.items.map((x) => ({
          file_id: x.file_id,
          file_name: x.file_name,
          file_link: link(x),
          file_type: x.file_type,
        })),
        next_page_token: page.nextPageToken,
      };
    },
  });
}
