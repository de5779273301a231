/**
 * What a forwarded request is sent to and with which headers. The address is only ever the owner's
 * base URL as ClusterRouting.ownerUrl returned it; the request adds nothing to it but its path.
 */

/** Marks a request one node passed on to another (its value: the sender's node id); never passed on again. */
export const FORWARDED_HEADER = 'x-browserdesk-forwarded';

/** Where a session's node listens, from its NODE_URL: http(s) only, no credentials, query or fragment. */
export interface OwnerTarget {
  tls: boolean;
  /** Host name or address as a socket takes it (an IPv6 address without its brackets). */
  hostname: string;
  port: number;
  /** `host[:port]` for the Host header. */
  host: string;
  /** The base URL's path without its trailing slash ('' for a node at the root). */
  basePath: string;
  /** For logs: scheme, host and port. */
  origin: string;
}

/** The owner's base URL as a target, or null when it is not one we would send to (a bug in membership, logged by the caller). */
export function targetOf(ownerUrl: string): OwnerTarget | null {
  let url: URL;
  try {
    url = new URL(ownerUrl);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash)
    return null;
  const tls = url.protocol === 'https:';
  return {
    tls,
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : tls ? 443 : 80,
    host: url.host,
    basePath: url.pathname.replace(/\/+$/, ''),
    origin: url.origin,
  };
}

/**
 * The request target to send on: the client's own `req.url`, byte for byte. Only a request in
 * absolute form (`GET http://name/path`) is cut to its path, exactly as the router cut it
 * (find-my-way's FULL_PATH_REGEXP), so the owner routes the same path we did and the name in it is
 * never used. Null when what is left is not a path (the router matched nothing forwardable then).
 */
export function pathToSend(target: OwnerTarget, rawUrl: string): string | null {
  const path = rawUrl.charCodeAt(0) === 47 ? rawUrl : rawUrl.replace(/^https?:\/\/.*?\//, '/');
  return path.charCodeAt(0) === 47 ? target.basePath + path : null;
}

/** Headers that describe one connection, never the message: not passed on (RFC 9110 section 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The header names a Connection header lists, which are hop-by-hop too. */
function listedIn(rawHeaders: string[]): Set<string> {
  const named = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'connection')
      for (const t of rawHeaders[i + 1]!.split(',')) named.add(t.trim().toLowerCase());
  }
  return named;
}

/**
 * The message's end-to-end headers in `rawHeaders` form (names as sent, repeats kept), without
 * hop-by-hop ones and without `drop`. With `keepUpgrade`, Connection and Upgrade stay: a WebSocket
 * handshake is passed on as it came.
 */
export function endToEnd(rawHeaders: string[], drop: readonly string[], keepUpgrade = false): string[] {
  const listed = keepUpgrade ? new Set<string>() : listedIn(rawHeaders);
  const out: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (drop.includes(name) || listed.has(name)) continue;
    if (HOP_BY_HOP.has(name) && !(keepUpgrade && (name === 'connection' || name === 'upgrade'))) continue;
    out.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return out;
}
