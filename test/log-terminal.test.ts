/**
 * Logs for a person at a terminal: the start banner comes before the start's log lines, which
 * follow in pino-pretty's readable form (the emulator child's too); a warning is not held back.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { HeldUntilReady } from '../src/log-terminal.js';
import { eventually } from './helpers/build-test-app.js';
import { startService } from './helpers/spawn-service.js';

const line = (level: number, msg: string) => `${JSON.stringify({ level, msg })}\n`;

describe('HeldUntilReady', () => {
  it('holds info lines until released, and lets a warning through at once with what came before', () => {
    const out = new PassThrough();
    const seen: string[] = [];
    out.on('data', (c: Buffer) => seen.push(String(c)));
    const held = new HeldUntilReady(out);
    held.write(line(30, 'one'));
    held.write(line(20, 'two'));
    expect(seen).toEqual([]);
    held.write(line(40, 'careful'));
    expect(seen.join('')).toBe(line(30, 'one') + line(20, 'two') + line(40, 'careful'));
    held.write(line(30, 'after'));
    expect(seen.at(-1)).toBe(line(30, 'after'));
  });

  it('passes everything through once released', () => {
    const out = new PassThrough();
    const seen: string[] = [];
    out.on('data', (c: Buffer) => seen.push(String(c)));
    const held = new HeldUntilReady(out);
    held.write(line(30, 'early'));
    held.release();
    held.write(line(30, 'late'));
    expect(seen).toEqual([line(30, 'early'), line(30, 'late')]);
  });
});

describe('the service on a terminal (LOG_FORMAT=pretty)', () => {
  it('prints the banner first, then readable log lines from the service and the emulator', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-pretty-'));
    const svc = await startService({
      FLEETGATE_DATA_DIR: dataDir,
      BRAND_WATCH: '0',
      LOG_FORMAT: 'pretty',
      LOG_LEVEL: 'info',
    });
    try {
      await fetch(`${svc.base}/healthz`);
      // The emulator's lines come through a pipe and may arrive a moment after the banner.
      await eventually(() => {
        const lines = svc.output().split('\n').filter(Boolean);
        expect(lines[0]).toMatch(/^fleetgate is up: /);
        const logs = lines.filter((l) => / INFO: /.test(l));
        expect(logs.some((l) => l.includes('Server listening') && l.includes('"component":"sandbox"'))).toBe(
          true,
        );
        expect(logs.some((l) => l.includes('platform account linked'))).toBe(true);
        expect(lines.filter((l) => l.startsWith('{"level"'))).toEqual([]);
      });
    } finally {
      expect(await svc.stop('SIGTERM')).toBe(0);
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps JSON lines when stdout is not a terminal (the default)', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-json-'));
    const svc = await startService({ FLEETGATE_DATA_DIR: dataDir, BRAND_WATCH: '0', LOG_LEVEL: 'info' });
    try {
      const json = svc
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'));
      expect(json.length).toBeGreaterThan(3);
      for (const l of json) expect(() => JSON.parse(l) as unknown).not.toThrow();
    } finally {
      expect(await svc.stop('SIGTERM')).toBe(0);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
