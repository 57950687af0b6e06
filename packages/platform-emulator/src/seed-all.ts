/**
 * The demo data: the demo user a seed makes, every module's slice seeded from its own stream, and
 * the state loaded from the data dir (seeded again when it is too old or lacks a module's slice).
 */
import type { Logger } from 'pino';
import type { DemoUser, EmulatorModule, SeedContext } from './context.js';
import type { EmulatorOptions } from './options.js';
import { createRng } from './prng.js';
import { EmulatorState } from './state.js';

/** Seeded dates follow the calendar; older than this, the demo data is generated again. */
const REANCHOR_AFTER_DAYS = 7;

export function demoUserFor(seed: number): DemoUser {
  const rng = createRng(seed);
  return {
    id: rng.id(22, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
    accountId: rng.id(22, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
    email: 'avery.quinn@meridianfleet.example',
    firstName: 'Avery',
    lastName: 'Quinn',
    pmi: Number(rng.digits(10)),
    timezone: 'America/Chicago',
  };
}

export const dayOf = (d: Date) => d.toISOString().slice(0, 10);

export function seedAll(modules: EmulatorModule[], seed: number, anchorDay: string): Record<string, unknown> {
  const demo = demoUserFor(seed);
  const anchor = new Date(`${anchorDay}T00:00:00Z`);
  const slices: Record<string, unknown> = {};
  for (const m of modules) {
    // Each module gets its own stream, so adding a module never changes another's data.
    let h = seed;
    for (const ch of m.name) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
    const s: SeedContext = {
      rng: createRng(h),
      anchor,
      demo,
      at: (days, hh = 0, mm = 0) => {
        const d = new Date(anchor.getTime() + days * 86_400_000 + (hh * 60 + mm) * 60_000);
        return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
      },
    };
    slices[m.name] = m.seed(s);
  }
  return slices;
}

/** The saved state, re-seeded for today when stale or missing a module; else a fresh one. */
export function loadState(
  options: EmulatorOptions,
  modules: EmulatorModule[],
  stateLog: Logger,
): EmulatorState {
  const today = dayOf(options.now());
  const state = EmulatorState.load(options.dataDir, stateLog);
  if (!state) {
    const fresh = EmulatorState.fresh(
      options.dataDir,
      today,
      seedAll(modules, options.seed, today),
      stateLog,
    );
    fresh.changed();
    return fresh;
  }
  const age = (Date.parse(today) - Date.parse(state.file.anchor)) / 86_400_000;
  if (age > REANCHOR_AFTER_DAYS || modules.some((m) => !(m.name in state.file.slices))) {
    options.logger.info({ anchor: state.file.anchor }, 'sandbox demo data re-generated for today');
    state.file.anchor = today;
    state.file.slices = seedAll(modules, options.seed, today);
    state.changed();
  }
  return state;
}
