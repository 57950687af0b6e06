/**
 * The per-label pacing: a full window makes the next call wait for the oldest slot to expire,
 * reserved future slots count, expired ones leave, and headroom counts only slots taken so far.
 */
import { describe, expect, it } from 'vitest';
import { Budgets, PRO_BUDGETS } from '../../src/gateway/platform/budget.js';

describe('Budgets', () => {
  it('paces a burst over the window and frees slots as they expire', () => {
    let now = 0;
    const b = new Budgets({ ...PRO_BUDGETS, LIGHT: { limit: 3, windowMs: 1000 } }, () => now);
    expect([0, 1, 2, 3, 4, 5, 6].map(() => b.reserveNow('LIGHT'))).toEqual([0, 0, 0, 1000, 1000, 1000, 2000]);
    expect(b.headroom().LIGHT.available).toBe(0);
    now = 1000; // the first three expired; three reserved at 1000 are taken now, one waits for 2000
    expect(b.reserveNow('LIGHT')).toBe(1000);
    now = 3001; // everything expired
    expect(b.headroom().LIGHT.available).toBe(3);
    expect(b.reserveNow('LIGHT')).toBe(0);
    expect(b.headroom().LIGHT.available).toBe(2);
  });

  it('admits exactly a large budget over a long run and keeps labels apart', () => {
    let now = 0;
    const b = new Budgets({ ...PRO_BUDGETS, MEDIUM: { limit: 100_000, windowMs: 1000 } }, () => now);
    for (let i = 0; i < 200_000; i++) {
      now = Math.floor(i / 100); // 100 calls per ms = 100 000 per second: exactly the budget
      expect(b.reserveNow('MEDIUM')).toBe(0);
    }
    expect(b.reserveNow('HEAVY')).toBe(0);
    expect(b.headroom().HEAVY.available).toBe(PRO_BUDGETS.HEAVY.limit - 1);
  });
});
