/**
 * Sandbox mode, the emulator child killed with SIGKILL: the service starts it again on the same
 * port with backoff, logs one warning per restart (exit code or signal, attempt), the emulator
 * keeps its state (issued tokens, meetings) from the data dir, and the gateway serves again
 * without a restart of its own. While the child is down, a server that takes its port is never
 * sent anything, and the child comes back once the port is free. On shutdown it is not restarted.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/build-test-app.js';
import { startService, type Service } from '../helpers/spawn-service.js';

const KEY = randomBytes(24).toString('base64url');
const EXITED = 'the emulator process exited; starting it again';
const NOT_STARTED = 'the emulator process did not start again; trying again';

let svc: Service;
let dataDir: string;
let squatter: Server | undefined;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-restart-'));
  svc = await startService({ FLEETGATE_DATA_DIR: dataDir, FLEETGATE_API_KEY: KEY, BRAND_WATCH: '0' });
});
afterAll(async () => {
  await new Promise<void>((resolve) => (squatter?.listening ? squatter.close(() => resolve()) : resolve()));
  if (svc.child.exitCode === null) await svc.stop('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

const api = async (method: string, p: string, body?: unknown) => {
  const res = await fetch(`${svc.base}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
};

/** The service's log lines with this message. */
const logged = (msg: string) =>
  svc
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l['msg'] === msg);

/** The service's emulator children (run from source or from dist/), read from /proc. */
function emulatorsOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name, which may hold spaces, closed by the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid) continue;
      // Not tsx's esbuild service, the other child when the service runs from source.
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (/platform-emulator[/\\]src[/\\]main\.ts|sandbox\.js/.test(cmd)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}
const emulatorPid = (): number => {
  const kids = emulatorsOf(svc.child.pid ?? -1);
  expect(kids).toHaveLength(1);
  return kids[0] ?? -1;
};
const gone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

/** The emulator answers on its port as itself (its 401 for a call without a token). */
const emulatorAnswers = async () => {
  const res = await fetch(`${svc.sandboxBase}/v2/users/me`);
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ code: 124, message: 'Requires an access token.' });
};

/** The gateway serves platform calls again, and its status report is ok. */
const gatewayServes = async () => {
  await eventually(emulatorAnswers, 600, 50);
  await eventually(
    async () => {
      const status = await api('GET', '/api/video/status?fresh=1');
      expect(status.json.ok, status.text).toBe(true);
    },
    20,
    250,
  );
  const recordings = await api('GET', '/api/video/recordings');
  expect(recordings.status, recordings.text).toBe(200);
};

// The emulator child is found among the service's children through /proc (Linux).
describe.skipIf(!existsSync('/proc/self/stat'))('the emulator child in sandbox mode', () => {
  it('is started again when killed, on the same port with its state, and the gateway serves again', async () => {
    await gatewayServes();
    const made = await api('POST', '/api/video/events', {
      topic: 'Made before the kill',
      start_time: '2031-04-01T10:00:00.000Z',
    });
    expect(made.status, made.text).toBe(201);
    // The emulator saves shortly after each change: the meeting is in its file before the kill.
    const stateFile = path.join(dataDir, 'sandbox', 'sandbox-state.json');
    await eventually(() => expect(readFileSync(stateFile, 'utf8')).toContain(String(made.json.video_id)));
    const before = emulatorPid();
    process.kill(before, 'SIGKILL');
    await eventually(() => expect(logged(EXITED)).toHaveLength(1), 400, 50);
    expect(logged(EXITED)[0]).toMatchObject({ level: 40, signal: 'SIGKILL', code: null, attempt: 1 });
    await gatewayServes();
    const after = emulatorPid();
    expect(after).not.toBe(before);
    expect(gone(before)).toBe(true);
    // The emulator kept its state: the gateway's token still works (no relink), the meeting is there.
    const got = await api('POST', '/api/video/capabilities/meetings/get_meeting', {
      video_id: made.json.video_id,
    });
    expect(got.status, got.text).toBe(200);
    expect(got.json.result.topic).toBe('Made before the kill');
    expect(logged(EXITED)).toHaveLength(1);
  }, 60_000);

  it('sends nothing to a server that takes its port meanwhile, and comes back once the port is free', async () => {
    const asked: string[] = [];
    squatter = createServer((req, res) => {
      asked.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    const port = Number(new URL(svc.sandboxBase).port);
    const pid = emulatorPid();
    process.kill(pid, 'SIGKILL');
    // Take the port as soon as the dead child lets it go, well before the restart is due.
    await eventually(
      () =>
        new Promise<void>((resolve, reject) => {
          squatter?.once('error', reject);
          squatter?.listen(port, '127.0.0.1', () => {
            squatter?.off('error', reject);
            resolve();
          });
        }),
      200,
      10,
    );
    await eventually(() => expect(logged(EXITED)).toHaveLength(2), 400, 50);
    expect(logged(EXITED)[1]).toMatchObject({ signal: 'SIGKILL', attempt: 2 });
    const call = await api('GET', '/api/video/recordings');
    expect(call.status).toBe(502);
    const status = await api('GET', '/api/video/status?fresh=1');
    expect(status.json.ok).toBe(false);
    expect(status.json.platform).toMatchObject({ reachable: false, cause: 'connection_refused' });
    // The restart finds the port taken, says so, and keeps trying.
    await eventually(() => expect(logged(NOT_STARTED).length).toBeGreaterThan(0), 400, 50);
    expect(String(logged(NOT_STARTED)[0]?.['reason'])).toMatch(/in use/);
    expect(asked).toEqual([]);
    await new Promise<void>((resolve) => squatter?.close(() => resolve()));
    await gatewayServes();
    expect(asked).toEqual([]);
  }, 90_000);

  it('is not started again when the service shuts down', async () => {
    const pid = emulatorPid();
    const exits = logged(EXITED).length;
    expect(await svc.stop('SIGTERM')).toBe(0);
    expect(gone(pid)).toBe(true);
    expect(logged(EXITED)).toHaveLength(exits);
    await expect(fetch(`${svc.sandboxBase}/v2/users/me`)).rejects.toThrow();
  });
});
