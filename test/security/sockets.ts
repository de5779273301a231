import fs from 'node:fs';

export interface Listener {
  pid: number;
  proto: 'tcp' | 'tcp6' | 'udp' | 'udp6';
  local: string;
}

/** Socket inodes in /proc/net/{tcp,tcp6,udp,udp6} that listen: TCP in LISTEN, UDP bound with no peer. */
function listeningInodes(): Map<string, { proto: Listener['proto']; local: string }> {
  const out = new Map<string, { proto: Listener['proto']; local: string }>();
  for (const proto of ['tcp', 'tcp6', 'udp', 'udp6'] as const) {
    let text: string;
    try {
      text = fs.readFileSync(`/proc/net/${proto}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      const [, local, remote, state] = f;
      const inode = f[9]!;
      const listens = proto.startsWith('tcp') ? state === '0A' : /^0+:0000$/.test(remote!);
      if (listens) out.set(inode, { proto, local: local! });
    }
  }
  return out;
}

/** Every listening TCP or UDP socket held by any of `pids`. */
export function listenersOf(pids: number[]): Listener[] {
  const inodes = listeningInodes();
  const found: Listener[] = [];
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      const hit = inode ? inodes.get(inode) : undefined;
      if (hit) found.push({ pid, ...hit });
    }
  }
  return found;
}

/** The effective uid a process runs as. */
export const uidOf = (pid: number) => fs.statSync(`/proc/${pid}`).uid;
