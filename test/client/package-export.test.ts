/**
 * `fleetgate/client` resolves by the package name (Node's self-reference through package.json
 * "exports"): to the TS source under the development condition (vitest, tsx with
 * --conditions=development, and TypeScript through "types"), else to dist/client.js from the
 * build. The client sends the API key as the server reads it and joins paths to the base URL.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createFleetgateClient, type ResponseBody } from 'fleetgate/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, REPO, type TestApp } from '../helpers/build-test-app.js';
import { listen } from '../helpers/listen.js';

const run = promisify(execFile);
const resolveIn = async (...flags: string[]) =>
  (
    await run(
      process.execPath,
      [
        ...flags,
        '--input-type=module',
        '-e',
        "process.stdout.write(import.meta.resolve('fleetgate/client'))",
      ],
      { cwd: REPO },
    )
  ).stdout;

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await buildTestApp();
  base = await listen(t);
});
afterAll(() => t.close());

describe('fleetgate/client', () => {
  it('resolves by the package name in Node: source under development, else the build', async () => {
    expect(await resolveIn('--conditions=development')).toBe(`file://${REPO}/src/client/index.ts`);
    expect(await resolveIn()).toBe(`file://${REPO}/dist/client.js`);
  });

  it('sends the key as a Bearer token to the path under the base URL', async () => {
    const seen: Request[] = [];
    const client = createFleetgateClient({
      baseUrl: 'https://gw.example/',
      apiKey: 'k-123',
      fetch: (req) => {
        seen.push(req);
        return Promise.resolve(
          Response.json({ error: { code: 'unauthorized', message: 'no' } }, { status: 401 }),
        );
      },
    });
    const r = await client.GET('/api/video/status');
    expect(seen.map((q) => [q.method, q.url, q.headers.get('authorization')])).toEqual([
      ['GET', 'https://gw.example/api/video/status', 'Bearer k-123'],
    ]);
    expect(r.error?.error.code).toBe('unauthorized');
    // An unset key (an empty or missing environment variable) sends no Authorization header.
    const anonymous = createFleetgateClient({
      baseUrl: 'https://gw.example',
      apiKey: '',
      fetch: (req) => {
        seen.push(req);
        return Promise.resolve(new Response(null, { status: 204 }));
      },
    });
    await anonymous.GET('/healthz');
    expect(seen[1]?.headers.get('authorization')).toBeNull();
  });

  it('calls a real server over HTTP', async () => {
    const client = createFleetgateClient({ baseUrl: base });
    const r = await client.GET('/healthz');
    expect(r.response.status).toBe(200);
    const unknown = await client.GET('/api/brand/themes/{key}', {
      params: { path: { key: 'no-such-theme' } },
    });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error?.error.code).toEqual(expect.any(String));
  });

  it('names a response body by path, method and status', () => {
    // Compile-time: the error body every path documents; `never` where no body is declared.
    const body: ResponseBody<'/api/brand', 'get', 'default'> = { error: { code: 'x', message: 'y' } };
    expect(body.error.code).toBe('x');
  });
});
