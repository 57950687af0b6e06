/**
 * Swift and Kotlin read by real grammars (tree-sitter, as WebAssembly: no native build under any
 * Node): there is no Swift or Kotlin compiler here, so the suite parses the generated files and
 * reads their declarations by name. A tree with an ERROR or MISSING node fails.
 */
import path from 'node:path';
import { Language, Parser, type Node } from 'web-tree-sitter';
import { REPO } from './build-test-app.js';

const WASM = {
  swift: path.join(REPO, 'node_modules/@repomix/tree-sitter-wasms/out/tree-sitter-swift.wasm'),
  kotlin: path.join(REPO, 'node_modules/@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm'),
};
export type Grammar = keyof typeof WASM;

let ready: Promise<Record<Grammar, Language>> | undefined;
const languages = () =>
  (ready ??= (async () => {
    await Parser.init();
    return { swift: await Language.load(WASM.swift), kotlin: await Language.load(WASM.kotlin) };
  })());

/** Where the tree has a parse error: each ERROR or MISSING node, with its line and text. */
export function parseErrors(root: Node): string[] {
  const out: string[] = [];
  const walk = (n: Node) => {
    if (n.isError || n.isMissing)
      out.push(
        `${n.isMissing ? 'MISSING' : 'ERROR'} at ${n.startPosition.row + 1}:${n.startPosition.column + 1}: ${n.text.slice(0, 80)}`,
      );
    for (const c of n.children) if (c) walk(c);
  };
  walk(root);
  return out;
}

/** The parse tree of a source file; throws naming every parse error. */
export async function parse(grammar: Grammar, source: string): Promise<Node> {
  const language = (await languages())[grammar];
  const parser = new Parser();
  parser.setLanguage(language);
  const tree = parser.parse(source);
  if (!tree) throw new Error(`${grammar}: no tree`);
  const errors = parseErrors(tree.rootNode);
  if (errors.length > 0) throw new Error(`${grammar} does not parse:\n${errors.join('\n')}`);
  return tree.rootNode;
}

export interface Declaration {
  /** Enclosing type names and the property's, dotted: BrandTokens.Dark.colorsBrandPrimary. */
  qualified: string;
  type: string;
  value: Node | undefined;
}

const named = (n: Node) => n.namedChildren.filter((c): c is Node => c !== null);

/** The names of the types (enum, struct, class, object) around a node, outermost first. */
function scopes(n: Node, grammar: Grammar): string[] {
  const out: string[] = [];
  for (let p = n.parent; p; p = p.parent) {
    if (['class_declaration', 'object_declaration', 'protocol_declaration'].includes(p.type)) {
      const name =
        p.childForFieldName('name') ??
        named(p).find((c) => ['type_identifier', 'identifier'].includes(c.type));
      if (name) out.unshift(name.text);
    }
    if (grammar === 'kotlin' && p.type === 'companion_object') out.unshift('Companion');
  }
  return out;
}

/** Every property declaration (Swift `let`/`var`, Kotlin `val`/`var`) by qualified name. */
export function declarations(root: Node, grammar: Grammar): Map<string, Declaration> {
  const out = new Map<string, Declaration>();
  for (const d of root.descendantsOfType('property_declaration')) {
    if (!d) continue;
    let name: string | undefined;
    let type = '';
    let value: Node | undefined;
    if (grammar === 'swift') {
      name = d.childForFieldName('name')?.text;
      type =
        named(d)
          .find((c) => c.type === 'type_annotation')
          ?.childForFieldName('name')?.text ?? '';
      value = d.childForFieldName('value') ?? undefined;
    } else {
      const v = named(d).find((c) => c.type === 'variable_declaration');
      const parts = v ? named(v) : [];
      name = parts[0]?.text;
      type = parts[1]?.text ?? '';
      value = named(d)
        .filter((c) => !['variable_declaration', 'modifiers'].includes(c.type))
        .at(-1);
    }
    if (name) out.set([...scopes(d, grammar), name].join('.'), { qualified: name, type, value });
  }
  return out;
}

/** The names of the types declared (enum, struct, class, object), qualified. */
export function typeNames(root: Node, grammar: Grammar): Set<string> {
  const out = new Set<string>();
  for (const kind of ['class_declaration', 'object_declaration']) {
    for (const d of root.descendantsOfType(kind)) {
      if (!d) continue;
      const name =
        d.childForFieldName('name') ??
        named(d).find((c) => ['type_identifier', 'identifier'].includes(c.type));
      if (name) out.add([...scopes(d, grammar), name.text].join('.'));
    }
  }
  return out;
}

/** Whether a node is a comment in either grammar. */
export const isComment = (n: Node): boolean => /comment/.test(n.type);

/** A call's callee text and its arguments: labelled ones by label, the others by position. */
export function callArgs(n: Node | undefined): { callee: string; args: Map<string, Node> } | undefined {
  if (n?.type !== 'call_expression') return undefined;
  const kids = named(n);
  const last = kids.at(-1);
  const list = last?.type === 'call_suffix' ? named(last).find((c) => c.type === 'value_arguments') : last;
  const args = new Map<string, Node>();
  let i = 0;
  for (const a of list?.type === 'value_arguments' ? named(list) : []) {
    if (a.type !== 'value_argument') continue;
    const parts = named(a);
    // Swift names the label and value fields; Kotlin writes `label = value` as two children.
    const label =
      a.childForFieldName('name')?.text ??
      (parts.length === 2 && parts[0]?.type === 'identifier' ? parts[0].text : undefined);
    const value = a.childForFieldName('value') ?? parts.at(-1);
    if (value) args.set(label ?? String(i++), value);
  }
  return { callee: kids[0]?.text ?? '', args };
}

/** A numeric literal's value (a Swift `-1` is a prefix expression, a Kotlin `0.2f` has a suffix). */
export function numberOf(n: Node | undefined): number {
  const m = /^\(?(-?\d+(?:\.\d+)?)f?\)?$/.exec(n?.text ?? '');
  return m ? Number(m[1]) : NaN;
}

/** A Kotlin `16.dp`, `(-0.32).sp` or `1.15.em`: the number and the unit. */
export function unitOf(n: Node | undefined): { value: number; unit: string } | undefined {
  if (n?.type !== 'navigation_expression') return undefined;
  const [target, unit] = named(n);
  return { value: numberOf(target), unit: unit?.text ?? '' };
}
