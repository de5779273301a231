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
        if (!this.takeOver(dir, owner)) continue;
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

  /**
   * A dead server's claim is taken over under a host-wide lock, re-read under it: without one, a
   * server that had read the dead pid could move aside the claim another server had just taken
   * over, take the uid too and kill that server's new session as a dead server's leftover (CI:
   * x11vnc and Chromium dying at start after a crash test's server had left claims). The lock is
   * only ever tried, never waited for (claim() is synchronous): a busy lock skips the uid.
   */
  private takeOver(dir: string, deadOwner: number): boolean {
    const lock = path.join(this.claims, 'takeover.lock');
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
    } catch {
      // Held; or left by a server that died holding it (a moment's window): clear that for the next claim.
      try {
        if (!isAlive(Number(fs.readFileSync(lock, 'utf8')))) fs.rmSync(lock, { force: true });
      } catch {
        // released meanwhile
      }
      return false;
    }
    try {
      let owner: number;
      try {
        owner = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
      } catch {
        return false; // taken over, or released, before we held the lock
      }
      if (owner !== deadOwner || isAlive(owner)) return false;
      const aside = `${dir}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
      fs.renameSync(dir, aside);
      fs.rmSync(aside, { recursive: true, force: true });
      try {
        fs.mkdirSync(dir, { mode: 0o700 });
      } catch {
        return false; // claimed fresh by another server meanwhile: its to use
      }
      return true;
    } finally {
      fs.rmSync(lock, { force: true });
    }
  }

  release(user: SessionUser): void {
    fs.rmSync(path.join(this.claims, String(user.uid)), { recursive: true, force: true });
  }
}
