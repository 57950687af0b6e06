/**
 * The suite's strict contract check: the emulator's (packages/platform-emulator/test/helpers/
 * contract.ts: every request that reaches an in-process emulator held against the platform's
 * full published documents, violations kept per test process until test/contract-setup.ts fails
 * the test that caused it), re-exported, plus the gateway's own rule: a request the gateway
 * sends that docs/emulator-fidelity.md's table does not list is a violation too. What no
 * document describes the emulator's own log reports (contract/log.ts), read by
 * test/helpers/emulator.ts for in-process emulators and, through `GET /_sandbox/contract`, by
 * spawn-service.ts for emulators run as a child process.
 *
 * Without the documents the check is off (test/oracles-setup.ts says so in one line).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  describeRequest,
  matchPath,
  type ContractViolation,
  type PlatformRequest,
} from '../../packages/platform-emulator/src/contract/check.js';

export {
  checkAgainstDocuments,
  contractChecksOn,
  expectViolation,
  publishedRules,
  recordViolations,
  takeViolations,
  violationReport,
  type RequestCheck,
} from '../../packages/platform-emulator/test/helpers/contract.js';

const FIDELITY = path.resolve(import.meta.dirname, '../../docs/emulator-fidelity.md');
let listed: { method: string; template: string }[] | undefined;

/** The requests docs/emulator-fidelity.md's table "What the gateway sends" lists. */
export function listedRequests(): { method: string; template: string }[] {
  if (!listed) {
    const text = readFileSync(FIDELITY, 'utf8');
    const section = text.slice(text.indexOf('### What the gateway sends'));
    const table = section.slice(0, section.indexOf('\n## '));
    listed = [...table.matchAll(/^\| `(GET|POST|PUT|PATCH|DELETE) (\/[^`]*)` *\|/gm)].map((m) => ({
      method: m[1]!,
      template: m[2]!,
    }));
  }
  return listed;
}

/** The gateway names itself `fleetgate/<version>` (src/version.ts); tests and other clients do not. */
const GATEWAY = /^fleetgate\//;

/**
 * A request the gateway sent to a route the fidelity table does not list: coverage is stated,
 * so a new capability's requests must be added to the table (with their document).
 */
export function checkListed(req: PlatformRequest): ContractViolation[] {
  if (!GATEWAY.test(req.userAgent ?? '')) return [];
  const ok = listedRequests().some((l) => l.method === req.method && matchPath(l.template, req.path));
  if (ok) return [];
  return [
    {
      request: describeRequest(req),
      document: 'docs/emulator-fidelity.md',
      operation: 'What the gateway sends',
      where: 'operation',
      name: `${req.method} ${req.path}`,
      rule: 'listed',
      message: 'the gateway sent a request its fidelity table does not list: add the row, with its document',
      refuse: true,
    },
  ];
}
