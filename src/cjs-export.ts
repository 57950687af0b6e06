/**
 * A named export of a lazily imported CommonJS package, read so that it works both from source
 * and from the bundle. Node's own loader puts a CommonJS module's names on the namespace
 * `import()` returns (and module.exports on `default`); esbuild's split bundle makes such a
 * module a chunk of its own that exports only `default` (`export default require_x()`), so
 * `const { Name } = await import('pkg')` works under tsx and is undefined in dist/.
 */
export function cjsExport<M extends object, K extends keyof M & string>(namespace: M, name: K): M[K] {
  const direct = namespace[name];
  if (direct !== undefined) return direct;
  const exports = (namespace as { default?: Partial<M> }).default;
  const value = exports?.[name];
  if (value === undefined) throw new Error(`the lazily imported module has no export ${name}`);
  return value;
}
