/**
 * The platform's own Node SDK (@zoom/rivet) as a second client of the emulator: what it sends
 * in ordinary use, the emulator must take as the platform does (every request of it also goes
 * through the suite's strict contract check). Rivet asks for its tokens at zoom.us only, so
 * each client gets a token store holding one the emulator issued: a user token through the
 * OAuth flow, an account token through account_credentials; the emulator's base URL is Rivet's
 * run-time `baseUrl` option, which its typings leave out.
 */
import { randomBytes } from 'node:crypto';
import { MeetingsOAuthClient, MeetingsS2SAuthClient } from '@zoom/rivet/meetings';
import { UsersOAuthClient } from '@zoom/rivet/users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, REDIRECT, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(() => t.close());

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** Rivet's options, with the emulator's base URL and no webhook receiver. */
function options<T>(token: T) {
  return {
    clientId: t.options.clientId,
    clientSecret: t.options.clientSecret,
    disableReceiver: true as const,
    tokenStore: { getLatestToken: () => token, storeToken: () => undefined },
    baseUrl: `${t.base}/v2`,
  };
}

async function userClients() {
  const tok = await t.userToken();
  const token = {
    accessToken: tok.access_token,
    refreshToken: tok.refresh_token,
    expirationTimeIso: inAnHour(),
    scopes: tok.scope.split(' '),
  };
  // The user OAuth clients want their install flow's settings, unused here.
  const installerOptions = { redirectUri: REDIRECT, stateStore: randomBytes(32).toString('hex') };
  return {
    meetings: new MeetingsOAuthClient({ ...options(token), installerOptions }).endpoints.meetings,
    users: new UsersOAuthClient({ ...options(token), installerOptions }).endpoints.users,
  };
}

describe('the platform SDK (@zoom/rivet) against the emulator', () => {
  it('users/me, and a meeting listed, created, read, updated and deleted with a user token', async () => {
    const { meetings, users } = await userClients();
    const me = await users.getUser({ path: { userId: 'me' } });
    expect(me.statusCode).toBe(200);
    expect(me.data).toMatchObject({ email: t.emulator.context.demo.email });
    expect(me.trackingId).toMatch(/^v=2\.0;/);

    const listed = await meetings.listMeetings({
      path: { userId: 'me' },
      query: { type: 'upcoming', page_size: 30 },
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.data?.meetings?.length).toBeGreaterThan(0);

    const created = await meetings.createMeeting({
      path: { userId: 'me' },
      body: { topic: 'Rivet check', type: 2, start_time: '2030-03-04T15:00:00Z', duration: 30 },
    });
    expect(created.statusCode).toBe(201);
    const meetingId = created.data!.id!;

    const got = await meetings.getMeeting({ path: { meetingId } });
    expect(got.data).toMatchObject({ id: meetingId, topic: 'Rivet check' });

    const updated = await meetings.updateMeeting({
      path: { meetingId },
      body: { topic: 'Rivet check (moved)', start_time: '2030-03-05T10:00:00', timezone: 'America/Chicago' },
    });
    expect(updated.statusCode).toBe(204);
    expect((await meetings.getMeeting({ path: { meetingId } })).data).toMatchObject({
      topic: 'Rivet check (moved)',
      timezone: 'America/Chicago',
    });

    // Rivet says Content-Type: application/json on a DELETE with no body; the platform takes it.
    const deleted = await meetings.deleteMeeting({ path: { meetingId } });
    expect(deleted.statusCode).toBe(204);
    await expect(meetings.getMeeting({ path: { meetingId } })).rejects.toThrow('[404/3001]');
  });

  it('the same with an account token, naming the user by id', async () => {
    const res = await fetch(`${t.base}/oauth/token`, {
      method: 'POST',
      headers: { authorization: basic(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'account_credentials',
        account_id: t.emulator.context.demo.accountId,
      }),
    });
    const raw = (await res.json()) as { access_token: string; scope: string };
    const token = {
      accessToken: raw.access_token,
      expirationTimeIso: inAnHour(),
      scopes: raw.scope.split(' '),
    };
    const meetings = new MeetingsS2SAuthClient({
      ...options(token),
      accountId: t.emulator.context.demo.accountId,
    }).endpoints.meetings;
    const userId = t.emulator.context.demo.id;
    const created = await meetings.createMeeting({
      path: { userId },
      body: { topic: 'Rivet account check', type: 2, start_time: '2030-03-04T16:00:00Z', duration: 15 },
    });
    expect(created.statusCode).toBe(201);
    const meetingId = created.data!.id!;
    expect((await meetings.listMeetings({ path: { userId }, query: { type: 'upcoming' } })).statusCode).toBe(
      200,
    );
    expect((await meetings.deleteMeeting({ path: { meetingId } })).statusCode).toBe(204);
  });
});
