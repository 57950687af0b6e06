/**
 * Vitest setup file: makes every emulator test a contract test. A request that reached the
 * emulator during a test and broke the platform's published contract (test/helpers/contract.ts)
 * fails that test, naming the request, the document, the operation and the rule. Requests made
 * in a file's beforeAll count against its first test; those made after its last test, in its
 * afterAll. The root's test/contract-setup.ts does the same for the service's tests.
 */
import { afterAll, afterEach } from 'vitest';
import { takeViolations, violationReport } from './helpers/contract.js';

function failOnViolations(): void {
  const found = takeViolations();
  if (found.length > 0) throw new Error(violationReport(found));
}

afterEach(failOnViolations);
afterAll(failOnViolations);
