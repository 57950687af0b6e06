/**
 * The catalog's HTTP responses by path, each precomputed once per brand load (compressed and
 * hashed, the brand version's headers on it), and the cache lifetimes each kind of path gets.
 */
import { precompute, type Precomputed } from '../core/precomputed.js';
import type { DiskCache } from './disk-cache.js';

export const API_CACHE = 'public, max-age=60, stale-while-revalidate=600';
export const STATIC_CACHE = 'public, max-age=3600, stale-while-revalidate=86400';
export const FONT_CACHE = 'public, max-age=604800';
export const JSON_TYPE = 'application/json; charset=utf-8';

export const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

export class CatalogResponses {
  /** Path (no query) → response. Only these paths exist, so nothing outside can ever be served. */
  readonly byPath = new Map<string, Precomputed>();

  constructor(
    private readonly cache: DiskCache,
    /** The brand version's headers (versions.ts), on every response. */
    readonly versioned: Record<string, string>,
  ) {}

  /** A response, precomputed and served at `path`. */
  put(
    path: string,
    body: string | Buffer,
    contentType: string,
    cacheControl: string,
    headers?: Record<string, string>,
  ): Precomputed {
    const r = this.precompute(body, contentType, cacheControl, headers);
    this.byPath.set(path, r);
    return r;
  }

  /** A response precomputed as put() would, served at no path of its own. */
  precompute(
    body: string | Buffer,
    contentType: string,
    cacheControl: string,
    headers?: Record<string, string>,
  ): Precomputed {
    return precompute(body, {
      contentType,
      cacheControl,
      compressed: this.cache,
      headers: { ...this.versioned, ...headers },
    });
  }

  /** Serves `path` with the response of `from`, if there is one. */
  alias(path: string, from: string): void {
    const r = this.byPath.get(from);
    if (r) this.byPath.set(path, r);
  }
}
