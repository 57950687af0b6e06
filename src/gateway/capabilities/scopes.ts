/**
 * How capabilities spell the platform scopes that admit them. The platform grants a granular
 * scope (`meeting:write:meeting`), its admin form, or the classic scope it belongs to
 * (`meeting:write`); any one of them admits the capability.
 */

/** Each granular scope, its `:admin` form, and its classic `<product>:read|write` scope. */
export const granular = (...scopes: string[]): string[] => [
  ...new Set(
    scopes
      .flatMap((g) => [g, `${g}:admin`])
      .concat(scopes.map((g) => `${g.split(':')[0]}:${g.split(':')[1] === 'read' ? 'read' : 'write'}`)),
  ),
];

/** Whether the granted scopes admit a capability needing any one of `needed` (none: always). */
export const admits = (granted: readonly string[], needed: readonly string[]): boolean =>
  needed.length === 0 || needed.some((s) => granted.includes(s));
