/**
 * Fastify's JSON-schema compilers (ajv and fast-json-stringify), loaded on first use instead of
 * when the app is made. The emulator validates with zod, so it normally never loads them; a
 * route that does declare a JSON schema gets Fastify's own defaults. The build leaves these
 * packages out of the bundle; they load from node_modules if ever needed.
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
type Builder<K extends keyof CompilersFactory> = NonNullable<CompilersFactory[K]>;

const require = createRequire(import.meta.url);

/** A factory that makes the package's own selector (with its cache) on the first call. */
function onFirstUse<F extends (...args: never[]) => unknown>(pkg: string): F {
  let made: F | undefined;
  return ((...args: Parameters<F>) => {
    made ??= (require(pkg) as () => F)();
    return made(...args);
  }) as F;
}

export function lazySchemaCompilers(): { compilersFactory: CompilersFactory } {
  return {
    compilersFactory: {
      buildValidator: onFirstUse<Builder<'buildValidator'>>('@fastify/ajv-compiler'),
      buildSerializer: onFirstUse<Builder<'buildSerializer'>>('@fastify/fast-json-stringify-compiler'),
    },
  };
}
