/**
 * cannotRunHere (test/helpers/services.ts): a test that cannot run on this machine is skipped,
 * but fails in CI (CI=true), where every service is provided.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cannotRunHere } from '../helpers/services.js';

class Skipped extends Error {}
const ctx = {
  skip: (note?: string): never => {
    throw new Skipped(note);
  },
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('cannotRunHere', () => {
  it('fails with the reason when CI=true', () => {
    vi.stubEnv('CI', 'true');
    expect(() => cannotRunHere(ctx, 'PostgreSQL refused the password')).toThrow(
      /^PostgreSQL refused the password; CI must provide it$/,
    );
  });

  it('skips with one line saying why elsewhere', () => {
    vi.stubEnv('CI', '');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(() => cannotRunHere(ctx, 'PostgreSQL refused the password')).toThrow(Skipped);
    expect(warn).toHaveBeenCalledWith('test skipped: PostgreSQL refused the password');
  });
});
