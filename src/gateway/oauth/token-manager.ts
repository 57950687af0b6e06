/**
 * Keeps the link's access token fresh. Refreshes ahead of expiry (margin) and once after a 401;
 * concurrent callers in this process share one refresh (single flight), and the store's link
 * lock serializes refreshes across processes: after taking it we re-read the link, and if
 * someone else already refreshed we use their token. The new refresh token is committed in the
 * same locked transaction before anyone uses it, because the platform's refresh tokens are
 * single-use. On invalid_grant the link becomes needs_relink and that token is never tried again.
 * Tokens that do not open (a missing key, an altered value) answer needs_relink too, but are left
 * in the store as they are and never refreshed over (sealed-link.ts); the link is only marked
 * unreadable, so that is announced once, and once they open again (the key is back) it recovers.
 * A transient refresh failure (the token endpoint down or answering 5xx) is counted on the link
 * and backs every instance off (1 s doubling, at most 5 min) while the stored access token is
 * still used if it has not expired. Each of these transitions writes its `connection.*` message
 * in the same locked transaction (connection-events.ts).
 */
import type { Logger } from 'pino';
import { AppError } from '../../core/errors.js';
import type { LinkRecord, Store } from '../../store/store.js';
import type { OutboxMessage } from '../../store/webhooks.js';
import { linkMessage } from '../../store/outbox-messages.js';
import { connectionMessage, healthOf, type LinkHealth } from './connection-events.js';
import type { RefreshOutcome } from '../observer.js';
import { OAuthFailure, type OAuthClient, type TokenResponse } from './oauth-client.js';
import {
  aad,
  linkProblem,
  openLink,
  UnreadableLink,
  type LinkProblem,
  type OpenedLink,
} from './sealed-link.js';
import { seal, type KeySource } from './vault.js';

export { aad } from './sealed-link.js';

export const notLinked = () =>
  new AppError(
    409,
    'not_linked',
    'No platform account is linked. Open GET /api/video/oauth/start (or the dashboard) to link one.',
  );
export const needsRelink = () =>
  new AppError(
    409,
    'needs_relink',
    'The platform refused our refresh token; link the account again through GET /api/video/oauth/start.',
  );

/** A transient refresh failure: the call fails now, and no refresh is tried before `retryAt`. */
export const refreshFailed = (retryAt: number, now: number, attempt: number) =>
  new AppError(
    503,
    'token_refresh_failed',
    'The platform did not renew our access token; the gateway tries again shortly.',
    { attempt, nextAttemptAt: new Date(retryAt).toISOString() },
    { 'retry-after': String(Math.max(1, Math.ceil((retryAt - now) / 1000))) },
  );

/** Backoff after the n-th transient failure in a row. */
export function refreshBackoffMs(failures: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, Math.min(failures - 1, 20)), 5 * 60_000);
}

export interface Token {
  value: string;
  version: number;
}

export interface TokenManagerOptions {
  store: Store;
  keys: KeySource;
  oauth: OAuthClient;
  now: () => number;
  /** Refresh this long before expiry. */
  marginMs: number;
  logger: Logger;
  /** Server-to-server mode: new tokens come from account_credentials. */
  accountId: string | undefined;
  /** Told how each refresh grant we asked for ended. */
  onRefresh?: (outcome: RefreshOutcome) => void;
  /** First backoff after a transient refresh failure (doubling); default 1000 ms. */
  refreshRetryBaseMs?: number;
}

/** What a refresh under the link lock answers, and what it writes before the lock is released. */
interface Locked {
  next?: LinkRecord;
  result: Token | AppError;
  outbox?: OutboxMessage[];
}

export class TokenManager {
  #inflight: Promise<Token> | undefined;
  #cached: { link: LinkRecord; token: string } | undefined;
  refreshes = 0;

  constructor(private readonly o: TokenManagerOptions) {}

  /** The link as of the cached token, if one is cached (saves a store read per call). */
  get knownLink(): LinkRecord | undefined {
    return this.#cached?.link;
  }

  /** Why the link's tokens cannot be opened with our keys; undefined when they can. */
  problem(link: LinkRecord): LinkProblem | undefined {
    return linkProblem(this.o.keys, link);
  }

  /** Forget what we cached (after link, unlink or key rotation). */
  reset(): void {
    this.#cached = undefined;
  }

  /** Seals a token response into a link record. */
  sealTokens(
    base: Omit<LinkRecord, 'accessToken' | 'refreshToken' | 'accessExpiresAt' | 'tokenVersion' | 'scopes'> & {
      tokenVersion?: number;
    },
    t: TokenResponse,
    previousRefresh: string | null,
  ): LinkRecord {
    const ring = this.o.keys.current();
    return {
      ...base,
      scopes: t.scope ? t.scope.split(' ').filter(Boolean) : [],
      accessToken: seal(ring, t.access_token, aad('access_token')),
      refreshToken: t.refresh_token ? seal(ring, t.refresh_token, aad('refresh_token')) : previousRefresh,
      accessExpiresAt: this.o.now() + t.expires_in * 1000,
      tokenVersion: (base.tokenVersion ?? 0) + 1,
    };
  }

  async current(): Promise<Token> {
    const fresh = (l: LinkRecord) => l.accessExpiresAt - this.o.marginMs > this.o.now();
    if (this.#cached && fresh(this.#cached.link) && this.#cached.link.status === 'linked') {
      return { value: this.#cached.token, version: this.#cached.link.tokenVersion };
    }
    const link = await this.o.store.getLink();
    if (!link) throw notLinked();
    if (link.status === 'needs_relink') throw needsRelink();
    // Both tokens, even while the access token is fresh: one that will not open is reported now.
    let opened: OpenedLink;
    try {
      opened = openLink(this.o.keys, link);
    } catch (err) {
      if (err instanceof UnreadableLink && link.health !== 'unreadable')
        await this.#markReadable(link, false);
      throw err;
    }
    if (link.health === 'unreadable') await this.#markReadable(link, true);
    if (fresh(link)) {
      this.#cached = { link, token: opened.accessToken };
      return { value: opened.accessToken, version: link.tokenVersion };
    }
    const now = this.o.now();
    if (link.nextRefreshAt && link.nextRefreshAt > now) {
      // Backing off after a failed refresh: the old token serves while it lasts.
      if (link.accessExpiresAt > now) return { value: opened.accessToken, version: link.tokenVersion };
      throw refreshFailed(link.nextRefreshAt, now, link.refreshFailures ?? 0);
    }
    return this.refresh(link.tokenVersion);
  }

  /**
   * Records, once across instances, that the link's tokens stopped opening (`readable` false:
   * connection.needs_relink) or open again (true: connection.recovered). Nothing else changes.
   */
  async #markReadable(seen: LinkRecord, readable: boolean): Promise<void> {
    await this.o.store.withLinkLock((link) => Promise.resolve(this.#readableChange(seen, readable, link)));
  }

  #readableChange(
    seen: LinkRecord,
    readable: boolean,
    link: LinkRecord | undefined,
  ): { next?: LinkRecord; result: undefined; outbox?: OutboxMessage[] } {
    const wasUnreadable = link?.health === 'unreadable';
    if (!link || link.tokenVersion !== seen.tokenVersion || wasUnreadable === !readable)
      return { result: undefined };
    if ((linkProblem(this.o.keys, link) === undefined) !== readable) return { result: undefined };
    return { ...this.#healthChange(link, readable), result: undefined };
  }

  /** The link with its tokens marked readable or not, and the one message announcing that. */
  #healthChange(link: LinkRecord, readable: boolean): { next: LinkRecord; outbox: OutboxMessage[] } {
    const next: LinkRecord = { ...link, health: readable ? 'ok' : 'unreadable' };
    const message = readable
      ? connectionMessage(
          'connection.recovered',
          link,
          { before: healthOf(link), after: healthOf(next), reason: 'tokens_readable' },
          this.o.now(),
        )
      : connectionMessage(
          'connection.needs_relink',
          link,
          { before: healthOf(link), after: 'needs_relink', reason: 'tokens_unreadable' },
          this.o.now(),
        );
    return { next, outbox: [message] };
  }

  /**
   * Refreshes unless the stored token is newer than `seenVersion` (then that one is returned).
   * Pass the version of a token the platform just rejected with 401.
   */
  refresh(seenVersion: number): Promise<Token> {
    this.#inflight ??= this.#refresh(seenVersion).finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }

  async #refresh(seenVersion: number): Promise<Token> {
    const outcome = await this.o.store.withLinkLock<Token | AppError>((link) =>
      this.#refreshLocked(link, seenVersion),
    );
    this.#cached = undefined;
    if (outcome instanceof AppError) throw outcome;
    return outcome;
  }

  /**
   * The refresh under the link lock, as its steps: the link must be there and linked, its tokens
   * must open, and a refresh must still be due; then the grant, and what its outcome writes
   * (refreshed, refused for good, or failed for now). Whatever a step returns is written.
   */
  async #refreshLocked(link: LinkRecord | undefined, seenVersion: number): Promise<Locked> {
    if (!link) return { result: notLinked() };
    if (link.status === 'needs_relink') return { result: needsRelink() };
    const opened = this.#openToRefresh(link);
    if ('result' in opened) return opened;
    const notDue = this.#refreshNotDue(link, seenVersion, opened);
    if (notDue) return notDue;
    const before = healthOf(link);
    try {
      let t: TokenResponse;
      if (link.mode === 's2s') t = await this.o.oauth.accountCredentials(this.o.accountId ?? link.accountId);
      else if (opened.refreshToken === null) return this.#noRefreshToken(link, before);
      else t = await this.o.oauth.refresh(opened.refreshToken);
      return this.#refreshed(link, before, t);
    } catch (err) {
      const refused =
        err instanceof OAuthFailure && (err.error === 'invalid_grant' || err.error === 'invalid_client')
          ? err
          : undefined;
      this.o.onRefresh?.(refused ? 'refused' : 'error');
      return refused ? this.#refused(link, before, refused) : this.#failed(link, before, err);
    }
  }

  /**
   * The link's tokens, opened. Ones that will not open stay as they are, so restoring their key
   * brings the link back; only the link's health is marked, so the change is announced once.
   */
  #openToRefresh(link: LinkRecord): OpenedLink | Locked {
    try {
      return openLink(this.o.keys, link);
    } catch (err) {
      if (!(err instanceof UnreadableLink)) throw err;
      if (link.health === 'unreadable') return { result: err };
      return { ...this.#healthChange(link, false), result: err };
    }
  }

  /** Why no refresh is due now (another one succeeded, or failed a moment ago); undefined if one is. */
  #refreshNotDue(link: LinkRecord, seenVersion: number, opened: OpenedLink): Locked | undefined {
    if (link.tokenVersion !== seenVersion && link.accessExpiresAt - this.o.marginMs > this.o.now()) {
      // Another caller or instance refreshed while we waited for the lock.
      return { result: { value: opened.accessToken, version: link.tokenVersion } };
    }
    if (link.nextRefreshAt && link.nextRefreshAt > this.o.now()) {
      // Another attempt failed a moment ago: wait out its backoff rather than hammer the platform.
      return { result: refreshFailed(link.nextRefreshAt, this.o.now(), link.refreshFailures ?? 0) };
    }
    return undefined;
  }

  /** The grant worked: the new tokens sealed, the failures cleared, a recovery announced. */
  #refreshed(link: LinkRecord, before: LinkHealth, t: TokenResponse): Locked {
    this.refreshes += 1;
    this.o.onRefresh?.('ok');
    const next = this.sealTokens(
      {
        ...link,
        updatedAt: new Date(this.o.now()).toISOString(),
        refreshFailures: 0,
        nextRefreshAt: null,
      },
      t,
      link.refreshToken,
    );
    const recovered =
      before === 'linked'
        ? []
        : [
            connectionMessage(
              'connection.recovered',
              link,
              {
                before,
                after: healthOf(next),
                reason: 'refreshed',
                extra: { failed_attempts: link.refreshFailures ?? 0 },
              },
              this.o.now(),
            ),
          ];
    return { next, result: { value: t.access_token, version: next.tokenVersion }, outbox: recovered };
  }

  /** A user link without a refresh token cannot be renewed: it needs linking again. */
  #noRefreshToken(link: LinkRecord, before: LinkHealth): Locked {
    return {
      next: { ...link, status: 'needs_relink' },
      result: needsRelink(),
      outbox: [
        linkMessage(link, 'needs_relink', this.o.now()),
        connectionMessage(
          'connection.needs_relink',
          link,
          { before, after: 'needs_relink', reason: 'no_refresh_token' },
          this.o.now(),
        ),
      ],
    };
  }

  /** The platform refused the grant (invalid_grant, invalid_client): that token is never tried again. */
  #refused(link: LinkRecord, before: LinkHealth, refused: OAuthFailure): Locked {
    this.o.logger.warn({ error: refused.error }, 'platform refused the refresh; link needs to be made again');
    return {
      next: {
        ...link,
        status: 'needs_relink',
        updatedAt: new Date(this.o.now()).toISOString(),
        refreshFailures: 0,
        nextRefreshAt: null,
      },
      result: needsRelink(),
      outbox: [
        linkMessage(link, 'needs_relink', this.o.now()),
        connectionMessage(
          'connection.needs_relink',
          link,
          {
            before,
            after: 'needs_relink',
            reason: 'refresh_token_rejected',
            extra: { platform_error: refused.error },
          },
          this.o.now(),
        ),
      ],
    };
  }

  /** Transient (network, timeout, 5xx): counted on the link so every instance backs off. */
  #failed(link: LinkRecord, before: LinkHealth, err: unknown): Locked {
    const failures = (link.refreshFailures ?? 0) + 1;
    const now = this.o.now();
    const retryAt = now + refreshBackoffMs(failures, this.o.refreshRetryBaseMs ?? 1000);
    this.o.logger.warn(
      { attempt: failures, err: (err as Error).message },
      'token refresh failed; trying again later',
    );
    return {
      next: { ...link, refreshFailures: failures, nextRefreshAt: retryAt },
      result: refreshFailed(retryAt, now, failures),
      outbox: [
        connectionMessage(
          'connection.refresh_failed',
          link,
          {
            before,
            after: 'refresh_failing',
            reason: 'refresh_failed',
            extra: {
              attempt: failures,
              next_attempt_at: new Date(retryAt).toISOString(),
              error: err instanceof OAuthFailure ? `${err.status} ${err.error}` : (err as Error).name,
            },
          },
          now,
        ),
      ],
    };
  }
}
