/**
 * Calls to the platform's token endpoint (code exchange, refresh, account credentials, revoke),
 * with Basic client auth. Failures keep the platform's `{reason, error}` so callers can tell a
 * dead refresh token (invalid_grant) from a network problem.
 */
import { USER_AGENT } from '../../version.js';

export interface TokenResponse {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  expires_in: number;
  scope: string;
  api_url?: string;
}

export class OAuthFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly reason: string,
  ) {
    super(`token endpoint answered ${status} ${error}: ${reason}`);
    this.name = 'OAuthFailure';
  }
}

export interface OAuthClientOptions {
  oauthBase: string;
  clientId: string;
  clientSecret: string;
  fetch: typeof fetch;
  timeoutMs: number;
}

export class OAuthClient {
  constructor(private readonly o: OAuthClientOptions) {}

  authorizeUrl(p: { redirectUri: string; state: string; challenge: string }): string {
    const u = new URL(`${this.o.oauthBase}/oauth/authorize`);
    u.searchParams.set('response_type', 'code');
    u.searchParams.set('client_id', this.o.clientId);
    u.searchParams.set('redirect_uri', p.redirectUri);
    u.searchParams.set('state', p.state);
    u.searchParams.set('code_challenge', p.challenge);
    u.searchParams.set('code_challenge_method', 'S256');
    return u.toString();
  }

  async #post(path: string, params: Record<string, string>): Promise<Record<string, unknown>> {
    const res = await this.o.fetch(`${this.o.oauthBase}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${this.o.clientId}:${this.o.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        'user-agent': USER_AGENT,
      },
      body: new URLSearchParams(params),
      signal: AbortSignal.timeout(this.o.timeoutMs),
    });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // A non-JSON answer is reported below with the status.
    }
    if (!res.ok) {
      throw new OAuthFailure(
        res.status,
        typeof json['error'] === 'string' ? json['error'] : 'http_error',
        typeof json['reason'] === 'string' ? json['reason'] : `HTTP ${res.status}`,
      );
    }
    return json;
  }

  async #token(params: Record<string, string>): Promise<TokenResponse> {
    const j = await this.#post('/oauth/token', params);
    if (typeof j['access_token'] !== 'string' || typeof j['expires_in'] !== 'number') {
      throw new OAuthFailure(502, 'invalid_response', 'token response lacks access_token or expires_in');
    }
    return j as unknown as TokenResponse;
  }

  exchangeCode(code: string, redirectUri: string, verifier: string): Promise<TokenResponse> {
    return this.#token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    });
  }

  refresh(refreshToken: string): Promise<TokenResponse> {
    return this.#token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  accountCredentials(accountId: string): Promise<TokenResponse> {
    return this.#token({ grant_type: 'account_credentials', account_id: accountId });
  }

  async revoke(token: string): Promise<void> {
    await this.#post('/oauth/revoke', { token });
  }
}
