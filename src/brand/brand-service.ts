/**
 * Holds the live brand catalog. Loads it from the brand folder, and when watching, rebuilds it
 * on every edit and swaps it in whole; an edit that does not validate or does not build leaves
 * the last good catalog serving, publishes nothing and logs every problem.
 */
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import type { Logger } from 'pino';
import { buildCatalog, type BrandCatalog } from './catalog.js';
import { DiskCache } from './disk-cache.js';
import { BrandInvalidError, type BrandProblem } from './problems.js';
import { readBrandFolder, type BrandSource } from './read-brand-folder.js';
import { createRenderer } from './render.js';

export interface BrandServiceOptions {
  dir: string;
  baseUrl: string;
  cacheDir: string;
  logger: Logger;
  /**
   * Publishes each loaded brand's tokens as a brand version and returns its version (versions.ts);
   * without it (no store) the brand has no version.
   */
  version?: (source: BrandSource, baseUrl: string) => Promise<string | undefined>;
}

export type ReloadResult = { ok: true; catalog: BrandCatalog } | { ok: false; problems: BrandProblem[] };

async function load(opts: BrandServiceOptions): Promise<BrandCatalog> {
  const cache = new DiskCache(path.join(opts.cacheDir, 'build'));
  const source = await readBrandFolder(opts.dir, { cache });
  const render = await createRenderer(source.fontFiles, opts.cacheDir);
  const { version } = opts;
  // Published by the build once all of it succeeded, and swapped in by the caller right after:
  // a version is announced only for a brand that is served.
  return buildCatalog(source, {
    baseUrl: opts.baseUrl,
    render,
    cache,
    ...(version ? { publish: () => version(source, opts.baseUrl) } : {}),
  });
}

export class BrandService {
  #current: BrandCatalog;
  #watcher: FSWatcher | undefined;
  #reloading: Promise<ReloadResult> | undefined;
  #again = false;
  #listeners = new Set<(c: BrandCatalog) => void>();

  private constructor(
    private readonly opts: BrandServiceOptions,
    first: BrandCatalog,
  ) {
    this.#current = first;
  }

  /** Loads the brand folder; throws BrandInvalidError listing every problem if it is not valid. */
  static async start(opts: BrandServiceOptions): Promise<BrandService> {
    return new BrandService(opts, await load(opts));
  }

  get current(): BrandCatalog {
    return this.#current;
  }

  onChange(listener: (c: BrandCatalog) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Rebuilds from disk; edits that land while a rebuild runs trigger one more rebuild after it. */
  reload(): Promise<ReloadResult> {
    if (this.#reloading) {
      this.#again = true;
      return this.#reloading;
    }
    const run = async (): Promise<ReloadResult> => {
      let result: ReloadResult;
      do {
        this.#again = false;
        try {
          const catalog = await load(this.opts);
          this.#current = catalog;
          for (const l of this.#listeners) l(catalog);
          this.opts.logger.info({ dir: this.opts.dir }, 'brand reloaded');
          result = { ok: true, catalog };
        } catch (err) {
          if (!(err instanceof BrandInvalidError))
            this.opts.logger.error({ err }, 'brand reload failed; still serving the last good brand');
          else
            this.opts.logger.warn(
              { problems: err.problems },
              `brand edit rejected; still serving the last good brand\n${err.message}`,
            );
          result = {
            ok: false,
            problems:
              err instanceof BrandInvalidError
                ? err.problems
                : [{ file: '(brand)', field: '(load)', reason: (err as Error).message }],
          };
        }
      } while (this.#again);
      return result;
    };
    this.#reloading = run().finally(() => {
      this.#reloading = undefined;
    });
    return this.#reloading;
  }

  /** Starts following the folder; resolves once the watcher is ready. */
  async watch(debounceMs = 150): Promise<void> {
    // Loaded only when watching (BRAND_WATCH): a service that does not watch never needs it.
    const { watch } = await import('chokidar');
    if (this.#watcher) return;
    let timer: NodeJS.Timeout | undefined;
    const watcher = watch(path.resolve(this.opts.dir), {
      ignoreInitial: true,
      awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 20 },
    });
    watcher.on('all', () => {
      clearTimeout(timer);
      timer = setTimeout(() => void this.reload(), debounceMs);
    });
    watcher.on('error', (err) => this.opts.logger.error({ err }, 'brand watcher error'));
    this.#watcher = watcher;
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  async close(): Promise<void> {
    await this.#watcher?.close();
    this.#watcher = undefined;
    await this.#reloading;
  }
}
