/** list_fleet_docs: the fleet documents, grouped. */
import * as z from 'zod';
import { defineTool } from './brand-tool.js';
import { docGroup } from './schemas.js';

export const listFleetDocs = defineTool({
  name: 'list_fleet_docs',
  title: 'List fleet documents',
  description:
    'Lists the fleet documents (brand guidelines, voice and tone, logo usage, one-pagers per business, sales and onboarding kits), grouped, each with title, summary, audience and absolute URLs of its HTML page and Markdown twin. Read a document through its markdownUrl or the MCP resource of the same URL. Filter with group.',
  input: (c) =>
    z
      .object({
        group: z
          .enum(c.docs.groups.map((g) => g.key) as [string, ...string[]])
          .optional()
          .describe('only this document group'),
      })
      .strict(),
  output: z.object({ count: z.number(), groups: z.array(docGroup) }),
  run: (c, { group }) => {
    const groups = group ? c.docs.groups.filter((g) => g.key === group) : c.docs.groups;
    return { count: groups.reduce((n, g) => n + g.docs.length, 0), groups };
  },
});
