import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The uid and gid a session's processes run as; null when the service cannot switch users. */
export interface SessionUser {
  uid: number;
  gid: number;
  /** Taken over from a server that died: its filter rules may still name this uid. */
  tookOver?: boolean;
}

function signalKill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone
  }
}

/** True while `pid` exists (EPERM: it exists, as another user's). */
export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Live processes running as `uid` (the owner of /proc/PID is the process's effective uid). */
export function processesOf(uid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.statSync(`/proc/${name}`).uid === uid) out.push(Number(name));
    } catch {
      // gone
    }
  }
  return out;
}

/**
 * Hands out session uids from a range, host-wide: a claim is a folder named by the uid in a
 * root-only folder (mkdir is atomic), holding the claiming server's pid. Several servers on one
 * host (or test files in parallel) never share a uid; a claim whose server died is taken over,
 * and whatever still runs as that uid is killed first, so a new session starts with a user no
 * live process has. A uid some other program runs as (no claim of ours) is skipped.
 */
export class SessionUsers {
  private readonly claims: string;

  constructor(
    private readonly first: number,
    private readonly last: number,
  ) {
    this.claims = path.join(os.tmpdir(), 'browserdesk-uids');
    fs.mkdirSync(this.claims, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(this.claims);
    if (!st.isDirectory() || st.uid !== process.getuid!() || (st.mode & 0o077) !== 0) {
      throw new Error(`${this.claims} must be a folder owned by this user with mode 0700`);
    }
  }

  claim(): SessionUser {
    for (let uid = this.first; uid <= this.last; uid++) {
      const dir = path.join(this.claims, String(uid));
      let fresh = true;
      try {
        fs.mkdirSync(dir, { mode: 0o700 });
      } catch {
        fresh = false;
        let owner: number;
        try {
          owner = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
        } catch {
          continue; // another server is claiming it right now
        }
        if (isAlive(owner)) continue;
        // A dead server's claim: taken over by whoever moves it aside first (rename is atomic), so
        // two servers that both saw it dead never both take the uid. The second one would kill
        // the first one's new session as "left by a server that died" (CI: x11vnc and Chromium
        // dying at start when a crash test's server had left claims).
        const aside = `${dir}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
        try {
          fs.renameSync(dir, aside);
        } catch {
          continue; // another server moved it first
        }
        fs.rmSync(aside, { recursive: true, force: true });
        try {
          fs.mkdirSync(dir, { mode: 0o700 });
        } catch {
          continue; // claimed fresh by another server meanwhile: its to use
        }
      }
      const running = processesOf(uid);
      if (running.length && fresh) {
        fs.rmSync(dir, { recursive: true, force: true }); // not ours: some other program's user
        continue;
      }
      for (const pid of running) signalKill(pid); // left by a server that died
      fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
      return { uid, gid: uid, ...(fresh ? {} : { tookOver: true }) };
    }
    throw new Error(`Every session uid in ${this.first}-${this.last} is in use: widen SESSION_UIDS`);
  }

  release(user: SessionUser): void {
    fs.rmSync(path.join(this.claims, String(user.uid)), { recursive: true, force: true });
  }
}
