import dns from 'node:dns/promises';
import net from 'node:net';

/** A webhook destination we refuse to call: the reason is safe to show to the caller. */
export class DestinationRefused extends Error {}

export interface CheckedDestination {
  url: URL;
  /** The address the check approved; the request connects to exactly this (no second DNS answer). */
  address: string;
  family: 4 | 6;
}

/** Private, loopback, link-local and other non-public ranges (RFC 6890 and friends). */
const blocked = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net4, bits, 'ipv4');
for (const [net6, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  blocked.addSubnet(net6, bits, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = net.isIPv6(address) ? 'ipv6' : 'ipv4';
  if (family === 'ipv6') {
    // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible forms reach IPv4 hosts: judge the IPv4 part.
    const mapped = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1]!, 'ipv4');
    const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
    if (hexMapped) {
      const hi = parseInt(hexMapped[1]!, 16);
      const lo = parseInt(hexMapped[2]!, 16);
      return blocked.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
    }
  }
  return blocked.check(address, family);
}

/**
 * Resolve a webhook URL and approve one address to connect to. Every address the name resolves to
 * must be public (unless allowPrivate), so a name with one public and one private answer is refused.
 * Called when the event is queued and again before every attempt (DNS may change in between).
 */
export async function checkDestination(raw: string, allowPrivate: boolean): Promise<CheckedDestination> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DestinationRefused('webhook_url is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new DestinationRefused('webhook_url must be http or https');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let answers: { address: string; family: number }[];
  try {
    answers = net.isIP(host)
      ? [{ address: host, family: net.isIP(host) }]
      : await dns.lookup(host, { all: true, verbatim: true });
  } catch {
    throw new DestinationRefused(`webhook_url host ${host} does not resolve`);
  }
  if (answers.length === 0) throw new DestinationRefused(`webhook_url host ${host} does not resolve`);
  if (!allowPrivate && answers.some((a) => isPrivateAddress(a.address))) {
    throw new DestinationRefused(`webhook_url host ${host} resolves to a private, loopback or link-local address`);
  }
  const first = answers[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * The check a request's webhook_url gets before anything is created (create_workflow_session,
 * run_workflow): the issue to answer 422 with, or null when the destination may be called.
 */
export async function webhookUrlIssue(
  url: string,
  allowPrivate: boolean,
): Promise<{ path: 'webhook_url'; message: string } | null> {
  try {
    await checkDestination(url, allowPrivate);
    return null;
  } catch (err) {
    if (err instanceof DestinationRefused) return { path: 'webhook_url', message: err.message };
    throw err;
  }
}
