/**
 * The dashboard's sessions as the store keeps them (the SessionStore port; SQL in
 * sessions-sql.ts). A signed-in cookie counts only while its session is here, so signing out
 * ends it on every instance sharing the store. Rows hold no secret: the id is a hash of the
 * cookie's nonce, the key id a MAC that names the API key without revealing it.
 */

export interface DashboardSessionRecord {
  /** SHA-256 of the cookie's nonce (base64url). */
  id: string;
  /** Which API key made it (auth/sessions.ts). */
  keyId: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  createdAt: string;
}

export interface SessionStore {
  /** Adds a session, deleting on the way every expired one and every one made with another key. */
  add(s: DashboardSessionRecord, now: number): Promise<void>;
  /** Whether the session is here, made with this key and not expired (one primary-key lookup). */
  live(id: string, keyId: string, now: number): Promise<boolean>;
  /** Deletes one session; false when it was not there. */
  end(id: string): Promise<boolean>;
  /** Deletes every session made with another key, and expired ones; how many went. */
  endAllBut(keyId: string, now: number): Promise<number>;
}
