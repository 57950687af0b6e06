/**
 * Linking one platform account. User mode: an authorization-code flow with PKCE S256 and a
 * random state stored hashed (10 minutes) and bound to the browser by an HttpOnly cookie; the
 * callback checks both, exchanges the code, reads the user and their settings, and stores the
 * link. Server-to-server mode: account credentials, no browser. Disconnect revokes upstream and
 * forgets the tokens. Each announces its `connection.*` transition (connection-events.ts).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError } from '../../core/errors.js';
import type { LinkRecord, Store } from '../../store/store.js';
import { USER_AGENT } from '../../version.js';
import { linkMessage } from '../../store/outbox-messages.js';
import { connectionMessage, healthOf } from './connection-events.js';
import { OAuthFailure, type OAuthClient, type TokenResponse } from './oauth-client.js';
import { aad, type TokenManager } from './token-manager.js';
import { openAny, seal, type KeySource } from './vault.js';

const STATE_TTL_MS = 10 * 60_000;
const sha = (v: string) => createHash('sha256').update(v).digest('hex');
const stateAad = (hash: string) => `oauth_state:${hash}:verifier`;

export interface LinkServiceOptions {
  store: Store;
  keys: KeySource;
  oauth: OAuthClient;
  tokens: TokenManager;
  apiBase: string;
  redirectUri: string;
  accountId: string | undefined;
  fetch: typeof fetch;
  now: () => number;
  logger: Logger;
  onLinked?: (link: LinkRecord) => void;
}

export interface StartedLink {
  authorizeUrl: string;
  /** Goes into the HttpOnly cookie that binds the state to this browser. */
  browserNonce: string;
}

interface PlatformUser {
  id: string;
  account_id: string;
  email: string;
  first_name?: string;
  last_name?: string;
  display_name?: string;
  type: number;
  pmi: number;
}

export class LinkService {
  constructor(private readonly o: LinkServiceOptions) {}

  get mode(): 'user' | 's2s' {
    return this.o.accountId ? 's2s' : 'user';
  }

  async start(): Promise<StartedLink> {
    if (this.mode === 's2s') {
      throw new AppError(
        400,
        'not_applicable',
        'This gateway links with server-to-server credentials (VIDEO_ACCOUNT_ID); there is no browser flow.',
      );
    }
    const state = randomBytes(32).toString('base64url');
    const verifier = randomBytes(48).toString('base64url');
    const browserNonce = randomBytes(32).toString('base64url');
    const stateHash = sha(state);
    await this.o.store.putOAuthState({
      stateHash,
      verifier: seal(this.o.keys.current(), verifier, stateAad(stateHash)),
      browserHash: sha(browserNonce),
      expiresAt: this.o.now() + STATE_TTL_MS,
    });
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    return {
      authorizeUrl: this.o.oauth.authorizeUrl({ redirectUri: this.o.redirectUri, state, challenge }),
      browserNonce,
    };
  }

  /** Completes the flow; stores nothing unless state, browser binding and code all check out. */
  async callback(q: {
    code?: string | undefined;
    state?: string | undefined;
    error?: string | undefined;
    browserNonce?: string | undefined;
  }): Promise<LinkRecord> {
    if (q.error) {
      if (q.state) await this.o.store.takeOAuthState(sha(q.state), this.o.now());
      throw new AppError(
        400,
        'link_denied',
        q.error === 'access_denied'
          ? 'The platform account owner declined the link.'
          : `The platform answered ${q.error.slice(0, 64)}.`,
      );
    }
    if (!q.code || !q.state) throw new AppError(400, 'invalid_callback', 'The callback lacks code or state.');
    const rec = await this.o.store.takeOAuthState(sha(q.state), this.o.now());
    if (!rec)
      throw new AppError(400, 'invalid_state', 'This link attempt is unknown or expired; start again.');
    const presented = Buffer.from(sha(q.browserNonce ?? ''));
    if (!q.browserNonce || !timingSafeEqual(presented, Buffer.from(rec.browserHash))) {
      throw new AppError(
        400,
        'invalid_state',
        'This link attempt was started in another browser; start again here.',
      );
    }
    const verifier = openAny(this.o.keys, rec.verifier, stateAad(rec.stateHash));
    let t: TokenResponse;
    try {
      t = await this.o.oauth.exchangeCode(q.code, this.o.redirectUri, verifier);
    } catch (err) {
      if (err instanceof OAuthFailure)
        throw new AppError(400, 'link_failed', `The platform refused the code (${err.error}).`, {
          platformError: err.error,
          platformReason: err.reason,
        });
      throw err;
    }
    return this.#store(t, 'user');
  }

  /** Server-to-server link: account credentials, no refresh token. */
  async linkServerToServer(): Promise<LinkRecord> {
    if (!this.o.accountId) throw new AppError(400, 'not_applicable', 'VIDEO_ACCOUNT_ID is not set.');
    const t = await this.o.oauth.accountCredentials(this.o.accountId);
    return this.#store(t, 's2s');
  }

  async #get<T>(token: string, path: string): Promise<T> {
    const res = await this.o.fetch(`${this.o.apiBase}${path}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': USER_AGENT },
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok)
      throw new AppError(502, 'link_failed', `Reading ${path} after linking failed with ${res.status}.`);
    return (await res.json()) as T;
  }

  async #store(t: TokenResponse, mode: 'user' | 's2s'): Promise<LinkRecord> {
    const who = mode === 's2s' ? (this.o.accountId ?? 'me') : 'me';
    // In s2s mode there is no `me`: the first user of the account stands for it.
    const user =
      mode === 's2s'
        ? ((await this.#get<{ users: PlatformUser[] }>(t.access_token, '/users?page_size=1')).users[0] ??
          null)
        : await this.#get<PlatformUser>(t.access_token, `/users/${who}`);
    if (!user) throw new AppError(502, 'link_failed', 'The platform returned no user for this account.');
    type Settings = { feature?: { webinar?: boolean } };
    const settings: Settings = await this.#get<Settings>(
      t.access_token,
      `/users/${mode === 's2s' ? user.id : 'me'}/settings`,
    ).catch((): Settings => ({}));
    const nowIso = new Date(this.o.now()).toISOString();
    const link = this.o.tokens.sealTokens(
      {
        mode,
        status: 'linked',
        accountId: mode === 's2s' ? (this.o.accountId ?? user.account_id) : user.account_id,
        userId: user.id,
        email: user.email,
        name: user.display_name ?? [user.first_name, user.last_name].filter(Boolean).join(' '),
        type: user.type,
        pmi: user.pmi,
        webinarLicense: settings.feature?.webinar === true,
        linkedAt: nowIso,
        updatedAt: nowIso,
      },
      t,
      null,
    );
    // Written under the link lock with what it replaces, so a relink of a broken link is
    // announced as recovered, and a first link as linked, once however many instances run.
    await this.o.store.withLinkLock((prev) => {
      const before = healthOf(prev);
      const recovered = before === 'needs_relink' || before === 'refresh_failing';
      const message = connectionMessage(
        recovered ? 'connection.recovered' : 'connection.linked',
        link,
        {
          before,
          after: 'linked',
          reason: recovered ? 'relinked' : mode === 's2s' ? 'server_to_server' : 'oauth_callback',
        },
        this.o.now(),
      );
      return Promise.resolve({
        next: link,
        result: undefined,
        outbox: [linkMessage(link, 'linked', this.o.now()), message],
      });
    });
    this.o.tokens.reset();
    this.o.logger.info({ accountId: link.accountId, mode }, 'platform account linked');
    this.o.onLinked?.(link);
    return link;
  }

  async disconnect(): Promise<{ revoked: boolean }> {
    const link = await this.o.store.getLink();
    if (!link) throw new AppError(409, 'not_linked', 'No platform account is linked.');
    let revoked = false;
    try {
      await this.o.oauth.revoke(openAny(this.o.keys, link.accessToken, aad('access_token')));
      revoked = true;
    } catch (err) {
      // Forget the link anyway; the operator asked for it, and the token expires within the hour.
      this.o.logger.warn(
        { err: (err as Error).message },
        'upstream revoke failed; forgetting the link anyway',
      );
    }
    await this.o.store.deleteLink((gone) => [
      linkMessage(gone, 'unlinked', this.o.now()),
      connectionMessage(
        'connection.unlinked',
        gone,
        { before: healthOf(gone), after: 'not_linked', reason: 'disconnected' },
        this.o.now(),
      ),
    ]);
    this.o.tokens.reset();
    return { revoked };
  }
}
