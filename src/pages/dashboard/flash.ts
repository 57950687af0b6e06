/**
 * One-shot notices across post/redirect/get: the POST handler leaves a signed notice in a
 * short-lived cookie and the next GET /dashboard shows and clears it. Kept in the cookie (not in
 * memory) so the GET may land on another instance; signed so nobody else can put words on the page.
 */
import { derivedKey, hmac, safeEqual } from '../../http/auth/session.js';

export const FLASH_COOKIE = 'fg_flash';
export const FLASH_PATH = '/dashboard';

export interface Notice {
  kind: 'ok' | 'error';
  text: string;
}

// Cookies top out near 4 KB; a gateway message is a sentence, its validation issues a few more.
const MAX_TEXT = 800;

export function sealNotice(apiKeyHash: Buffer, notice: Notice): string {
  const body = Buffer.from(
    JSON.stringify({ kind: notice.kind, text: notice.text.slice(0, MAX_TEXT) }),
    'utf8',
  ).toString('base64url');
  return `${body}.${hmac(derivedKey(apiKeyHash, 'flash'), body)}`;
}

export function openNotice(apiKeyHash: Buffer, value: string | undefined): Notice | undefined {
  const [body, sig, extra] = value?.split('.') ?? [];
  if (!body || !sig || extra !== undefined) return undefined;
  if (!safeEqual(sig, hmac(derivedKey(apiKeyHash, 'flash'), body))) return undefined;
  try {
    const v = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<Notice>;
    if ((v.kind === 'ok' || v.kind === 'error') && typeof v.text === 'string')
      return { kind: v.kind, text: v.text };
  } catch {
    // A signed value is always ours and parses; anything else is simply no notice.
  }
  return undefined;
}
