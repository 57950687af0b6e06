/**
 * Dashboard sessions: the signed cookie (session.ts) counts only while the store holds its
 * session. Signing in adds one, signing out deletes it, and every instance sharing the store
 * sees that at once. Sessions are tied to the API key twice: the cookie is signed with a key
 * derived from it, and the stored session names it (a MAC, not the key); an instance starting
 * with another key deletes the old key's sessions, so changing back does not revive them.
 *
 * A check is on every dashboard request and every cookie-authenticated API call, so it is
 * cheap: the signature and expiry first (a forged or stale cookie costs no query), then one
 * primary-key lookup, made once per request however many hooks ask.
 */
import { hash } from 'node:crypto';
import type { SessionStore } from '../../store/sessions.js';
import { derivedKey, hmac, issueSession, SESSION_COOKIE, verifySession, type Session } from './session.js';

/** What a check reads of a request: the cookies, and the raw request its answer is kept on. */
export interface SessionRequest {
  raw: object;
  cookies?: Record<string, string | undefined>;
}

export interface DashboardSessions {
  /** Signs in: a new session in the store, and the cookie value that stands for it. */
  open(): Promise<{ token: string; session: Session }>;
  /** The live session a request's cookie stands for, or undefined. */
  of(req: SessionRequest): Promise<Session | undefined>;
  /** Signs out: the session is gone for every instance. */
  end(session: Session): Promise<void>;
  /** Deletes every session another API key made (at start); how many went. */
  endOtherKeys(): Promise<number>;
}

const idOf = (session: Session) => hash('sha256', session.nonce, 'base64url');

export function dashboardSessions(
  store: { sessions: SessionStore },
  apiKeyHash: Buffer,
  now: () => number = Date.now,
): DashboardSessions {
  const keyId = hmac(derivedKey(apiKeyHash, 'session'), 'key-id');
  const checked = new WeakMap<object, Promise<Session | undefined>>();
  const check = async (token: string | undefined): Promise<Session | undefined> => {
    const t = now();
    const session = verifySession(apiKeyHash, token, t);
    if (!session) return undefined;
    return (await store.sessions.live(idOf(session), keyId, t)) ? session : undefined;
  };
  return {
    async open() {
      const t = now();
      const issued = issueSession(apiKeyHash, t);
      await store.sessions.add(
        {
          id: idOf(issued.session),
          keyId,
          expiresAt: issued.session.expiresAt,
          createdAt: new Date(t).toISOString(),
        },
        t,
      );
      return issued;
    },
    of(req) {
      let answer = checked.get(req.raw);
      if (!answer) {
        answer = check(req.cookies?.[SESSION_COOKIE]);
        checked.set(req.raw, answer);
      }
      return answer;
    },
    async end(session) {
      await store.sessions.end(idOf(session));
    },
    endOtherKeys: () => store.sessions.endAllBut(keyId, now()),
  };
}
