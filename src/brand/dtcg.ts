/**
 * Reading DTCG 2025.10 token documents: walk groups with $type inheritance, check each token's
 * value against its type, and check that every {alias} points at a token that exists.
 * Style Dictionary does the output; this module only decides whether a document is sound.
 */
import * as z from 'zod';
import type { BrandProblem } from './problems.js';

const alias = z.string().regex(/^\{[^{}]+\}$/);
const num = z.number().finite();
const dimension = z.union([alias, z.strictObject({ value: num, unit: z.enum(['px', 'rem']) })]);
const duration = z.union([alias, z.strictObject({ value: num.min(0), unit: z.enum(['ms', 's']) })]);
const color = z.union([
  alias,
  z.strictObject({
    colorSpace: z.enum(['srgb', 'srgb-linear', 'hsl', 'hwb', 'lab', 'lch', 'oklab', 'oklch', 'display-p3']),
    components: z.array(z.union([num, z.literal('none')])).length(3),
    alpha: num.min(0).max(1).optional(),
    hex: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/)
      .optional(),
  }),
]);
const cubicBezier = z.union([alias, z.tuple([num.min(0).max(1), num, num.min(0).max(1), num])]);
const shadowLayer = z.strictObject({
  color,
  offsetX: dimension,
  offsetY: dimension,
  blur: dimension,
  spread: dimension,
  inset: z.boolean().optional(),
});

const VALUE_SCHEMAS = {
  color,
  dimension,
  duration,
  cubicBezier,
  number: z.union([alias, num]),
  fontWeight: z.union([alias, num.min(1).max(1000), z.string().min(1)]),
  fontFamily: z.union([alias, z.string().min(1), z.array(z.string().min(1)).min(1)]),
  shadow: z.union([alias, shadowLayer, z.array(shadowLayer).min(1)]),
  gradient: z.union([
    alias,
    z.array(z.strictObject({ color, position: z.union([alias, num.min(0).max(1)]) })).min(2),
  ]),
  transition: z.union([alias, z.strictObject({ duration, delay: duration, timingFunction: cubicBezier })]),
  typography: z.union([
    alias,
    z.strictObject({
      fontFamily: z.union([alias, z.string(), z.array(z.string())]),
      fontSize: dimension,
      fontWeight: z.union([alias, num, z.string()]),
      letterSpacing: dimension,
      lineHeight: z.union([alias, num]),
    }),
  ]),
  strokeStyle: z.unknown(),
  border: z.unknown(),
} as const;
export type TokenType = keyof typeof VALUE_SCHEMAS;
const isTokenType = (t: unknown): t is TokenType => typeof t === 'string' && t in VALUE_SCHEMAS;

export interface FlatToken {
  path: string;
  type: TokenType;
  value: unknown;
  description?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Flattens a DTCG document into dotted paths, reporting structural and value problems. */
export function flattenTokens(doc: unknown, file: string, problems: BrandProblem[]): Map<string, FlatToken> {
  const out = new Map<string, FlatToken>();
  const walk = (node: Record<string, unknown>, path: string[], inherited: TokenType | undefined) => {
    let groupType = inherited;
    if ('$type' in node) {
      if (isTokenType(node['$type'])) groupType = node['$type'];
      else
        problems.push({
          file,
          field: [...path, '$type'].join('.'),
          reason: `unknown token type ${JSON.stringify(node['$type'])}`,
        });
    }
    if ('$value' in node) {
      const where = path.join('.');
      if (!groupType) {
        problems.push({ file, field: where, reason: 'token has no $type and inherits none' });
        return;
      }
      const parsed = VALUE_SCHEMAS[groupType].safeParse(node['$value']);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        problems.push({
          file,
          field: `${where}.$value`,
          reason: `not a valid ${groupType} value (${issue?.message ?? 'invalid'})`,
        });
      }
      const description = node['$description'];
      out.set(where, {
        path: where,
        type: groupType,
        value: node['$value'],
        ...(typeof description === 'string' ? { description } : {}),
      });
      return;
    }
    for (const [name, child] of Object.entries(node)) {
      if (name.startsWith('$')) continue;
      if (name.includes('.') || name.includes('{') || name.includes('}')) {
        problems.push({
          file,
          field: [...path, name].join('.'),
          reason: 'token and group names may not contain ".", "{" or "}"',
        });
        continue;
      }
      if (!isObject(child)) {
        problems.push({
          file,
          field: [...path, name].join('.'),
          reason: 'must be a group or a token object',
        });
        continue;
      }
      walk(child, [...path, name], groupType);
    }
  };
  if (!isObject(doc)) problems.push({ file, field: '(root)', reason: 'must be a JSON object' });
  else walk(doc, [], undefined);
  return out;
}

/** Every "{a.b}" alias found anywhere inside a value. */
export function aliasesIn(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] ?? '');
  if (Array.isArray(value)) return value.flatMap(aliasesIn);
  if (isObject(value)) return Object.values(value).flatMap(aliasesIn);
  return [];
}

export function checkAliases(
  tokens: Map<string, FlatToken>,
  known: Map<string, FlatToken>,
  file: string,
  problems: BrandProblem[],
): void {
  for (const token of tokens.values()) {
    for (const target of aliasesIn(token.value)) {
      if (!known.has(target))
        problems.push({ file, field: token.path, reason: `alias {${target}} points at no token` });
    }
  }
}

/** Follows aliases to a concrete value (for computing things like contrast from tokens). */
export function resolveValue(value: unknown, known: Map<string, FlatToken>, depth = 0): unknown {
  if (depth > 20) return undefined;
  if (typeof value === 'string') {
    const m = /^\{([^{}]+)\}$/.exec(value);
    if (m?.[1]) return resolveValue(known.get(m[1])?.value, known, depth + 1);
  }
  return value;
}
