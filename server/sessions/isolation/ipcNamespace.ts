import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/**
 * A tree's own System V IPC namespace, held open by the service from the moment its X server is
 * up until the tree is killed.
 *
 * Xvfb, x11vnc, Chromium and ffmpeg trade frames through MIT-SHM segments. In the host's
 * namespace, the segments of a process that is SIGKILLed stay behind for good; they piled up to
 * the host's limit of 4096 (shmmni) over a few test runs, and then every x11vnc failed at start
 * with "shmget: No space left on device". In a namespace of the tree's own, the kernel frees them
 * all once the tree's last process is gone, whatever killed it; and no session can use up, or
 * even see, another's or the host's segments.
 *
 * The tree's first process makes the namespace (`unshare --ipc`); the others join it through this
 * handle (`nsenter --ipc=<path>`), a file descriptor of the service's own, so a recycled pid can
 * never send them into another process's namespace.
 */
export class IpcNamespace {
  private constructor(private fd: number | null) {}

  /** The namespace `leader` runs in; null if it has exited meanwhile (its namespace may be gone). */
  static of(leader: ChildProcess): IpcNamespace | null {
    const fd = fs.openSync(`/proc/${leader.pid}/ns/ipc`, 'r');
    // Opened before the check: if the leader is still ours now, the handle is its namespace.
    if (leader.exitCode !== null || leader.signalCode !== null) {
      fs.closeSync(fd);
      return null;
    }
    return new IpcNamespace(fd);
  }

  /** What `nsenter --ipc=` opens to join (the service's own descriptor, seen through /proc). */
  get path(): string {
    if (this.fd === null) throw new Error('the IPC namespace handle is closed');
    return `/proc/${process.pid}/fd/${this.fd}`;
  }

  /** Let go: the namespace ends with the last process in it. Idempotent. */
  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}

/** Whether this process may make IPC namespaces (root with CAP_SYS_ADMIN: not in a default container). */
export function canMakeIpcNamespaces(): boolean {
  try {
    execFileSync('unshare', ['--ipc', 'true'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Without namespaces of their own, the next best thing: the host's segments of a session uid that
 * no process runs as any more (a freshly claimed one) are what its killed trees left; remove them.
 * /proc/sysvipc/shm lists one segment per line, its 2nd column the id and its 8th the owner's uid.
 */
export function removeSegmentsOf(uid: number): void {
  let text: string;
  try {
    text = fs.readFileSync('/proc/sysvipc/shm', 'utf8');
  } catch {
    return; // no System V IPC on this kernel
  }
  const ids = text
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length > 7 && Number(f[7]) === uid)
    .map((f) => f[1]!);
  if (!ids.length) return;
  try {
    execFileSync(
      'ipcrm',
      ids.flatMap((id) => ['-m', id]),
      { stdio: 'ignore', timeout: 10_000 },
    );
  } catch {
    // one was removed meanwhile: ipcrm still removed the others
  }
}
