/**
 * Logs for a person at a terminal: the start banner comes before the start's log lines, which
 * follow in pino-pretty's readable form (the emulator child's too); a warning is not held back.
 * On a real terminal (a pty from util-linux's `script`) the readable form is the default, the
 * generated API key is shown once, and Ctrl-C stops the service cleanly.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { HeldUntilReady } from '../../src/log-terminal.js';
import { eventually, REPO } from '../helpers/build-test-app.js';
import { freePort, serviceCommand, startService } from '../helpers/spawn-service.js';

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

describe('the service on a real terminal', () => {
  it('logs readably by default, shows the generated key once with its file, and stops on Ctrl-C', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-tty-'));
    // `script` runs the command on a pty of its own: stdout is a terminal, as for a person. The
    // shell it runs the command with is replaced by node (exec), so Ctrl-C reaches node alone.
    const command = `exec ${serviceCommand()
      .map((a) => `'${a}'`)
      .join(' ')}`;
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      cwd: REPO,
      env: {
        ...process.env,
        FLEETGATE_DATA_DIR: dataDir,
        PORT: String(await freePort()),
        SANDBOX_PORT: String(await freePort()),
        BRAND_WATCH: '0',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'auto',
      },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await eventually(() => expect(out).toContain('fleetgate is up'), 1200);
      const key = readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
      expect(out).toContain(`API key (shown once; also saved in ${path.join(dataDir, 'api-key')}):`);
      expect(out.split(key).length - 1).toBe(1);
      await eventually(() => expect(out).toMatch(/INFO.*: .*Server listening/));
      expect(out).not.toMatch(/^\{"level"/m);
      // Ctrl-C on the terminal: SIGINT to the service, which shuts down cleanly.
      child.stdin.write('\x03');
      expect(await exited).toBe(0);
      expect(out).toContain('shut down cleanly');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
