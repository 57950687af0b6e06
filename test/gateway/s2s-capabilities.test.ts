/**
 * Server-to-server mode goes through the same contract checks as a user link: a gateway linked
 * with account credentials calls every capability that needs no input, and the ones that search
 * through the platform's hosted MCP server, over real HTTP; every request it sends is held to
 * the published documents by the strict check (test/helpers/contract.ts), which also fails a
 * `me` sent with the account-level token (it names users by id or email). A capability the
 * platform offers only to a user link answers a clear refusal instead of a request that breaks
 * the contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayEnv } from './helpers.js';

let e: GatewayEnv;
beforeAll(async () => {
  const probe = await startGateway();
  const accountId = probe.emu.emulator.context.demo.accountId;
  await probe.close();
  e = await startGateway({ env: { VIDEO_ACCOUNT_ID: accountId, FLEETGATE_RATE_LIMIT_API: '100000' } });
  await e.gateway.link.linkServerToServer();
});
afterAll(() => e.close());

interface Capability {
  group: string;
  name: string;
  available: boolean;
  inputSchema: { required?: string[] } | null;
}

/** Inputs for the capabilities that search through the hosted MCP server. */
const INPUTS: Record<string, unknown> = {
  'meetings/search_meetings': { q: 'truck' },
  'ai/ai_companion_search': { q: 'freight' },
  'ai/agentic_search': { q: 'freight' },
  'ai/ai_companion_ask': { question: 'What was decided about truck 214?' },
};

describe('server-to-server mode', () => {
  it('calls every capability that needs no input, and the hosted searches, within the contract', async () => {
    const list = (await e.api('GET', '/api/video/capabilities')).json.items as Capability[];
    const runnable = list.filter(
      (c) =>
        c.available && (INPUTS[`${c.group}/${c.name}`] !== undefined || !c.inputSchema?.required?.length),
    );
    expect(runnable.length).toBeGreaterThan(15);
    const answers: Record<string, number> = {};
    for (const c of runnable) {
      const r = await e.api('POST', `/api/video/capabilities/${c.group}/${c.name}`, {
        body: INPUTS[`${c.group}/${c.name}`] ?? {},
      });
      answers[`${c.group}/${c.name}`] = r.status;
      // Never a platform refusal passed on: only success or the gateway's own answer.
      expect(r.json?.error?.code, `${c.group}/${c.name}: ${r.text.slice(0, 300)}`).not.toBe(
        'upstream_rejected',
      );
      expect(r.status, `${c.group}/${c.name}: ${r.text.slice(0, 300)}`).toBeLessThan(500);
    }
    expect(Object.values(answers).filter((s) => s === 200).length).toBeGreaterThan(10);
  });
});
