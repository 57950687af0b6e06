/**
 * Puts a hook in front of a route's own, from an onRoute hook: how the identity hook and the
 * limiter attach to the routes whose declarations ask for them (the later one runs first).
 */
export function prependHook<H>(existing: H | H[] | undefined, hook: H): H[] {
  return [hook, ...(Array.isArray(existing) ? existing : existing ? [existing] : [])];
}
