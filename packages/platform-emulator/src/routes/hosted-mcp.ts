/**
 * A stand-in for the platform's hosted MCP server (the only home of its meeting search and
 * AI "ask": there is no REST endpoint for either). `POST /mcp` — not under /v2 — serves two
 * read-only tools over the demo data:
 *
 * - `search_meetings` (q, from, to, page_size 50/300, next_page_token valid 15 minutes):
 *   keyword search over topics, agendas, AI summaries and transcripts, with matching snippets;
 * - `ask` (question): a short answer composed from the best-matching summary and transcript
 *   passages, citing meeting ids. Deterministic: same data, same question, same answer.
 *
 * The tool logic is pure functions of the meetings (and recordings) slices; the HTTP part uses
 * the project's MCP endpoint (both protocol eras, stateless) behind an emulator bearer token.
 */
export { meetingDocs, type MeetingDoc } from './hosted-mcp/docs.js';
export { terms, type Match } from './hosted-mcp/text.js';
export {
  McpToolError,
  searchMeetings,
  type SearchArgs,
  type SearchHit,
  type SearchResult,
} from './hosted-mcp/search.js';
export { askMeetings, type AskResult, type Citation } from './hosted-mcp/ask.js';
export { registerHostedMcp } from './hosted-mcp/http.js';
