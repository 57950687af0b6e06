/**
 * The in-memory failure counter behind the key-guessing lockout: windows end on the injected
 * clock, and a flood of fresh addresses past the memory cap keeps the newest windows counting.
 */
import { describe, expect, it } from 'vitest';
import { memoryFailures } from '../../src/http/auth-failures.js';

describe('memoryFailures', () => {
  it('locks an address out past the limit until its window ends', async () => {
    let t = 0;
    const f = memoryFailures(2, 1_000, () => t);
    expect(await f.fail('a')).toBeUndefined();
    expect(await f.fail('a')).toBeUndefined();
    expect(await f.fail('a')).toEqual({ retryAfterMs: 1_000 });
    t = 400;
    expect(await f.check('a')).toEqual({ retryAfterMs: 600 });
    expect(await f.check('b')).toBeUndefined();
    t = 1_000;
    expect(await f.check('a')).toBeUndefined();
  });

  it('past its cap drops the oldest windows and keeps counting the newest', async () => {
    let t = 0;
    const f = memoryFailures(1, 60_000, () => t);
    for (let i = 0; i < 60_000; i++) {
      t = i; // every address gets a later window than the one before
      await f.fail(`10.0.${i >> 8}.${i & 255}`);
    }
    const last = '10.0.234.95'; // address 59,999
    expect(await f.fail(last)).toEqual({ retryAfterMs: 60_000 });
    expect(await f.check(last)).toEqual({ retryAfterMs: 60_000 });
    // The first address's window was dropped to make room: it counts from zero again.
    expect(await f.fail('10.0.0.0')).toBeUndefined();
  });
});
