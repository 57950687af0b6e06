/**
 * `fleetgate <command>` as its own process: the help (listing, per command, exit codes), an
 * unknown or missing command, migrate on SQLite and PostgreSQL, status from a running service
 * and from the store alone, and serve and sandbox starting what npm start and npm run sandbox do.
 * rotate-key's effect is tested in gateway/tokens.test.ts and gateway/webhooks-out.test.ts.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../src/store/create-store.js';
import { REPO } from '../helpers/build-test-app.js';
import { cannotRunHere } from '../helpers/services.js';
import { cliCommand, freePort, startService } from '../helpers/spawn-service.js';
import { API_KEY, startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { startPlatformRelay } from '../gateway/platform-relay.js';
import { REDIRECT, startTestEmulator } from '../helpers/emulator.js';

const COMMANDS = ['serve', 'sandbox', 'migrate', 'rotate-key', 'status', 'backup', 'restore', 'help'];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** One CLI run to its end, with only the given environment on top of a bare one. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const [node, ...argv] = cliCommand(...args);
  return new Promise((resolve) => {
    execFile(
      node,
      argv,
      { cwd: REPO, env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'silent', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-cli-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('help', () => {
  it('--help, -h and help list every command with a line each and exit 0', async () => {
    const runs = await Promise.all([cli(['--help']), cli(['-h']), cli(['help']), cli(['help', '--help'])]);
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^usage: fleetgate <command>/);
      for (const c of COMMANDS) expect(r.stdout).toMatch(new RegExp(`^  ${c} +\\S.*$`, 'm'));
    }
    expect(runs[1]?.stdout).toBe(runs[0]?.stdout);
    expect(runs[2]?.stdout).toBe(runs[0]?.stdout);
    expect(runs[3]?.stdout).toBe(runs[0]?.stdout);
  });

  it('<command> --help and help <command> print that command’s help and exit 0', async () => {
    const runs = await Promise.all(
      COMMANDS.filter((c) => c !== 'help').flatMap((c) => [
        cli([c, '--help']),
        cli(['help', c]),
        cli([c, '-h']),
      ]),
    );
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(
        /^usage: fleetgate (serve|sandbox|migrate|rotate-key|status|backup|restore)\b/,
      );
    }
    const status = runs.find((r) => r.stdout.startsWith('usage: fleetgate status'))?.stdout ?? '';
    for (const o of ['--json', '--offline', '--url']) expect(status).toContain(o);
  });

  it('no command, an unknown one, an unknown option or help for an unknown command: help on stderr, exit 2', async () => {
    const [none, unknown, option, helpUnknown, noFile, twoFiles] = await Promise.all([
      cli([]),
      cli(['frobnicate']),
      cli(['migrate', '--frobnicate'], { FLEETGATE_DATA_DIR: dataDir }),
      cli(['help', 'frobnicate']),
      cli(['backup', '--force'], { FLEETGATE_DATA_DIR: dataDir }),
      cli(['restore', 'a.tar.gz', 'b.tar.gz'], { FLEETGATE_DATA_DIR: dataDir }),
    ]);
    for (const r of [none, unknown, option, helpUnknown, noFile, twoFiles]) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('usage: fleetgate');
    }
    expect(none.stderr).toMatch(/^usage: fleetgate <command>/);
    expect(unknown.stderr).toMatch(/^fleetgate: unknown command "frobnicate"/);
    expect(helpUnknown.stderr).toMatch(/^fleetgate: unknown command "frobnicate"/);
    expect(option.stderr).toMatch(/^fleetgate migrate: unknown option "--frobnicate"/);
    expect(option.stderr).toContain('usage: fleetgate migrate');
    expect(noFile.stderr).toMatch(/^fleetgate backup: <file> is missing\n\nusage: fleetgate backup <file>/);
    expect(twoFiles.stderr).toMatch(
      /^fleetgate restore: unexpected argument "b.tar.gz"\n\nusage: fleetgate restore/,
    );
    expect(existsSync(path.join(dataDir, 'fleetgate.db'))).toBe(false);
  });

  it('a configuration error is reported in one line per problem and exits 1', async () => {
    const r = await cli(['migrate'], { FLEETGATE_DATA_DIR: dataDir, PORT: 'nope' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^fleetgate migrate: invalid configuration:\n {2}- PORT: /);
  });
});

describe('migrate', () => {
  // Every migration the store has, read from a store that ran them all: the test holds the CLI to
  // the store's own list, so a new migration does not need the test rewritten.
  let all: string[];
  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-cli-migrations-'));
    const store = await createStore({ databaseUrl: undefined, dataDir: dir });
    all = (await store.migrations()).applied;
    await store.close();
    await rm(dir, { recursive: true, force: true });
    expect(all.slice(0, 3)).toEqual(['001_initial', '002_idempotency', '003_webhooks_out']);
  });

  it('applies the migrations to the SQLite store in the data dir, then finds nothing to do', async () => {
    const env = { FLEETGATE_DATA_DIR: dataDir };
    const first = await cli(['migrate'], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`SQLite ${path.join(dataDir, 'fleetgate.db')}`);
    expect(first.stdout).toContain(`applied ${all.length} migration(s): ${all.join(', ')};`);
    expect(existsSync(path.join(dataDir, 'fleetgate.db'))).toBe(true);
    const again = await cli(['migrate'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`up to date (${all.length} migrations, latest ${all.at(-1)})`);
  });

  const DATABASE_URL =
    process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  it('applies them to PostgreSQL with DATABASE_URL and a schema, without printing the password', async (ctx) => {
    const admin = new pg.Pool({ connectionString: DATABASE_URL, max: 1, connectionTimeoutMillis: 2000 });
    admin.on('error', () => {});
    try {
      await admin.query('select 1');
    } catch {
      await admin.end();
      return cannotRunHere(ctx, `no PostgreSQL server at ${DATABASE_URL} for the CLI test`);
    }
    const schema = `fg_cli_${randomBytes(5).toString('hex')}`;
    try {
      const url = new URL(DATABASE_URL);
      url.password ||= 'not-shown-anywhere';
      // The server may take any password (trust); a password in the URL must still stay out of the output.
      const env = { FLEETGATE_DATA_DIR: dataDir, DATABASE_URL: url.href, FLEETGATE_DB_SCHEMA: schema };
      const r = await cli(['migrate'], env);
      // A server that checks passwords refuses the made-up one; CI's trusts and must not skip.
      if (r.code !== 0 && /password/i.test(r.stderr))
        return cannotRunHere(ctx, `PostgreSQL refused the CLI test's password: ${r.stderr.trim()}`);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`schema ${schema}`);
      expect(r.stdout).not.toContain(url.password);
      expect(r.stdout).toContain(`applied ${all.length} migration(s)`);
      const { rows } = await admin.query<{ name: string }>(
        `select name from ${pg.escapeIdentifier(schema)}.kysely_migration order by name`,
      );
      expect(rows.map((x) => x.name)).toEqual(all);
      expect((await cli(['migrate'], env)).stdout).toMatch(/up to date/);
    } finally {
      await admin.query(`drop schema if exists ${pg.escapeIdentifier(schema)} cascade`);
      await admin.end();
    }
  });
});

describe('status', () => {
  let e: GatewayEnv;
  beforeAll(async () => {
    e = await startGateway();
    await e.link();
    await e.api('POST', '/api/video/events', {
      body: { topic: 'CLI status check', start_time: '2031-07-01T10:00:00Z' },
    });
  });
  afterAll(() => e.close());

  it('asks the running service for its report with the configured API key', async () => {
    const env = { FLEETGATE_DATA_DIR: e.dataDir, FLEETGATE_API_KEY: API_KEY };
    const [text, json] = await Promise.all([
      cli(['status', '--url', e.base], env),
      cli(['status', '--url', e.base, '--json'], env),
    ]);
    const report = (await e.api('GET', '/api/video/status')).json;
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`from ${e.base}/api/video/status`);
    expect(text.stdout).toMatch(/^ {2}status +ok$/m);
    expect(text.stdout).toContain(report.account.email);
    expect(text.stdout).toMatch(/^ {2}stored events +1\b/m);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.account).toEqual(report.account);
    expect(Object.keys(parsed)).toEqual(Object.keys(report));
  });

  it('reads the store alone with --offline, or when no service answers, and says so', async () => {
    const env = { FLEETGATE_DATA_DIR: e.dataDir, FLEETGATE_API_KEY: API_KEY };
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const [offline, fallback, json] = await Promise.all([
      cli(['status', '--offline'], env),
      cli(['status', '--url', nobody], env),
      cli(['status', '--offline', '--json'], env),
    ]);
    for (const r of [offline, fallback]) {
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('from the store alone (the platform was not asked)');
      expect(r.stdout).toMatch(/^ {2}status +linked$/m);
      expect(r.stdout).toContain((await e.store.getLink())?.email ?? '?');
      expect(r.stdout).toMatch(/^ {2}stored events +1\b/m);
    }
    expect(fallback.stdout).toContain(`no service answered at ${nobody}`);
    const parsed = JSON.parse(json.stdout);
    expect(parsed).toMatchObject({ source: 'store', ok: true, link: { status: 'linked' }, storedEvents: 1 });
    expect(JSON.stringify(parsed)).not.toMatch(/accessToken|refreshToken/);
  });

  it('exits 3 when no account is linked, and creates nothing for a data dir never used', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'fleetgate-cli-empty-'));
    try {
      const r = await cli(['status', '--offline'], { FLEETGATE_DATA_DIR: empty });
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(/^ {2}status +not linked$/m);
      expect(r.stdout).toContain('no store yet');
      expect(existsSync(path.join(empty, 'fleetgate.db'))).toBe(false);
      expect(existsSync(path.join(empty, 'api-key'))).toBe(false);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it("names the platform's failure and exits 3 when the platform cannot be reached", async () => {
    const emu = await startTestEmulator({ redirectUris: [REDIRECT] });
    const relay = await startPlatformRelay(emu.base);
    const g = await startGateway({ emu, env: { VIDEO_API_BASE: `${relay.base}/v2` } });
    try {
      await g.link();
      await relay.refuse();
      const env = { FLEETGATE_DATA_DIR: g.dataDir, FLEETGATE_API_KEY: API_KEY };
      const down = await cli(['status', '--url', g.base], env);
      expect(down.stderr).toBe('');
      expect(down.code).toBe(3);
      expect(down.stdout).toMatch(/^ {2}status +platform unreachable: connection refused since \d{4}-/m);
      expect(down.stdout).toMatch(/^ {2}note +The platform cannot be reached: .* refused the connection/m);
    } finally {
      await g.close();
      await relay.close();
      await emu.close();
      await rm(g.dataDir, { recursive: true, force: true });
    }
  });

  it('refuses with exit 1 when the service refuses the key', async () => {
    const r = await cli(['status', '--url', e.base], {
      FLEETGATE_DATA_DIR: e.dataDir,
      FLEETGATE_API_KEY: 'not-the-key-0123456789abcdef',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^fleetgate status: .*401/);
  });
});

describe('serve and sandbox', () => {
  it('serve starts the service as npm start does and stops cleanly on SIGTERM', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-cli-serve-'));
    const svc = await startService({ FLEETGATE_DATA_DIR: dir, BRAND_WATCH: '0' }, ['serve']);
    try {
      expect(svc.output()).toContain('gateway');
      expect((await fetch(`${svc.base}/api/brand`)).status).toBe(200);
      const status = await fetch(`${svc.base}/api/video/status`);
      expect(status.status).toBe(401);
      expect(await svc.stop()).toBe(0);
    } finally {
      if (svc.child.exitCode === null) await svc.stop('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('sandbox starts the emulator alone as npm run sandbox does', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-cli-sandbox-'));
    const port = await freePort();
    const { spawn } = await import('node:child_process');
    const [node, ...argv] = cliCommand('sandbox');
    const child = spawn(node, argv, {
      cwd: REPO,
      env: { ...process.env, FLEETGATE_DATA_DIR: dir, SANDBOX_PORT: String(port), LOG_LEVEL: 'warn' },
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', () => out.includes('platform emulator:') && resolve());
        void exited.then((code) => reject(new Error(`sandbox exited with ${code}: ${out}`)));
      });
      expect(out).toContain(`http://127.0.0.1:${port}`);
      const res = await fetch(`http://127.0.0.1:${port}/v2/users/me`);
      expect(res.status).toBe(401);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });
});
