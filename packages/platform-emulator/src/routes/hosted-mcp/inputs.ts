/**
 * The hosted MCP tools' input schemas: what `tools/call` may pass to each. The server registers
 * its tools with them, and the HTTP edge holds every call to them before the SDK loads, so a
 * call outside them is a contract violation (contract/log.ts) as well as the tool's error.
 */
import * as z from 'zod';

export const TOOL_INPUTS = {
  search_meetings: z.object({
    q: z.string().max(1000).optional().describe('search query keywords'),
    from: z.string().optional().describe('UTC start, yyyy-mm-dd or yyyy-MM-ddTHH:mm:ssZ'),
    to: z.string().optional().describe('UTC end, yyyy-mm-dd or yyyy-MM-ddTHH:mm:ssZ'),
    page_size: z.number().int().min(1).optional().describe('results per page, default 50, max 300'),
    next_page_token: z.string().optional().describe('token from the previous page'),
  }),
  ask: z.object({
    question: z.string().min(1).max(2000).describe('a question in plain language'),
  }),
} as const;
