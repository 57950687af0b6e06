/**
 * The shape of one brand MCP tool: its contract (name, model-facing text, input and output
 * schemas) and a pure function from the live catalog to the structured result (or its promise).
 * Input schemas may depend on the catalog (e.g. the document groups), so they are built per catalog.
 */
import type * as z from 'zod';
import type { BrandCatalog } from '../../brand/catalog.js';

export interface BrandTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: (catalog: BrandCatalog) => I;
  output: O;
  /** A promise where the answer is built on first use (a theme's token formats). */
  run: (catalog: BrandCatalog, args: z.output<I>) => z.output<O> | Promise<z.output<O>>;
}

/** Declares a tool with its types inferred from its schemas. */
export const defineTool = <I extends z.ZodObject, O extends z.ZodObject>(
  tool: BrandTool<I, O>,
): BrandTool<I, O> => tool;
