import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { isAlive } from './sessionUsers.ts';

/** Destinations a session's browser may not reach by default: loopback, link-local (cloud metadata), private. */
const BLOCKED_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4',
];
const BLOCKED_V6 = ['::/127', '::ffff:0:0/96', '64:ff9b::/96', 'fc00::/7', 'fe80::/10', 'ff00::/8'];

/** The resolvers of /etc/resolv.conf: often on a private address, and the browser still needs DNS. */
function nameservers(): { v4: string[]; v6: string[] } {
  let text: string;
  try {
    text = fs.readFileSync('/etc/resolv.conf', 'utf8');
  } catch {
    return { v4: [], v6: [] }; // no resolver configured
  }
  const all = [...text.matchAll(/^\s*nameserver\s+(\S+)/gm)].map((m) => m[1]!.replace(/%.*$/, ''));
  return { v4: all.filter((a) => net.isIPv4(a)), v6: all.filter((a) => net.isIPv6(a)) };
}

/**
 * Tables of servers that died without removing theirs: they would still filter uids that are
 * now handed to other servers' sessions.
 */
export async function removeStaleTables(): Promise<void> {
  const listed = await nftOut(['list', 'tables']).catch(() => '');
  for (const m of listed.matchAll(/^table inet (browserdesk_([0-9a-z]+)\w*)$/gm)) {
    const pid = Number(m[2]);
    if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid))
      await nft(['delete', 'table', 'inet', m[1]!]).catch(() => undefined);
  }
}

/**
 * Packet filter rules on the session uids (nftables, one table per server process, named by its
 * pid): a socket of a session's user is refused towards BLOCKED ranges and towards any address
 * local to the host whatever its range (`fib daddr type local`: a public address on eth0 reaches
 * what listens on 0.0.0.0, this service or a local database), except DNS to the host's resolvers.
 * The set of uids is kept in step with the server's live trees, so servers sharing a host never
 * filter each other's sessions.
 */
export class EgressFilter {
  private static made = 0;
  /** Named by the server's pid (and a count, for several servers in one process, as in tests). */
  readonly table = `browserdesk_${process.pid}_${++EgressFilter.made}`;

  /** Install the table; null (with the reason) when this host cannot filter. */
  static async install(): Promise<{ filter: EgressFilter | null; problem?: string }> {
    const filter = new EgressFilter();
    await removeStaleTables();
    const dns = nameservers();
    const dnsV4 = dns.v4.length
      ? `meta skuid @uids ip daddr { ${dns.v4.join(', ')} } meta l4proto { tcp, udp } th dport 53 accept`
      : '';
    const dnsV6 = dns.v6.length
      ? `meta skuid @uids ip6 daddr { ${dns.v6.join(', ')} } meta l4proto { tcp, udp } th dport 53 accept`
      : '';
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
    meta skuid @uids fib daddr type local reject
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

function nftOut(args: string[], stdin?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('nft', args, { timeout: 10_000 }, (err, out, stderr) =>
      err ? reject(new Error(`nft: ${stderr.trim() || err.message}`)) : resolve(out),
    );
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

const nft = (args: string[], stdin?: string) => nftOut(args, stdin).then(() => undefined);
