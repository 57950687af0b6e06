/**
 * Vitest setup file: makes every test a contract test. A request that reached the emulator
 * during a test and broke the platform's published contract (test/helpers/contract.ts) fails
 * that test, naming the request, the document, the operation and the rule, even when the code
 * under test swallowed the platform's refusal. Requests made in a file's beforeAll count
 * against its first test; those made after its last test, in its afterAll.
 */
import { afterAll, afterEach } from 'vitest';
import { takeViolations, violationReport } from './helpers/contract.js';

function failOnViolations(): void {
  const found = takeViolations();
  if (found.length > 0) throw new Error(violationReport(found));
}

afterEach(failOnViolations);
afterAll(failOnViolations);
