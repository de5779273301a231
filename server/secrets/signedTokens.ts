import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Capability tokens that need no storage: `<payload>.<mac>`, base64url, where the payload names
 * what the token opens (a scope such as `events`, and one session) and when it stops working, and
 * the mac is HMAC-SHA256 under a key derived from the server's secret key. They survive a restart
 * and the end of the session, which the events of a finished run need (logs_url is read after the
 * run), and a token for one scope or session opens nothing else.
 */
export type TokenScope = 'events' | 'screenshot' | 'recording' | 'files' | 'message';

interface Payload {
  /** scope */
  c: TokenScope;
  /** session id */
  s: string;
  /** expiry, unix seconds */
  e: number;
}

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

export function signToken(
  key: Buffer,
  scope: TokenScope,
  sessionId: string,
  ttlSeconds: number,
  now = Date.now(),
): string {
  const payload = Buffer.from(
    JSON.stringify({ c: scope, s: sessionId, e: Math.floor(now / 1000) + ttlSeconds } satisfies Payload),
  ).toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/** True when `token` was signed with `key` for this scope and session and has not expired. Constant-time in the mac. */
export function verifyToken(
  key: Buffer,
  token: string | undefined,
  scope: TokenScope,
  sessionId: string,
  now = Date.now(),
): boolean {
  if (typeof token !== 'string' || token.length > 1000) return false;
  const [payload, given, extra] = token.split('.');
  if (!payload || !given || extra !== undefined) return false;
  const expected = mac(key, payload);
  const presented = Buffer.from(given, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return false;
  try {
    const p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<Payload>;
    return p.c === scope && p.s === sessionId && typeof p.e === 'number' && p.e * 1000 > now;
  } catch {
    return false;
  }
}
