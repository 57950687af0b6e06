/**
 * What the start (the bundle, as npm start runs it) says and refuses about its secrets: piped,
 * the generated API key stays out of the output (its file's path is given instead); a weak
 * FLEETGATE_API_KEY, or a weak key in the data dir's api-key file, stops the start with the reason
 * and how to make a good key; a data dir open to other users is reported with its mode and the fix.
 */
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '../helpers/spawn-service.js';

const dirs: string[] = [];
const newDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-start-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const ADVICE = /openssl rand -base64 32/;

/** The output of a start that should fail; one that comes up instead is stopped and says so. */
const refusedStart = (env: Record<string, string>) =>
  startService(env).then(
    async (svc) => {
      await svc.stop('SIGKILL');
      return `started:\n${svc.output()}`;
    },
    (err: Error) => err.message,
  );

describe('the generated API key', () => {
  it('is not written to piped output; the path of its file is', async () => {
    const dataDir = await newDir();
    const svc = await startService({ FLEETGATE_DATA_DIR: dataDir, BRAND_WATCH: '0' });
    try {
      const key = readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
      expect(key).toMatch(/^fg_[\w-]{32}$/);
      expect(svc.output()).not.toContain(key);
      expect(svc.output()).toContain(`API key generated and saved in ${path.join(dataDir, 'api-key')}`);
      // It is the key, all the same.
      const res = await fetch(`${svc.base}/api/video/status`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(200);
    } finally {
      expect(await svc.stop()).toBe(0);
    }
  });
});

describe('a weak API key', () => {
  it.each(['changeme-changeme-changeme', 'your-api-key-goes-here-please', 'xxxxxxxxxxxxxxxxxxxxxxxx'])(
    'in FLEETGATE_API_KEY (%s) stops the start, saying why and how to make a good one',
    async (key) => {
      const dataDir = await newDir();
      const message = await refusedStart({
        FLEETGATE_DATA_DIR: dataDir,
        BRAND_WATCH: '0',
        FLEETGATE_API_KEY: key,
      });
      expect(message).toMatch(/exited with 1/);
      expect(message).toMatch(/fleetgate: FLEETGATE_API_KEY is refused: it is mostly placeholder words/);
      expect(message).toMatch(ADVICE);
      expect(message).not.toContain('fleetgate is up');
    },
  );

  it('in the data dir’s api-key file stops the start, naming the file', async () => {
    const dataDir = await newDir();
    writeFileSync(path.join(dataDir, 'api-key'), 'abcdefghijklmnopqrstuvwxyz\n', { mode: 0o600 });
    const message = await refusedStart({ FLEETGATE_DATA_DIR: dataDir, BRAND_WATCH: '0' });
    expect(message).toMatch(/exited with 1/);
    expect(message).toContain(`the API key in ${path.join(dataDir, 'api-key')} is refused: it is guessable`);
    expect(message).toMatch(ADVICE);
  });
});

describe('a data dir open to other users', () => {
  it('is reported at start with its mode and the fix; an owner-only one is not', async () => {
    const open = await newDir();
    chmodSync(open, 0o755);
    const closed = await newDir();
    expect(statSync(closed).mode & 0o777).toBe(0o700);
    const [a, b] = await Promise.all([
      startService({ FLEETGATE_DATA_DIR: open, BRAND_WATCH: '0' }),
      startService({ FLEETGATE_DATA_DIR: closed, BRAND_WATCH: '0' }),
    ]);
    try {
      const warning = a
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; msg: string; dir?: string; mode?: string })
        .find((l) => l.msg.includes('open to other users'));
      expect(warning).toMatchObject({ level: 40, dir: open, mode: '0755' });
      expect(warning?.msg).toContain(`chmod 700 ${open}`);
      // Reported, not changed: the directory is the operator's.
      expect(statSync(open).mode & 0o777).toBe(0o755);
      expect(b.output()).not.toContain('open to other users');
    } finally {
      expect(await a.stop()).toBe(0);
      expect(await b.stop()).toBe(0);
    }
  });
});
