/** The hosted-MCP server: tool schemas and registration of `search_meetings` and `ask` on an McpServer. */
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { askMeetings } from './ask.js';
import { TOOL_INPUTS } from './inputs.js';
import type { MeetingDoc } from './docs.js';
import { McpToolError, searchMeetings } from './search.js';

export const matchSchema = z.object({
  source: z.enum(['topic', 'agenda', 'summary', 'transcript']),
  snippet: z.string(),
  speaker: z.string().optional(),
  time: z.string().optional().describe('offset in the recording, HH:MM:SS'),
});
export const searchOutput = z.object({
  page_size: z.number(),
  total_records: z.number(),
  next_page_token: z.string().describe('"" when there are no more results; expires after 15 minutes'),
  meetings: z.array(
    z.object({
      id: z.number().describe('meeting number'),
      uuid: z.string().describe('meeting instance UUID'),
      topic: z.string(),
      start_time: z.string(),
      duration: z.number(),
      timezone: z.string(),
      has_summary: z.boolean(),
      has_transcript: z.boolean(),
      matches: z.array(matchSchema),
    }),
  ),
});
export const askOutput = z.object({
  answer: z.string(),
  citations: z.array(
    z.object({
      index: z.number(),
      meeting_id: z.number(),
      meeting_uuid: z.string(),
      topic: z.string(),
      start_time: z.string(),
      source: z.enum(['summary', 'next_steps', 'transcript', 'agenda']),
      excerpt: z.string(),
    }),
  ),
});

export const READ_ONLY = {
  readOnlyHint: true,
  openWorldHint: false,
  idempotentHint: true,
  destructiveHint: false,
} as const;

export const toolResult = (run: () => object) => {
  try {
    const structured = run() as Record<string, unknown>;
    return {
      content: [{ type: 'text' as const, text: JSON.stringify(structured) }],
      structuredContent: structured,
    };
  } catch (err) {
    if (!(err instanceof McpToolError)) throw err;
    return { isError: true, content: [{ type: 'text' as const, text: err.message }] };
  }
};

/** One server per request, as the SDK requires; `docs` reads the live slices. */
export function createHostedMcpServer(
  docs: () => MeetingDoc[],
  opts: { now: () => Date; secret: string; me?: string },
): McpServer {
  const server = new McpServer(
    { name: 'zoom-mcp-sandbox', title: 'Zoom MCP (emulator)', version: '1.0.0' },
    {
      instructions:
        'Search meetings with search_meetings, then ask questions about what was said with ask. Data comes from the emulator’s demo account.',
    },
  );
  server.registerTool(
    'search_meetings',
    {
      title: 'Search meetings',
      description:
        'Searches the user’s meetings by keyword across topics, agendas, AI meeting summaries and cloud-recording transcripts. Returns matching meetings (id, uuid, topic, start_time) with snippets, best match first; without q, all meetings newest first. Filter by from/to (UTC date or date-time); page with page_size (default 50, max 300) and next_page_token (expires in 15 minutes).',
      inputSchema: TOOL_INPUTS.search_meetings,
      outputSchema: searchOutput,
      annotations: { title: 'Search meetings', ...READ_ONLY },
    },
    (args) => toolResult(() => searchMeetings(docs(), args, { now: opts.now(), secret: opts.secret })),
  );
  server.registerTool(
    'ask',
    {
      title: 'Ask about meetings',
      description:
        'Answers a question about the user’s meetings from their AI summaries, next steps and transcripts, with numbered citations to meeting ids. Time words (yesterday, last week, upcoming) narrow the meetings considered.',
      inputSchema: TOOL_INPUTS.ask,
      outputSchema: askOutput,
      annotations: { title: 'Ask about meetings', ...READ_ONLY },
    },
    ({ question }) =>
      toolResult(() =>
        askMeetings(docs(), question, { now: opts.now(), ...(opts.me ? { me: opts.me } : {}) }),
      ),
  );
  return server;
}
