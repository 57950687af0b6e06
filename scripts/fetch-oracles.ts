/**
 * `npm run oracles`: downloads the published documents the oracle tests hold our output against
 * (the platform's OpenAPI documents, the DTCG 2025.10 JSON Schemas) from their publishers into
 * the git-ignored `.oracles/`, where the tests look when FLEETGATE_ORACLES_DIR is unset. They are
 * other people's documents, so they are fetched, never committed. Needs the network: without it,
 * it says so and exits 1, and nothing in `.oracles/` is touched.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '..');
const TARGET = path.join(REPO, '.oracles');

// The platform's API hub serves each product's document at its `downloadPath`.
const HUB = 'https://developers.zoom.us/api-hub';
const PLATFORM: Record<string, string> = {
  'meeting.json': `${HUB}/meetings/methods/endpoints.json`,
  'meeting-events.json': `${HUB}/meetings/events/webhooks.json`,
  'users.json': `${HUB}/users/methods/endpoints.json`,
  'calendar.json': `${HUB}/calendar/methods/endpoints.json`,
  'canvas.json': `${HUB}/docs/methods/endpoints.json`,
  'clips.json': `${HUB}/clips/methods/endpoints.json`,
  'events.json': `${HUB}/events/methods/endpoints.json`,
  'iq.json': `${HUB}/iq/methods/endpoints.json`,
  'mail.json': `${HUB}/mail/methods/endpoints.json`,
  'marketplace.json': `${HUB}/marketplace/methods/endpoints.json`,
  'team-chat.json': `${HUB}/team-chat/methods/endpoints.json`,
};
const DTCG_BASE = 'https://www.designtokens.org/schemas/2025.10';
const VALUES = ['border', 'color', 'cubicBezier', 'dimension', 'duration', 'fontFamily', 'fontWeight'];
const DTCG = [
  'format.json',
  'resolver.json',
  ...['token', 'tokenType', 'group', 'groupOrToken'].map((n) => `format/${n}.json`),
  ...[...VALUES, 'gradient', 'number', 'shadow', 'strokeStyle', 'transition', 'typography'].map(
    (n) => `format/values/${n}.json`,
  ),
  ...['set', 'modifier', 'resolutionOrder'].map((n) => `resolver/${n}.json`),
];

const files: [string, string][] = [
  ...Object.entries(PLATFORM).map(([f, url]): [string, string] => [`platform-openapi/${f}`, url]),
  ...DTCG.map((f): [string, string] => [`dtcg-schemas/2025.10/${f}`, `${DTCG_BASE}/${f}`]),
];

async function download(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(20_000) });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const text = await res.text();
  JSON.parse(text); // a document that is not JSON is not one we can test against
  return text;
}

const staging = `${TARGET}.${process.pid}.tmp`;
try {
  await rm(staging, { recursive: true, force: true });
  for (const [file, url] of files) {
    const out = path.join(staging, file);
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, await download(url));
    process.stdout.write(`  ${file}\n`);
  }
  await rm(TARGET, { recursive: true, force: true });
  await rename(staging, TARGET);
  process.stdout.write(
    `oracles: ${files.length} documents in ${path.relative(process.cwd(), TARGET) || TARGET}\n`,
  );
} catch (err) {
  await rm(staging, { recursive: true, force: true });
  const cause =
    err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
  process.stderr.write(
    `oracles: could not download the published documents (${cause}).\n` +
      'This needs the network. Offline, point FLEETGATE_ORACLES_DIR at a folder that holds\n' +
      'platform-openapi/ and dtcg-schemas/2025.10/ instead (see docs/testing.md).\n',
  );
  process.exitCode = 1;
}
