/**
 * A viewer URL in either form the service hands out or accepts: ws(s)://… as is, or http(s)://…
 * whose path also upgrades to a WebSocket, turned into ws(s)://. Relative URLs resolve against the
 * page, so an embed page can pass its own location.
 */
export function toWebSocketUrl(url: string, base: string = globalThis.location?.href ?? 'http://localhost/'): string {
  const u = new URL(url, base);
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  else if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw new Error(`Not a viewer URL: ${u.protocol}`);
  u.hash = '';
  return u.toString();
}

/** The page form of a viewer URL, for the iframe fallback. */
export function toPageUrl(url: string, base: string = globalThis.location?.href ?? 'http://localhost/'): string {
  const u = new URL(url, base);
  if (u.protocol === 'ws:') u.protocol = 'http:';
  else if (u.protocol === 'wss:') u.protocol = 'https:';
  return u.toString();
}
