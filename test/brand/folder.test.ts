import { rm, unlink, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrandInvalidError } from '../../src/brand/problems.js';
import { readBrandFolder } from '../../src/brand/read-brand-folder.js';
import { REPO } from '../helpers/build-test-app.js';
import { serviceCommand } from '../helpers/spawn-service.js';
import { copyBrand, editJson } from '../helpers/brand-copy.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function brokenBrand(): Promise<string> {
  const dir = await copyBrand();
  dirs.push(dir);
  await editJson(dir, 'themes.json', (t) => {
    t.funnels.freight.color = 'blue';
    delete t.funnels.housing;
  });
  await editJson(dir, 'brand.json', (b) => {
    delete b.name;
  });
  await editJson(dir, 'tokens/base.tokens.json', (tk) => {
    tk.colors.brand.primary.$value = '{colors.palette.nothing}';
    tk.spacing['4'].$value = { value: 16, unit: 'em' };
  });
  await editJson(dir, 'fonts.json', (f) => {
    f.stacks.sans.weights.push(350);
  });
  await writeFile(path.join(dir, 'docs/sales/09-no-front-matter.md'), '# Just a heading\n');
  await unlink(path.join(dir, 'assets/shield.svg'));
  return dir;
}

describe('an invalid brand folder', () => {
  it('is refused with every problem listed by file, field and reason', async () => {
    const dir = await brokenBrand();
    const err = await readBrandFolder(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrandInvalidError);
    const problems = (err as BrandInvalidError).problems;
    const has = (file: string, field: string | RegExp, reason: RegExp) =>
      expect(problems, `${file} ${String(field)}`).toContainEqual({
        file,
        field: typeof field === 'string' ? field : expect.stringMatching(field),
        reason: expect.stringMatching(reason),
      });
    has('themes.json', 'funnels.freight.color', /hex color/);
    has('themes.json', 'funnels.housing', /missing/);
    has('brand.json', 'name', /expected string/i);
    has('tokens/base.tokens.json', 'colors.brand.primary', /points at no token/);
    has('tokens/base.tokens.json', 'spacing.4.$value', /not a valid dimension/);
    has('fonts.json', /stacks\.sans\.weights/, /100/);
    has('docs/sales/09-no-front-matter.md', '(front matter)', /YAML front matter/);
    has('assets/shield.svg', '(file)', /missing/);
    expect((err as Error).message).toContain('themes.json: funnels.freight.color');
  });

  it('reports a file that is not JSON', async () => {
    const dir = await copyBrand();
    dirs.push(dir);
    await writeFile(path.join(dir, 'themes.json'), '{ "official": ');
    const err = (await readBrandFolder(dir).catch((e: unknown) => e)) as BrandInvalidError;
    expect(err.problems).toContainEqual({
      file: 'themes.json',
      field: '(file)',
      reason: expect.stringMatching(/not valid JSON/),
    });
  });

  it('refuses SVG sources with scripts', async () => {
    const dir = await copyBrand();
    dirs.push(dir);
    await writeFile(
      path.join(dir, 'assets/icon-dark.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>',
    );
    const err = (await readBrandFolder(dir).catch((e: unknown) => e)) as BrandInvalidError;
    expect(err.problems).toContainEqual({
      file: 'assets/icon-dark.svg',
      field: '(file)',
      reason: 'refused attribute onload on <svg>: event handlers are not allowed',
    });
  });

  it('stops the service at startup, printing every problem', async () => {
    const dir = await brokenBrand();
    const [node, ...args] = serviceCommand();
    const child = spawn(node, args, {
      cwd: REPO,
      env: {
        ...process.env,
        BRAND_DIR: dir,
        PORT: '0',
        FLEETGATE_DATA_DIR: path.join(dir, 'data'),
        LOG_LEVEL: 'silent',
      },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('is invalid (');
    expect(stderr).toContain('themes.json: funnels.freight.color');
    expect(stderr).toContain('tokens/base.tokens.json: colors.brand.primary');
  });
});
