import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';


/** Destinations a session's browser may not reach by default: loopback, link-local (cloud metadata), private. */
const BLOCKED_V4 = ['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24', '192.168.0.0/16', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4'];
const BLOCKED_V6 = ['::/127', '::ffff:0:0/96', '64:ff9b::/96', 'fc00::/7', 'fe80::/10', 'ff00::/8'];

/** The resolvers of /etc/resolv.conf: often on a private address, and the browser still needs DNS. */
function nameservers(): { v4: string[]; v6: string[] } {
  let text = '';
  try {
    text = fs.readFileSync('/etc/resolv.conf', 'utf8');
  } catch {
    // no resolver configured
  }
  const all = [...text.matchAll(/^\s*nameserver\s+(\S+)/gm)].map((m) => m[1]!.replace(/%.*$/, ''));
  return { v4: all.filter((a) => net.isIPv4(a)), v6: all.filter((a) => net.isIPv6(a)) };
}

/**
 * Packet filter rules on the session uids (nftables, one table per data folder): a socket of a
 * session's user is refused towards BLOCKED ranges, except DNS to the host's resolvers. The set of
 * uids is kept in step with the live sessions, so servers sharing a host never filter each other.
 */
export class EgressFilter {
  readonly table: string;

  private constructor(dataDir: string) {
    this.table = `browserdesk_${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
  }

  /** Install the table; null (with the reason) when this host cannot filter. */
  static async install(dataDir: string): Promise<{ filter: EgressFilter | null; problem?: string }> {
    const filter = new EgressFilter(dataDir);
    const dns = nameservers();
    const dnsV4 = dns.v4.length ? `meta skuid @uids ip daddr { ${dns.v4.join(', ')} } meta l4proto { tcp, udp } th dport 53 accept` : '';
    const dnsV6 = dns.v6.length ? `meta skuid @uids ip6 daddr { ${dns.v6.join(', ')} } meta l4proto { tcp, udp } th dport 53 accept` : '';
    const rules = `table inet ${filter.table}
delete table inet ${filter.table}
table inet ${filter.table} {
  set uids { type uid; }
  chain out {
    type filter hook output priority 0; policy accept;
    ${dnsV4}
    ${dnsV6}
    meta skuid @uids ip daddr { ${BLOCKED_V4.join(', ')} } reject
    meta skuid @uids ip6 daddr { ${BLOCKED_V6.join(', ')} } reject
  }
}
`;
    try {
      await nft(['-f', '-'], rules);
      return { filter };
    } catch (e) {
      return { filter: null, problem: (e as Error).message.split('\n')[0] };
    }
  }

  add(uid: number): Promise<void> {
    return nft(['add', 'element', 'inet', this.table, 'uids', `{ ${uid} }`]);
  }

  remove(uid: number): Promise<void> {
    return nft(['delete', 'element', 'inet', this.table, 'uids', `{ ${uid} }`]).catch(() => undefined);
  }

  async uninstall(): Promise<void> {
    await nft(['delete', 'table', 'inet', this.table]).catch(() => undefined);
  }
}

function nft(args: string[], stdin?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile('nft', args, { timeout: 10_000 }, (err, _out, stderr) => (err ? reject(new Error(`nft: ${stderr.trim() || err.message}`)) : resolve()));
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}
