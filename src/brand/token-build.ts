/**
 * A token build Style Dictionary refuses is a brand-folder problem like any other: the folder
 * validated, but its tokens cannot be built (an alias cycle is what validation lets through), so
 * the edit is rejected and nothing of it is published. Style Dictionary's own error only counts
 * the bad references unless it logs verbosely, so each alias is asked again with its resolver to
 * name the token and the reason.
 */
import { aliasesIn, type FlatToken } from './dtcg.js';
import { BrandInvalidError, type BrandProblem } from './problems.js';
import type { BrandSource } from './read-brand-folder.js';
import { deepMerge } from './tokens-css.js';

const BASE_FILE = 'tokens/base.tokens.json';
const DARK_FILE = 'tokens/dark.tokens.json';

/** An error from the disk or the system (it has an errno code), not from the tokens. */
const isSystemError = (err: unknown): boolean =>
  err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string';

async function aliasProblems(src: BrandSource): Promise<BrandProblem[]> {
  const { resolveReferences } = await import('style-dictionary/utils');
  const problems: BrandProblem[] = [];
  const check = (file: string, tokens: Map<string, FlatToken>, tree: unknown) => {
    for (const token of tokens.values()) {
      for (const alias of new Set(aliasesIn(token.value))) {
        try {
          resolveReferences(`{${alias}}`, tree as Parameters<typeof resolveReferences>[1], {
            usesDtcg: true,
          });
        } catch (err) {
          problems.push({ file, field: token.path, reason: `cannot be built: ${(err as Error).message}` });
        }
      }
    }
  };
  check(BASE_FILE, src.tokens.flat, src.tokens.base);
  check(DARK_FILE, src.tokens.darkFlat, deepMerge(src.tokens.base, src.tokens.dark));
  return problems;
}

/** Runs a token build; a refusal by Style Dictionary becomes a BrandInvalidError naming the tokens. */
export async function buildingTokens<T>(src: BrandSource, build: () => Promise<T>): Promise<T> {
  try {
    return await build();
  } catch (err) {
    if (isSystemError(err)) throw err;
    const message = (err as Error).message.trim().replace(/\s+/g, ' ');
    const problems = await aliasProblems(src).catch(() => []);
    throw new BrandInvalidError(
      src.dir,
      problems.length > 0
        ? problems
        : [
            {
              file: BASE_FILE,
              field: '(build)',
              reason: `Style Dictionary cannot build the tokens: ${message}`,
            },
          ],
    );
  }
}
