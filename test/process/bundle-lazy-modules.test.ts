/**
 * Every module the code loads lazily (an `import()`: optional features, cold-cache work, CLI
 * commands) is loaded from the bundle that ships, and works there. A bundle can break what the
 * sources do (esbuild gives a lazily imported CommonJS chunk only a default export, so a named
 * export read from it is undefined: tracing once crashed `npm start` so), and only a process
 * that loads the module finds out. The lazy imports are read from the sources, so a new one fails
 * this test until a scenario here loads it. The scenarios run dist/ as npm start and npm run
 * fleetgate do, under a module probe (test/helpers/module-probe.ts):
 *  - the service with every option on: a cold data dir (fonts, images, token formats, documents
 *    built), PostgreSQL and Redis, tracing as OTLP JSON to a receiver here, readable logs, the
 *    brand folder watched, a key to check; the brand and gateway MCP endpoints and a search
 *    through the emulator's hosted MCP answered;
 *  - `fleetgate serve` on SQLite with tracing as OTLP protobuf;
 *  - the CLI's other commands: migrate, rotate-key (and --retire), status, backup, restore, sandbox.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/build-test-app.js';
import { moduleProbe, type ModuleProbe } from '../helpers/module-probe.js';
import { requireService } from '../helpers/services.js';
import { cliCommand, freePort, startService } from '../helpers/spawn-service.js';

const run = promisify(execFile);
const API_KEY = `bundle-${randomBytes(24).toString('base64url')}`;
const DATABASE_URL = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const backing =
  (await requireService('PostgreSQL', '127.0.0.1', 5432)) &&
  (await requireService('Redis', '127.0.0.1', 6379));

interface LazyImport {
  /** Where the import() is, repository-relative. */
  file: string;
  specifier: string;
  /** What loading it shows in the probe: a source file, or a package's node_modules folder. */
  target: string;
}

const ROOTS = ['src', 'packages/platform-emulator/src'];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(rel);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [rel] : [];
  });
}

/** A source file without its comments (which may show an import() as an example). */
const code = (file: string) =>
  readFileSync(path.join(REPO, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

/** Every `import('…')` in the service's and the emulator's sources. */
function lazyImports(): LazyImport[] {
  const emulatorExports = (
    JSON.parse(readFileSync(path.join(REPO, 'packages/platform-emulator/package.json'), 'utf8')) as {
      exports: Record<string, string>;
    }
  ).exports;
  return ROOTS.flatMap(sourceFiles).flatMap((file) =>
    [...code(file).matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => {
      const specifier = m[1] ?? '';
      let target: string;
      if (specifier.startsWith('.'))
        target = path.join(path.dirname(file), specifier).replace(/\.js$/, '.ts');
      else if (specifier.startsWith('@fleetgate/platform-emulator/'))
        target = path.join(
          'packages/platform-emulator',
          emulatorExports[`./${specifier.slice('@fleetgate/platform-emulator/'.length)}`] ?? '?',
        );
      else {
        const parts = specifier.split('/');
        target = `node_modules/${(specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/')}/`;
      }
      return { file, specifier, target };
    }),
  );
}

/** An OTLP/HTTP receiver: the content types of the trace exports it got. */
async function receiver(): Promise<{ server: Server; url: string; got: string[] }> {
  const got: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') got.push(req.headers['content-type'] ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got };
}

/** One MCP request (JSON-RPC over streamable HTTP), its JSON-RPC answer. */
async function mcp(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '');
  return {
    status: res.status,
    json: JSON.parse(data) as { result?: Record<string, unknown>; error?: unknown },
  };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'bundle-test', version: '1' },
  },
};

let dir: string;
let probe: ModuleProbe;
const dataDir = (name: string) => path.join(dir, name);
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-bundle-'));
  probe = await moduleProbe(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the bundle loads every lazily imported module', () => {
  it.skipIf(!backing)(
    'the service with every option on: PostgreSQL, Redis, OTLP JSON, readable logs, watching, MCP',
    async () => {
      const rx = await receiver();
      const schema = `fg_bundle_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
      try {
        const svc = await startService({
          ...probe.env,
          FLEETGATE_DATA_DIR: dataDir('all-on'),
          FLEETGATE_API_KEY: API_KEY,
          DATABASE_URL,
          FLEETGATE_DB_SCHEMA: schema,
          REDIS_URL: 'redis://127.0.0.1:6379',
          FLEETGATE_REDIS_PREFIX: `fg-bundle-${randomBytes(4).toString('hex')}`,
          OTEL_EXPORTER_OTLP_ENDPOINT: rx.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          LOG_FORMAT: 'pretty',
          LOG_LEVEL: 'info',
          BRAND_WATCH: '1',
        });
        try {
          const auth = { authorization: `Bearer ${API_KEY}` };
          // The gateway, its budgets in Redis and its store in PostgreSQL.
          const contacts = await fetch(`${svc.base}/api/video/contacts?page_size=5`, { headers: auth });
          expect(contacts.status).toBe(200);
          // A search through the emulator's hosted MCP (its SDK loads in the emulator's process).
          const search = await fetch(`${svc.base}/api/video/ai/search?q=roadmap`, { headers: auth });
          expect(search.status).toBe(200);
          expect(((await search.json()) as { via: string }).via).toBe('hosted_mcp');
          // Both MCP endpoints answer an initialize.
          const brand = await mcp(`${svc.base}/mcp`, initialize);
          expect(brand.status).toBe(200);
          expect(brand.json.result?.['serverInfo']).toBeDefined();
          const gateway = await mcp(`${svc.base}/api/video/mcp`, initialize, auth);
          expect(gateway.status).toBe(200);
          expect(gateway.json.result?.['serverInfo']).toBeDefined();
          // The built brand: images, tokens, documents.
          for (const p of [
            '/static/fleet/assets/logo-horizontal-light.png',
            '/favicon.ico',
            '/api/brand/tokens.css',
            '/static/fleet/docs/',
          ])
            expect((await fetch(`${svc.base}${p}`)).status, p).toBe(200);
          // Readable logs (pino-pretty), not JSON lines.
          expect(svc.output()).toMatch(/INFO.*: /);
          expect(svc.output()).not.toMatch(/^\{"level"/m);
        } finally {
          expect(await svc.stop()).toBe(0);
        }
        // Shutdown flushed the spans to the receiver, as OTLP JSON.
        expect(rx.got.length).toBeGreaterThan(0);
        for (const t of rx.got) expect(t).toMatch(/^application\/json/);
      } finally {
        rx.server.close();
        await admin
          .query(`drop schema if exists ${pg.escapeIdentifier(schema)} cascade`)
          .catch(() => undefined);
        await admin.end();
      }
    },
  );

  it('fleetgate serve on SQLite, with OTLP protobuf', async () => {
    const rx = await receiver();
    try {
      const svc = await startService(
        {
          ...probe.env,
          FLEETGATE_DATA_DIR: dataDir('serve'),
          BRAND_WATCH: '0',
          OTEL_EXPORTER_OTLP_ENDPOINT: rx.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        },
        ['serve'],
      );
      try {
        expect((await fetch(`${svc.base}/api/brand`)).status).toBe(200);
      } finally {
        expect(await svc.stop()).toBe(0);
      }
      expect(rx.got.length).toBeGreaterThan(0);
      for (const t of rx.got) expect(t).toBe('application/x-protobuf');
    } finally {
      rx.server.close();
    }
  });

  it('the CLI’s commands: migrate, rotate-key and --retire, status, backup, restore, sandbox', async () => {
    // The data dir `serve` left: a store to migrate, keys to rotate, a link to report.
    const env = { ...process.env, ...probe.env, FLEETGATE_DATA_DIR: dataDir('serve'), LOG_LEVEL: 'silent' };
    const cli = async (...args: string[]) => {
      const [node, ...argv] = cliCommand(...args);
      return run(node, argv, { cwd: REPO, env });
    };
    expect((await cli('migrate')).stdout).toMatch(/up to date/);
    const keysBefore = JSON.parse(
      readFileSync(path.join(dataDir('serve'), 'encryption-keys.json'), 'utf8'),
    ) as {
      id: string;
    }[];
    await cli('rotate-key');
    const retired = await cli('rotate-key', '--retire', keysBefore[0]?.id ?? '?');
    expect(retired.stdout).toContain(keysBefore[0]?.id);
    const status = await cli('status', '--offline').catch((e: { code: number; stdout: string }) => e);
    expect(status.stdout).toContain('from the store alone');
    // A backup of it, restored into an empty data dir.
    const backups = await mkdtemp(path.join(tmpdir(), 'fleetgate-bundle-backup-'));
    try {
      const archive = path.join(backups, 'fleetgate.tar.gz');
      expect((await cli('backup', archive)).stdout).toContain(`wrote ${archive}`);
      const [cliNode, ...restoreArgs] = cliCommand('restore', archive);
      const restored = await run(cliNode, restoreArgs, {
        cwd: REPO,
        env: { ...env, FLEETGATE_DATA_DIR: path.join(backups, 'data') },
      });
      expect(restored.stdout).toContain('fleetgate restore: restored');
    } finally {
      await rm(backups, { recursive: true, force: true });
    }
    // The emulator alone, then SIGTERM.
    const port = await freePort();
    const [node, ...argv] = cliCommand('sandbox');
    const child = spawn(node, argv, {
      cwd: REPO,
      env: { ...env, SANDBOX_PORT: String(port), LOG_LEVEL: 'warn' },
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on(
        'data',
        (c: Buffer) => (out += c.toString()) && out.includes('platform emulator:') && resolve(),
      );
      void exited.then((code) => reject(new Error(`sandbox exited with ${code}: ${out}`)));
    });
    expect((await fetch(`http://127.0.0.1:${port}/v2/users/me`)).status).toBe(401);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it.skipIf(!backing)(
    'so that every import() in the sources was loaded from dist/ by one of the above',
    async () => {
      const lazy = lazyImports();
      // The grep finds them all (a sample that must be there).
      expect(lazy.map((l) => l.specifier)).toEqual(
        expect.arrayContaining([
          '@opentelemetry/exporter-trace-otlp-http',
          'ioredis',
          'pino-pretty',
          './sdk.js',
        ]),
      );
      const loaded = await probe.loaded();
      const missing = lazy.filter((l) =>
        l.target.endsWith('/') ? !loaded.some((s) => s.startsWith(l.target)) : !loaded.includes(l.target),
      );
      expect(missing.map((l) => `${l.file}: import('${l.specifier}')`)).toEqual([]);
      // From the bundle, not the sources: no process here loaded a TypeScript file.
      expect((await probe.files()).filter((f) => f.endsWith('.ts'))).toEqual([]);
      expect((await probe.bundleFiles()).length).toBeGreaterThan(10);
    },
  );
});
