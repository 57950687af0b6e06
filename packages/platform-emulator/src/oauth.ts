/**
 * The platform's OAuth server: /oauth/authorize (code + PKCE), /oauth/token (authorization_code,
 * refresh_token with rotation, account_credentials, client_credentials; Basic client auth;
 * params in a form body or the query) and /oauth/revoke. Errors use the token endpoint's own
 * `{reason, error}` shape, not the REST one.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DemoUser } from './context.js';
import type { EmulatorOptions } from './options.js';
import type { AccessToken, EmulatorState } from './state.js';
import type { ContractLog } from './contract/log.js';
import { oauthViolations, type OAuthEndpoint } from './contract/oauth-rules.js';
import { platformRequest } from './contract/request.js';

export type EmulatorStats = GrantStats & { requests: Record<string, number> };

export interface GrantStats {
  tokenGrants: Record<
    'authorization_code' | 'refresh_token' | 'account_credentials' | 'client_credentials',
    number
  >;
  rejectedRefreshTokens: number;
  lastAccessToken: string | null;
  lastRefreshToken: string | null;
}

const CODE_TTL_MS = 5 * 60_000;

const b64url = (v: Buffer | string) => Buffer.from(v).toString('base64url');

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A JWT-shaped opaque token, like the platform's (clients must not parse it). */
function mintToken(secret: string, claims: Record<string, unknown>): string {
  const head = b64url(JSON.stringify({ alg: 'HS512', v: '2.0', kid: 'sandbox' }));
  const body = b64url(JSON.stringify({ ...claims, jti: randomBytes(12).toString('hex') }));
  const sig = createHmac('sha512', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

const oauthError = (reply: FastifyReply, reason: string, error: string, status = 400) =>
  reply.code(status).type('application/json').send({ reason, error });

/** Params from the query and a form (or JSON) body; body wins. */
function params(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const src of [req.query, req.body]) {
    if (src && typeof src === 'object') {
      for (const [k, v] of Object.entries(src as Record<string, unknown>))
        if (typeof v === 'string') out[k] = v;
    }
  }
  return out;
}

/**
 * Revokes every issued access and refresh token, as removing the app or revoking its grant does:
 * the next API call with one is 401 and a refresh is invalid_grant. Returns how many went.
 */
export function revokeAllTokens(st: EmulatorState): { access: number; refresh: number } {
  const gone = { access: Object.keys(st.file.access).length, refresh: Object.keys(st.file.refresh).length };
  st.file.access = {};
  st.file.refresh = {};
  st.changed();
  return gone;
}

export interface OAuthDeps {
  options: EmulatorOptions;
  state: () => EmulatorState;
  demo: () => DemoUser;
  stats: GrantStats;
  allScopes: () => string[];
  contract: ContractLog;
}

type Params = Record<string, string>;

export function registerOAuth(app: FastifyInstance, deps: OAuthDeps): void {
  app.get('/oauth/authorize', (req, reply) => authorize(deps, req, reply));
  app.post('/oauth/token', (req, reply) => token(deps, req, reply));
  app.post('/oauth/revoke', (req, reply) => revoke(deps, req, reply));
}

const nowMs = (deps: OAuthDeps) => deps.options.now().getTime();
const grantedScopes = (deps: OAuthDeps) =>
  deps.options.scopes ?? deps.allScopes().filter((s) => !s.startsWith('webinar:'));

/** Notes a request that is not one the platform's OAuth reference describes (contract/oauth-rules.ts). */
function judge(deps: OAuthDeps, endpoint: OAuthEndpoint, req: FastifyRequest): void {
  const broken = oauthViolations(
    endpoint,
    { ...platformRequest(req), authorization: req.headers.authorization },
    params(req),
  );
  if (broken.length > 0) deps.contract.record('oauth', broken);
}

function clientOk(options: EmulatorOptions, req: FastifyRequest): boolean {
  const h = req.headers.authorization ?? '';
  if (!h.startsWith('Basic ')) return false;
  const [id, secret] = Buffer.from(h.slice(6), 'base64').toString('utf8').split(':');
  return safeEqual(id ?? '', options.clientId) && safeEqual(secret ?? '', options.clientSecret);
}

/** Mints an access token (and a refresh token for a user's grant), stores them, and answers as the platform does. */
function issue(
  deps: OAuthDeps,
  grant: AccessToken['grant'],
  userId: string | null,
  withRefresh: boolean,
  granted: string[],
) {
  const { options } = deps;
  const st = deps.state();
  const demo = deps.demo();
  const expiresAt = nowMs(deps) + options.accessTtlSeconds * 1000;
  const claims = {
    ver: 7,
    clientId: options.clientId,
    aud: 'https://oauth.zoom.us',
    iss: `urn:zoom:connect:clientid:${options.clientId}`,
    accountId: demo.accountId,
    userId,
  };
  const access = mintToken(options.clientSecret, {
    ...claims,
    tokenType: 'access_token',
    exp: Math.floor(expiresAt / 1000),
  });
  let refresh: string | null = null;
  if (withRefresh && userId) {
    refresh = mintToken(options.clientSecret, { ...claims, tokenType: 'refresh_token' });
    st.file.refresh[refresh] = {
      token: refresh,
      userId,
      accountId: demo.accountId,
      scopes: granted,
      expiresAt: nowMs(deps) + options.refreshTtlDays * 86_400_000,
    };
  }
  st.file.access[access] = {
    token: access,
    grant,
    userId,
    accountId: demo.accountId,
    scopes: granted,
    expiresAt,
    refreshToken: refresh,
  };
  st.changed();
  deps.stats.tokenGrants[grant] += 1;
  deps.stats.lastAccessToken = access;
  if (refresh) deps.stats.lastRefreshToken = refresh;
  return {
    access_token: access,
    token_type: 'bearer',
    ...(refresh ? { refresh_token: refresh } : {}),
    expires_in: options.accessTtlSeconds,
    scope: granted.join(' '),
    api_url: options.baseUrl,
  };
}

function authorize(deps: OAuthDeps, req: FastifyRequest, reply: FastifyReply) {
  const { options } = deps;
  judge(deps, 'authorize', req);
  const q = params(req);
  if (q['response_type'] !== 'code')
    return oauthError(reply, 'unsupported response type', 'unsupported_response_type');
  if (q['client_id'] !== options.clientId) return oauthError(reply, 'Invalid client_id', 'invalid_client');
  const redirect = q['redirect_uri'] ?? '';
  // Never redirect to an unregistered URI: answer here instead (open-redirect protection).
  if (!options.redirectUris.includes(redirect))
    return oauthError(reply, 'Invalid redirect: redirect_uri does not match the app', 'invalid_request');
  const target = new URL(redirect);
  if (q['state'] !== undefined) target.searchParams.set('state', q['state']);
  if (!options.autoApprove) {
    target.searchParams.set('error', 'access_denied');
    return reply.redirect(target.toString(), 302);
  }
  const challenge = q['code_challenge'] ?? null;
  const method = (q['code_challenge_method'] ?? 'plain') as 'S256' | 'plain';
  if (challenge !== null && method !== 'S256' && method !== 'plain') {
    return oauthError(reply, 'Invalid code_challenge_method', 'invalid_request');
  }
  const code = randomBytes(16).toString('base64url');
  const st = deps.state();
  st.file.codes[code] = {
    code,
    redirectUri: redirect,
    challenge,
    method,
    userId: deps.demo().id,
    expiresAt: nowMs(deps) + CODE_TTL_MS,
  };
  st.changed();
  target.searchParams.set('code', code);
  return reply.redirect(target.toString(), 302);
}

function token(deps: OAuthDeps, req: FastifyRequest, reply: FastifyReply) {
  judge(deps, 'token', req);
  if (!clientOk(deps.options, req))
    return oauthError(reply, 'Invalid client_id or client_secret', 'invalid_client', 401);
  const q = params(req);
  switch (q['grant_type'] ?? '') {
    case 'authorization_code':
      return codeGrant(deps, q, reply);
    case 'refresh_token':
      return refreshGrant(deps, q, reply);
    case 'account_credentials': {
      if (q['account_id'] !== deps.demo().accountId)
        return oauthError(reply, 'Invalid account_id', 'invalid_request');
      return reply.send(issue(deps, 'account_credentials', null, false, grantedScopes(deps)));
    }
    case 'client_credentials':
      return reply.send(issue(deps, 'client_credentials', null, false, grantedScopes(deps)));
    default:
      return oauthError(reply, 'unsupported grant type', 'unsupported_grant_type');
  }
}

/** The authorization-code grant: the code is single use, then its redirect URI and PKCE verifier must match. */
function codeGrant(deps: OAuthDeps, q: Params, reply: FastifyReply) {
  const st = deps.state();
  const code = st.file.codes[q['code'] ?? ''];
  if (!code) return oauthError(reply, `Invalid authorization code ${q['code'] ?? ''}`, 'invalid_request');
  // Single use: the code is gone whatever happens next.
  delete st.file.codes[code.code];
  st.changed();
  if (code.expiresAt < nowMs(deps))
    return oauthError(reply, 'Authorization code has expired', 'invalid_grant');
  if (q['redirect_uri'] !== code.redirectUri)
    return oauthError(reply, 'Redirect URI mismatch', 'invalid_request');
  if (code.challenge !== null) {
    const verifier = q['code_verifier'] ?? '';
    const expected =
      code.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
    if (!verifier || !safeEqual(expected, code.challenge))
      return oauthError(reply, 'Invalid code_verifier', 'invalid_grant');
  }
  return reply.send(issue(deps, 'authorization_code', code.userId, true, grantedScopes(deps)));
}

/** The refresh grant, with rotation. */
function refreshGrant(deps: OAuthDeps, q: Params, reply: FastifyReply) {
  const st = deps.state();
  const old = st.file.refresh[q['refresh_token'] ?? ''];
  if (!old || old.expiresAt < nowMs(deps)) {
    deps.stats.rejectedRefreshTokens += 1;
    return oauthError(reply, 'Invalid Token!', 'invalid_grant');
  }
  // Rotation: the presented refresh token dies now; only the new one will work.
  delete st.file.refresh[old.token];
  return reply.send(issue(deps, 'refresh_token', old.userId, true, old.scopes));
}

function revoke(deps: OAuthDeps, req: FastifyRequest, reply: FastifyReply) {
  judge(deps, 'revoke', req);
  if (!clientOk(deps.options, req))
    return oauthError(reply, 'Invalid client_id or client_secret', 'invalid_client', 401);
  const token = params(req)['token'] ?? '';
  const st = deps.state();
  const access = st.file.access[token];
  if (access) {
    if (access.refreshToken) delete st.file.refresh[access.refreshToken];
    delete st.file.access[token];
  }
  const refresh = st.file.refresh[token];
  if (refresh) {
    delete st.file.refresh[token];
    for (const a of Object.values(st.file.access))
      if (a.refreshToken === token) delete st.file.access[a.token];
  }
  st.changed();
  return reply.send({ status: 'success' });
}
