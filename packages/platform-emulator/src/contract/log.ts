/**
 * The contract violations the emulator has seen, kept in memory (the newest 500) for
 * `GET /_sandbox/contract` and told to listeners as they happen: the REST requests its rules
 * caught (refused or, for an undeclared name, only noted), `me` sent with an account-level
 * token, malformed OAuth requests and hosted-MCP calls outside the tools' input schemas. A suite that runs the emulator in-process
 * listens; one that runs it as a child process reads the list before stopping it.
 */
import type { ContractViolation } from './check.js';

/** Which surface of the platform the request was to. */
export type Surface = 'rest' | 'oauth' | 'mcp';

export interface LoggedViolation extends ContractViolation {
  surface: Surface;
  /**
   * True when a published document's rule was broken (the suite's strict check finds those in
   * the full documents itself); false for the platform's other rules: OAuth, the hosted MCP's
   * tools, `me` with an account-level token.
   */
  fromDocuments: boolean;
  at: string;
}

const KEEP = 500;

export class ContractLog {
  readonly #entries: LoggedViolation[] = [];
  readonly #listeners = new Set<(v: LoggedViolation) => void>();
  #total = 0;

  constructor(private readonly now: () => Date) {}

  record(surface: Surface, violations: ContractViolation[], fromDocuments = surface === 'rest'): void {
    for (const v of violations) {
      const entry: LoggedViolation = { ...v, surface, fromDocuments, at: this.now().toISOString() };
      this.#total += 1;
      this.#entries.push(entry);
      if (this.#entries.length > KEEP) this.#entries.shift();
      for (const l of this.#listeners) l(entry);
    }
  }

  /** Calls `listener` with every violation recorded from now on; returns the unsubscribe. */
  listen(listener: (v: LoggedViolation) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get entries(): readonly LoggedViolation[] {
    return this.#entries;
  }

  /** All recorded since start, including those no longer kept. */
  get total(): number {
    return this.#total;
  }
}
