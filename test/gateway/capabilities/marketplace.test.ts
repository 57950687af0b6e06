/**
 * marketplace operations against the emulator: the linked app's listing, the user's
 * entitlements, and requests to use the app. The app id is the gateway's client id.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES } from '../../../src/gateway/capabilities/catalog.js';
import type { Operation, OpContext } from '../../../src/gateway/capabilities/operation.js';
import { marketplaceOps } from '../../../src/gateway/capabilities/ops/marketplace.js';
import { parseInput } from '../../../src/gateway/capabilities/registry.js';
import { AppError } from '../../../src/http/errors.js';
import { expectOutput } from '../../helpers/op-output.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();
let appId: string;
beforeAll(() => {
  appId = e.config.video.clientId ?? '';
});

const op = (name: string) => {
  const o = marketplaceOps.find((x) => x.name === name);
  if (!o) throw new Error(`no op ${name}`);
  return o as unknown as Operation;
};
/** Runs an operation and holds its answer to its declared output. */
const run = async (name: string, input: unknown): Promise<any> => {
  const r = await op(name).run(await e.gateway.opContext(), parseInput(op(name).input, input));
  expectOutput('marketplace', name, r);
  return r;
};
const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err as { status: number; code: string; details?: any };
  }
  throw new Error('expected a failure');
};

describe('marketplace', () => {
  it('matches the catalog', () => {
    const names = CAPABILITIES.filter((c) => c.group === 'marketplace').map((c) => c.name);
    expect(marketplaceOps.map((o) => o.name).sort()).toEqual([...names].sort());
    for (const o of marketplaceOps) expect(o.group).toBe('marketplace');
    for (const o of marketplaceOps) expect(o.output, o.name).toBeDefined();
  });

  it('app describes the linked app with its granted scopes', async () => {
    expect(appId).toBe('sandbox-client');
    const app = await run('app', { app_id: appId });
    expect(app).toMatchObject({
      app_id: appId,
      app_name: expect.any(String),
      app_type: 'OAuthApp',
      app_usage: 'user_managed',
      app_status: 'PUBLISHED',
      app_links: expect.objectContaining({ support_url: expect.stringContaining('http') }),
    });
    expect(app.app_scopes).toContain('marketplace:read:app');
  });

  it("app defaults to the gateway's own app and maps an unknown app to not_found", async () => {
    const own = await run('app', {});
    expect(own.app_id).toBe(appId);
    const missing = await failure(run('app', { app_id: 'NoSuchApp0000000000000' }));
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
    expect(missing.details.platformCode).toBe(1401);
  });

  it("entitlements lists the linked user's plans", async () => {
    const r = await run('entitlements', {});
    expect(r.nextCursor).toBeNull();
    expect(r.items).toEqual([
      {
        entitlement_id: expect.stringMatching(/^\d+$/),
        plan_id: expect.any(String),
        plan_name: expect.any(String),
      },
    ]);
  });

  it('entitlements is empty when the platform says none is assigned (404 code 1002), and fails otherwise', async () => {
    const withError = async (code: number): Promise<OpContext> => ({
      ...(await e.gateway.opContext()),
      platform: {
        call: () =>
          Promise.reject(new AppError(404, 'not_found', 'x', { platformStatus: 404, platformCode: code })),
      } as unknown as OpContext['platform'],
    });
    const entitlements = op('entitlements');
    const none = await entitlements.run(await withError(1002), {});
    expect(none).toEqual({ items: [], nextCursor: null });
    expectOutput('marketplace', 'entitlements', none);
    await expect(entitlements.run(await withError(1001), {})).rejects.toMatchObject({ code: 'not_found' });
  });

  it('app_requests lists requests by status, with paging', async () => {
    const pending = await run('app_requests', { app_id: appId });
    expect(pending.items.length).toBeGreaterThanOrEqual(2);
    expect(pending.items.every((x: any) => x.status === 'pending')).toBe(true);
    expect(pending.items[0]).toEqual(
      expect.objectContaining({
        request_user_email: expect.stringContaining('@'),
        request_user_name: expect.any(String),
        reason: expect.any(String),
      }),
    );
    const first = await run('app_requests', { app_id: appId, limit: '1' });
    expect(first.items).toHaveLength(1);
    const second = await run('app_requests', { app_id: appId, limit: 1, cursor: first.nextCursor });
    expect(second.items[0].request_user_id).toBe(pending.items[1].request_user_id);
    const rejected = await run('app_requests', { app_id: appId, status: 'rejected' });
    expect(rejected.items.length).toBeGreaterThan(0);
    expect(rejected.items.every((x: any) => x.status === 'rejected')).toBe(true);

    const bad = await failure(run('app_requests', { app_id: appId, status: 'open', limit: 0 }));
    expect(bad.details.issues.map((i: any) => i.path).sort()).toEqual(['limit', 'status']);
    const other = await failure(run('app_requests', { app_id: 'NoSuchApp0000000000000' }));
    expect(other).toMatchObject({ status: 404, code: 'not_found' });
  });
});
