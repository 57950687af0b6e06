/**
 * The strict contract check: every request that reaches an in-process emulator is held against
 * the platform's full published documents (not the emulator's pruned rules.json: every
 * operation of every document, corrections applied by the same contract/corrections.ts), and
 * every violation is kept here, per test process, until test/contract-setup.ts fails the test
 * that caused it. A request under /v2 that no document has is a violation too, unless the
 * emulator lists its route as having no published reference (phone, recording downloads). What
 * no document describes (OAuth, the hosted MCP, `me` with an account token) the emulator's own
 * log reports (contract/log.ts), which test/helpers/emulator.ts reads.
 *
 * The root's test/helpers/contract.ts re-exports this and adds the gateway's own check (every
 * request the gateway sends is listed in docs/emulator-fidelity.md). Without the documents the
 * check is off (test/oracles-setup.ts says so in one line).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  checkRequest,
  findOperation,
  formatViolation,
  matchPath,
  describeRequest,
  type ContractViolation,
  type PlatformRequest,
} from '../../src/contract/check.js';
import { documentRules, type OpenApiDocument } from '../../src/contract/extract.js';
import { UNREFERENCED } from '../../src/contract/operations.js';
import type { OperationRule } from '../../src/contract/rules.js';
import { platformDocumentsDir } from './oracles.js';

const DIR = platformDocumentsDir();

/** Whether the strict check runs: the published documents are here. */
export const contractChecksOn = DIR !== undefined;

/** One check of a request the emulator received: the violations it finds. */
export type RequestCheck = (req: PlatformRequest) => ContractViolation[];

let rules: OperationRule[] | undefined;

/** Every operation of every published document (those with paths), as request rules. */
export function publishedRules(): OperationRule[] {
  if (!DIR) throw new Error('the published documents are absent: check contractChecksOn first');
  rules ??= readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => documentRules(f, JSON.parse(readFileSync(path.join(DIR, f), 'utf8')) as OpenApiDocument));
  return rules;
}

/** The emulator's routes no document describes, as path templates (`/v2/phone/users/{userId}/…`). */
const UNDOCUMENTED = UNREFERENCED.flatMap((u) => u.routes).map((key) => {
  const [method, url] = key.split(' ') as [string, string];
  return { method, template: url.replace(/:(\w+)/g, '{$1}') };
});

/** The violations of one request against the full documents; [] for the surfaces with no document. */
export const checkAgainstDocuments: RequestCheck = (req) => {
  if (/^\/(oauth|mcp)(\/|$)/.test(req.path)) return [];
  const op = findOperation(publishedRules(), req.method, req.path);
  if (op) return checkRequest(op, req);
  if (UNDOCUMENTED.some((u) => u.method === req.method && matchPath(u.template, req.path))) return [];
  return [
    {
      request: describeRequest(req),
      document: 'none',
      operation: '(none)',
      where: 'operation',
      name: `${req.method} ${req.path}`,
      rule: 'exists',
      message: 'no published document has this method and path',
      refuse: true,
    },
  ];
};

// Per test process (vitest runs each file in its own module graph, possibly in the same worker).
const KEY = Symbol.for('fleetgate.contract-violations');
const store = (): ContractViolation[] => {
  const g = globalThis as unknown as Record<symbol, ContractViolation[] | undefined>;
  return (g[KEY] ??= []);
};

/** Keeps violations until the current test ends (test/contract-setup.ts). */
export function recordViolations(list: readonly ContractViolation[]): void {
  if (contractChecksOn) store().push(...list);
}

/** The violations recorded since the last call, and forgets them. */
export function takeViolations(): ContractViolation[] {
  return store().splice(0);
}

/** The failure a test gets for them: one line per violation, each naming request, document, operation and rule. */
export function violationReport(list: readonly ContractViolation[]): string {
  const lines = [...new Set(list.map(formatViolation))];
  return `${lines.length} request(s) to the platform broke its published contract:\n${lines.map((l) => `  - ${l}`).join('\n')}`;
}

/**
 * What a test expects to break on purpose (an emulator test of a refusal): the violations
 * recorded while `run` runs must all match, and at least one must occur; they are not reported.
 */
export async function expectViolation<T>(
  match: { where?: ContractViolation['where']; name?: string; rule?: string | RegExp },
  run: () => Promise<T>,
): Promise<T> {
  const before = store().length;
  // A run that fails (the platform's refusal, say) is checked too, then fails as it did.
  const outcome = await run().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const result = (): T => {
    if (outcome.ok) return outcome.value;
    throw outcome.error;
  };
  if (!contractChecksOn) return result();
  const got = store().splice(before);
  const fits = (v: ContractViolation) =>
    (match.where === undefined || v.where === match.where) &&
    (match.name === undefined || v.name === match.name) &&
    (match.rule === undefined ||
      (typeof match.rule === 'string' ? v.rule === match.rule : match.rule.test(v.rule)));
  const others = got.filter((v) => !fits(v));
  if (got.length === 0 || others.length > 0)
    throw new Error(
      `expected only violations of ${JSON.stringify({ ...match, rule: String(match.rule) })}, got ${got.length === 0 ? 'none' : violationReport(got)}`,
    );
  return result();
}
