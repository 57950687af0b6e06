/**
 * Imported first by the emulator's entry (main.ts) for its side effect: keeps one real
 * `process.nextTick` object of each shape alive, so that V8 never collects their maps while the
 * process idles and nextTick keeps its optimised object literal. The service no longer pins them
 * (docs/operations.md, Performance targets: the brand rows meet their targets without it); the
 * emulator keeps its own copy, as it shares no code with the service.
 */
import { createHook } from 'node:async_hooks';

const pinned: object[] = [];
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
