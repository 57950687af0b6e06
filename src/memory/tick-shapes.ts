/**
 * Keeps the hidden classes (V8 maps) of Node's `process.nextTick` objects alive for the life of
 * the process, so that nextTick stays on V8's fast path.
 *
 * Node 20 builds each tick object as an object literal with two computed symbol keys. V8 holds
 * the maps of such objects only weakly (from the transition tree, the optimised code and the
 * inline-cache feedback). When a full GC runs while no tick object is alive, which is what an
 * idle service's memory-reducing GCs see, the maps are collected and rebuilt on the next tick;
 * nextTick's literal feedback then sees a second map and turns megamorphic for good, and from then
 * on every tick object is built through the V8 runtime. test/tick-shapes.test.ts reproduces it in
 * a bare Node process; measured there, a nextTick (with its drain) costs ~3× as much afterwards.
 * In the service it happened in 4 of 6 starts checked (when depends on the start-up GCs); a brand
 * GET then made ~30 such runtime calls, and its main-thread instructions under callgrind were
 * 142–144k against the bare server's 96–97k (BENCHMARKS.md; 104k with the pin).
 *
 * Holding one real tick object of each shape (without and with arguments) keeps the whole map
 * chain reachable, so it is never rebuilt. The objects are captured once, at start, by an async
 * hook enabled only around two nextTick calls (no promise runs in that window); nothing stays
 * hooked. On a Node whose tick objects are built differently this keeps two small objects and
 * changes nothing else.
 */
import { createHook } from 'node:async_hooks';

const pinned: object[] = [];

/** Captures and keeps the tick-object shapes (once per process); returns how many are held. */
export function pinTickObjectShapes(): number {
  if (pinned.length > 0) return pinned.length;
  const noop = (): void => undefined;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') pinned.push(resource);
    },
  });
  hook.enable();
  try {
    process.nextTick(noop);
    process.nextTick(noop, 0);
  } finally {
    hook.disable();
  }
  return pinned.length;
}
