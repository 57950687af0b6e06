/**
 * The pure part of brand versions (src/brand/versions.ts): flattening the served document
 * (light and dark), the diff with its replacement suggestions, the bump and the next version.
 */
import { describe, expect, it } from 'vitest';
import {
  bumpOf,
  compareVersions,
  contentHash,
  diffTokens,
  flattenDocument,
  nextVersion,
} from '../../src/brand/versions.js';

const red = (hex: string) => ({ colorSpace: 'srgb', components: [1, 0, 0], hex });
const doc = (colors: Record<string, unknown>, dark: Record<string, unknown> = {}) => ({
  $schema: 'x',
  $description: 'y',
  colors: { $type: 'color', ...colors },
  $extensions: { 'org.fleetgate.modes': { dark: { colors: { $type: 'color', ...dark } } } },
});

describe('brand versions (pure)', () => {
  it('flattens light and dark tokens by path, dark ones marked @dark, with inherited types', () => {
    const flat = flattenDocument(
      doc({ a: { $value: red('#ff0000') }, b: { $value: '{colors.a}' } }, { a: { $value: red('#aa0000') } }),
    );
    expect([...flat.keys()]).toEqual(['colors.a', 'colors.a@dark', 'colors.b']);
    expect(flat.get('colors.b')).toEqual({ type: 'color', value: '{colors.a}' });
    expect(flat.get('colors.a@dark')?.value).toEqual(red('#aa0000'));
  });

  it('hashes content, not key order or descriptions', () => {
    const one = flattenDocument(
      doc({ a: { $value: { hex: '#ff0000', colorSpace: 'srgb', components: [1, 0, 0] } } }),
    );
    const two = flattenDocument({
      ...doc({ a: { $value: red('#ff0000'), $description: 'z' } }),
      $description: 'q',
    });
    expect(contentHash(one)).toBe(contentHash(two));
    expect(contentHash(flattenDocument(doc({ a: { $value: red('#fe0000') } })))).not.toBe(contentHash(one));
  });

  it('calls a changed value a patch, an added token a minor, a removed or retyped one a major', () => {
    const base = flattenDocument(doc({ a: { $value: red('#ff0000') }, b: { $value: red('#00ff00') } }));
    const changed = diffTokens(
      base,
      flattenDocument(doc({ a: { $value: red('#fe0000') }, b: { $value: red('#00ff00') } })),
    );
    expect(changed.changed).toEqual([{ path: 'colors.a', from: red('#ff0000'), to: red('#fe0000') }]);
    expect(bumpOf(changed)).toBe('patch');
    const added = diffTokens(
      base,
      flattenDocument(
        doc({ a: { $value: red('#ff0000') }, b: { $value: red('#00ff00') }, c: { $value: red('#0000ff') } }),
      ),
    );
    expect(added.added).toEqual([{ path: 'colors.c', type: 'color', value: red('#0000ff') }]);
    expect(bumpOf(added)).toBe('minor');
    const retyped = diffTokens(
      base,
      flattenDocument({
        colors: {
          a: { $type: 'color', $value: red('#ff0000') },
          b: { $type: 'dimension', $value: { value: 1, unit: 'px' } },
        },
      }),
    );
    expect(retyped.changed[0]).toMatchObject({ path: 'colors.b', fromType: 'color', toType: 'dimension' });
    expect(bumpOf(retyped)).toBe('major');
    expect(bumpOf(diffTokens(base, base))).toBeUndefined();
  });

  it('suggests for a removed token the token that now holds its old value, else a renamed one, else none', () => {
    const before = flattenDocument(
      doc({ a: { $value: red('#ff0000') }, b: { $value: red('#00ff00') }, c: { $value: red('#0000ff') } }),
    );
    const after = flattenDocument(
      doc({ moved: { $value: red('#ff0000') }, group: { $type: 'color', b: { $value: red('#00ee00') } } }),
    );
    const { removed } = diffTokens(before, after);
    expect(removed.map((r) => [r.path, r.replacement])).toEqual([
      ['colors.a', 'colors.moved'],
      ['colors.b', 'colors.group.b'],
      ['colors.c', null],
    ]);
    expect(bumpOf(diffTokens(before, after))).toBe('major');
  });

  it('counts versions up from 1.0.0 and orders them as semver', () => {
    expect(nextVersion(undefined, 'patch')).toBe('1.0.0');
    expect(nextVersion('1.2.3', 'patch')).toBe('1.2.4');
    expect(nextVersion('1.2.3', 'minor')).toBe('1.3.0');
    expect(nextVersion('1.2.3', 'major')).toBe('2.0.0');
    expect(compareVersions('1.10.0', '1.9.9')).toBeGreaterThan(0);
    expect(compareVersions('1.0.0', '1.0.0')).toBe(0);
  });
});
