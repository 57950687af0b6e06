/**
 * A private copy of the default brand folder that a test may edit or break.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO } from './build-test-app.js';

export async function copyBrand(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-brand-'));
  await cp(path.join(REPO, 'brand'), dir, { recursive: true });
  return dir;
}

export async function editJson(dir: string, rel: string, edit: (v: any) => void): Promise<void> {
  const file = path.join(dir, rel);
  const value: unknown = JSON.parse(await readFile(file, 'utf8'));
  edit(value);
  await writeFile(file, JSON.stringify(value, null, 2));
}
