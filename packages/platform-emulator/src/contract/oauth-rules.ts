/**
 * The OAuth endpoints' request rules. No published document describes them (the OpenAPI
 * documents name OAuth only as a security scheme), so these come from the platform's OAuth
 * reference (platform-api.md §1): what a well-formed authorize, token or revoke request
 * carries. Only the form is judged here; a wrong secret, a used code or a rotated refresh token
 * is the caller's state, answered by the OAuth server as the platform answers it.
 */
import { describeRequest, type ContractViolation, type PlatformRequest } from './check.js';

export type OAuthEndpoint = 'authorize' | 'token' | 'revoke';

/** The parameters each grant needs besides grant_type. */
const GRANT_PARAMS: Record<string, string[]> = {
  authorization_code: ['code', 'redirect_uri'],
  refresh_token: ['refresh_token'],
  account_credentials: ['account_id'],
  client_credentials: [],
};

const FORM = 'application/x-www-form-urlencoded';

export function oauthViolations(
  endpoint: OAuthEndpoint,
  req: PlatformRequest & { authorization: string | undefined },
  params: Record<string, string>,
): ContractViolation[] {
  const out: ContractViolation[] = [];
  const add = (name: string, rule: string, message: string) =>
    out.push({
      request: describeRequest(req),
      document: 'none',
      operation: `${req.method} /oauth/${endpoint} (OAuth reference)`,
      where: name === 'Authorization' || name === 'Content-Type' ? 'operation' : 'query',
      name,
      rule,
      message,
      refuse: true,
    });
  if (endpoint === 'authorize') {
    if (params['response_type'] !== 'code')
      add('response_type', 'enum ["code"]', 'response_type must be code');
    for (const p of ['client_id', 'redirect_uri']) if (!params[p]) add(p, 'required', `${p} is required`);
    const method = params['code_challenge_method'];
    if (method !== undefined && method !== 'S256' && method !== 'plain')
      add('code_challenge_method', 'enum ["S256","plain"]', 'code_challenge_method must be S256 or plain');
    return out;
  }
  if (!req.authorization?.startsWith('Basic '))
    add(
      'Authorization',
      'Basic client credentials',
      'the client authenticates with HTTP Basic (client_id:client_secret)',
    );
  const media = (req.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (req.hasBody && media !== FORM)
    add('Content-Type', `media ${FORM}`, `the parameters go in a ${FORM} body (or the query)`);
  if (endpoint === 'revoke') {
    if (!params['token']) add('token', 'required', 'token is required');
    return out;
  }
  const grant = params['grant_type'];
  const needs = grant === undefined ? undefined : GRANT_PARAMS[grant];
  if (!needs) {
    add(
      'grant_type',
      `enum ${JSON.stringify(Object.keys(GRANT_PARAMS))}`,
      `grant_type ${grant ?? '(none)'} is not one the platform issues`,
    );
    return out;
  }
  for (const p of needs) if (!params[p]) add(p, 'required', `${p} is required for grant_type ${grant}`);
  return out;
}
