/**
 * What every emulated API group gets: a route registrar that applies the platform's rules
 * before the handler runs (bearer token → 401 code 124, missing scope → 400 code 4711, rate
 * limit by label → 429), the demo user, `me` resolution, platform-style pagination, the clock,
 * persistence, and webhook emission. Group modules (routes/*.ts) only describe their endpoints.
 */
import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { RateLabel, EmulatorOptions } from './options.js';
import type { Rng } from './prng.js';
import type { AccessToken } from './state.js';
import { zerr, ZoomError } from './zoom-error.js';

export interface DemoUser {
  id: string;
  accountId: string;
  email: string;
  firstName: string;
  lastName: string;
  pmi: number;
  timezone: string;
}

/** Handed to seed functions: deterministic randomness and dates relative to the anchor day. */
export interface SeedContext {
  rng: Rng;
  /** The anchor: today 00:00 UTC when the data was generated. */
  anchor: Date;
  demo: DemoUser;
  /** ISO time `days` from the anchor day at hh:mm UTC, without milliseconds, as the platform writes it. */
  at(days: number, hh?: number, mm?: number): string;
}

export interface EmulatorRequest extends FastifyRequest {
  auth: AccessToken;
}

export interface RouteDef {
  method: HTTPMethods;
  /** Path below /v2, e.g. '/users/:userId/meetings'. */
  url: string;
  /** Any one of these scopes admits the call (classic and granular, as the platform lists them). */
  scopes: string[];
  label: RateLabel;
  /** Zoom Phone has its own, lower rate limits. */
  product?: 'phone';
  handler: (req: EmulatorRequest, reply: FastifyReply) => unknown;
}

export interface Page<T> {
  items: T[];
  nextPageToken: string;
  pageSize: number;
  totalRecords: number;
}

export interface WebhookEmitter {
  /** Signs and delivers `{event, event_ts, payload: {account_id, object, ...extra}}` (+ top-level fields). */
  emit(
    event: string,
    object: unknown,
    extra?: Record<string, unknown>,
    topLevel?: Record<string, unknown>,
  ): void;
}

export interface EmulatorContext {
  options: EmulatorOptions;
  route(def: RouteDef): void;
  demo: DemoUser;
  slice<T>(name: string): T;
  /** Call after changing a slice, so the change is persisted. */
  changed(): void;
  now(): Date;
  /** Counts a meeting create, update or delete against the host's daily cap (429 when spent). */
  meetingWrite(hostId: string): void;
  /** Resolves `me`, the user id or the email to the demo user; 404 code 1001 otherwise. */
  user(req: EmulatorRequest, userId: string): DemoUser;
  /**
   * Token-style pagination as the platform does it: opaque `next_page_token` valid 15 minutes,
   * `""` at the end, a bad token → 400 code 300; page_size clamped to the endpoint's max.
   */
  paginate<T>(
    req: FastifyRequest,
    items: T[],
    opts: { defaultSize: number; maxSize: number; tokenParam?: string; sizeParam?: string },
  ): Page<T>;
  webhooks: WebhookEmitter;
  /** A new id in the platform's style. */
  newId(kind: 'meeting' | 'uuid' | 'alnum', length?: number): string | number;
  /** The base URL of the emulator (for download URLs and the like). */
  baseUrl: string;
}

/** A group of the platform API: its seeded data and its routes. */
export interface EmulatorModule<T = unknown> {
  name: string;
  seed(s: SeedContext): T;
  register(ctx: EmulatorContext): void;
  /**
   * Optional: builds a complete webhook for `POST /_sandbox/webhooks/send` when the event needs
   * more than the given object (e.g. recording.completed's download_token). True when handled.
   */
  emit?(ctx: EmulatorContext, event: string, object: Record<string, unknown>): boolean;
}

export function defineModule<T>(m: EmulatorModule<T>): EmulatorModule<T> {
  return m;
}

/** Reads a query value as one string (the first, if repeated). */
export function q(req: FastifyRequest, name: string): string | undefined {
  const v = (req.query as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(v)) return typeof v[0] === 'string' ? v[0] : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** Reads a path parameter. */
export function p(req: FastifyRequest, name: string): string {
  const v = (req.params as Record<string, unknown>)[name];
  return typeof v === 'string' ? v : '';
}

/** The JSON body as an object, or 400 code 300 like the platform. */
export function body(req: FastifyRequest): Record<string, unknown> {
  const b = req.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw zerr.invalidJson();
  return b as Record<string, unknown>;
}

export { ZoomError, zerr };
