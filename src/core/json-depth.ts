/**
 * How deep parsed JSON nests, found without recursion. JSON.parse takes any depth, but the
 * recursive walks after it (JSON.stringify, schema validation) overflow the stack on a few
 * thousand levels; bodies nested deeper than MAX_JSON_DEPTH are refused before any of them.
 */

/** Far beyond any request this service takes (MCP arguments, API bodies), far below a stack overflow. */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests objects and arrays more than `limit` levels deep (a scalar is level 0). */
export function nestsDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;
  // Level by level rather than recursively: the walk itself must not overflow.
  let level: object[] = isContainer(value) ? [value] : [];
  for (let depth = 1; level.length > 0; depth += 1) {
    if (depth > limit) return true;
    const next: object[] = [];
    for (const v of level) {
      for (const child of Array.isArray(v) ? (v as unknown[]) : Object.values(v)) {
        if (isContainer(child)) next.push(child);
      }
    }
    level = next;
  }
  return false;
}
