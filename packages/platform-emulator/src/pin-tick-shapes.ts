/**
 * Imported first by the emulator's entry (main.ts) for its side effect: keeps one real
 * `process.nextTick` object of each shape alive, so that V8 never collects their maps while the
 * process idles and nextTick stays on its fast path (the service does the same for itself, see
 * its src/memory/tick-shapes.ts for the measurements). The emulator's own copy: it shares no
 * code with the service.
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
