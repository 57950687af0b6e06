/**
 * Keeps the link's access token fresh. Refreshes ahead of expiry (margin) and once after a 401;
 * concurrent callers in this process share one refresh (single flight), and the store's link
 * lock serializes refreshes across processes: after taking it we re-read the link, and if
 * someone else already refreshed we use their token. The new refresh token is committed in the
 * same locked transaction before anyone uses it, because the platform's refresh tokens are
 * single-use. On invalid_grant the link becomes needs_relink and that token is never tried again.
 * Tokens that do not open (a missing key, an altered value) answer needs_relink too, but are left
 * in the store as they are and never refreshed over (sealed-link.ts).
 */
import type { Logger } from 'pino';
import { AppError } from '../../http/errors.js';
import type { LinkRecord, Store } from '../../store/store.js';
import { linkMessage } from '../webhooks-out/messages.js';
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
    const opened = openLink(this.o.keys, link);
    if (fresh(link)) {
      this.#cached = { link, token: opened.accessToken };
      return { value: opened.accessToken, version: link.tokenVersion };
    }
    return this.refresh(link.tokenVersion);
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
    const outcome = await this.o.store.withLinkLock<Token | AppError>(async (link) => {
      if (!link) return { result: notLinked() };
      if (link.status === 'needs_relink') return { result: needsRelink() };
      let opened: OpenedLink;
      try {
        opened = openLink(this.o.keys, link);
      } catch (err) {
        // No `next`: the unreadable values stay, so restoring their key brings the link back.
        if (err instanceof UnreadableLink) return { result: err };
        throw err;
      }
      if (link.tokenVersion !== seenVersion && link.accessExpiresAt - this.o.marginMs > this.o.now()) {
        // Another caller or instance refreshed while we waited for the lock.
        return { result: { value: opened.accessToken, version: link.tokenVersion } };
      }
      try {
        let t: TokenResponse;
        if (link.mode === 's2s')
          t = await this.o.oauth.accountCredentials(this.o.accountId ?? link.accountId);
        else {
          if (opened.refreshToken === null)
            return {
              next: { ...link, status: 'needs_relink' },
              result: needsRelink(),
              outbox: [linkMessage(link, 'needs_relink', this.o.now())],
            };
          t = await this.o.oauth.refresh(opened.refreshToken);
        }
        this.refreshes += 1;
        this.o.onRefresh?.('ok');
        const next = this.sealTokens(
          { ...link, updatedAt: new Date(this.o.now()).toISOString() },
          t,
          link.refreshToken,
        );
        return { next, result: { value: t.access_token, version: next.tokenVersion } };
      } catch (err) {
        const refused =
          err instanceof OAuthFailure && (err.error === 'invalid_grant' || err.error === 'invalid_client')
            ? err
            : undefined;
        this.o.onRefresh?.(refused ? 'refused' : 'error');
        if (refused) {
          this.o.logger.warn(
            { error: refused.error },
            'platform refused the refresh; link needs to be made again',
          );
          return {
            next: { ...link, status: 'needs_relink', updatedAt: new Date(this.o.now()).toISOString() },
            result: needsRelink(),
            outbox: [linkMessage(link, 'needs_relink', this.o.now())],
          };
        }
        throw err;
      }
    });
    this.#cached = undefined;
    if (outcome instanceof AppError) throw outcome;
    return outcome;
  }
}
