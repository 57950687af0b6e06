/**
 * The process metrics: prom-client's defaults under our prefix, the event-loop lag among them,
 * sampled at EVENT_LOOP_SAMPLE_MS rather than prom-client's 10 ms (which woke an idle service a
 * hundred times a second).
 */
import perfHooks from 'node:perf_hooks';
import { describe, expect, it, vi } from 'vitest';
import { createMetrics, EVENT_LOOP_SAMPLE_MS } from '../../src/http/metrics.js';

describe('process metrics', () => {
  it('report the event-loop lag, sampled every EVENT_LOOP_SAMPLE_MS', async () => {
    // prom-client reads the function off the module object when it starts sampling.
    const monitor = vi.spyOn(perfHooks, 'monitorEventLoopDelay');
    const m = createMetrics();
    expect(monitor).toHaveBeenCalledWith({ resolution: EVENT_LOOP_SAMPLE_MS });
    monitor.mockRestore();
    expect(EVENT_LOOP_SAMPLE_MS).toBeGreaterThan(10);
    await new Promise((r) => setTimeout(r, 3 * EVENT_LOOP_SAMPLE_MS));
    const text = await m.registry.metrics();
    expect(text).toMatch(/^fleetgate_nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^fleetgate_process_resident_memory_bytes \d/m);
  });
});
