/**
 * Injected faults for tests of the gateway's resilience: the next `times` matching calls fail
 * with a status (0 drops the connection), optionally after a delay, optionally with Retry-After.
 */
import * as z from 'zod';

export const faultSchema = z.strictObject({
  path: z.string().min(1),
  method: z.string().optional(),
  status: z.number().int().min(0).max(599).optional(),
  times: z.number().int().min(1).max(100_000).default(1),
  delayMs: z.number().int().min(0).max(120_000).default(0),
  retryAfter: z.string().optional(),
});
export type Fault = z.infer<typeof faultSchema>;

export class Faults {
  #list: Fault[] = [];

  add(f: Fault): void {
    this.#list.push({ ...f });
  }

  clear(): void {
    this.#list = [];
  }

  get active(): Fault[] {
    return this.#list;
  }

  /** The fault to apply to this call, consuming one of its `times`. */
  take(method: string, path: string): Fault | undefined {
    const f = this.#list.find(
      (x) =>
        (!x.method || x.method.toUpperCase() === method) &&
        (x.path.endsWith('*') ? path.startsWith(x.path.slice(0, -1)) : path === x.path),
    );
    if (!f) return undefined;
    f.times -= 1;
    if (f.times <= 0) this.#list = this.#list.filter((x) => x !== f);
    return f;
  }
}
