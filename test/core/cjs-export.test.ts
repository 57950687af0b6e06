/**
 * cjsExport reads a named export from what import() gives for a CommonJS package: Node's
 * namespace (the name on it) and the bundle's split chunk (only `default`, module.exports).
 */
import { describe, expect, it } from 'vitest';
import { cjsExport } from '../../src/cjs-export.js';

class Exporter {}

describe('cjsExport', () => {
  it('takes the name from the namespace, as Node gives it', () => {
    expect(cjsExport({ Exporter, default: { Exporter } }, 'Exporter')).toBe(Exporter);
  });

  it('takes it from default when the namespace has only that, as the bundle gives it', () => {
    const chunk: { Exporter?: typeof Exporter; default: { Exporter: typeof Exporter } } = {
      default: { Exporter },
    };
    expect(cjsExport(chunk, 'Exporter')).toBe(Exporter);
  });

  it('throws, naming the export, when neither has it', () => {
    const none: { Exporter?: typeof Exporter } = {};
    expect(() => cjsExport(none, 'Exporter')).toThrow(/no export Exporter/);
  });
});
