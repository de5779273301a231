import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { spawnDetached, type TreeEnv } from '../browser/processes.ts';

/** The virtual screen of every session; Chromium's window is sized to it. */
export const SCREEN = { width: 1280, height: 720, depth: 24 } as const;

export interface Display {
  process: ChildProcess;
  pid: number;
  /** ":N", for DISPLAY. */
  name: string;
}

/**
 * An Xauthority file holding one random MIT-MAGIC-COOKIE-1 for any display (FamilyWild, empty
 * address and number: the number is only known once Xvfb has picked it). Xvfb is started with
 * -auth on it and its clients get XAUTHORITY, so no other local user can open the display.
 */
export function writeXauthority(file: string, owner: { uid: number; gid: number } | null): void {
  const u16 = (n: number) => {
    const b = Buffer.alloc(2);
    b.writeUInt16BE(n);
    return b;
  };
  const field = (b: Buffer) => Buffer.concat([u16(b.length), b]);
  const FAMILY_WILD = 0xffff;
  const entry = Buffer.concat([
    u16(FAMILY_WILD),
    field(Buffer.alloc(0)),
    field(Buffer.alloc(0)),
    field(Buffer.from('MIT-MAGIC-COOKIE-1')),
    field(randomBytes(16)),
  ]);
  fs.writeFileSync(file, entry, { mode: 0o600 });
  if (owner) fs.chownSync(file, owner.uid, owner.gid);
}

/**
 * The display's lock and socket files in /tmp. Xvfb removes them on a clean exit; after SIGKILL
 * they stay, owned by the session's user, and a later Xvfb of another user could not remove them.
 */
export function removeDisplayFiles(display: string): void {
  const n = display.replace(/^:/, '');
  if (!/^\d+$/.test(n)) return;
  for (const f of [`/tmp/.X${n}-lock`, `/tmp/.X11-unix/X${n}`]) fs.rmSync(f, { force: true });
}

/** Xvfb as a session's user needs the shared socket folder to exist, as X itself makes it: root's, 1777. */
export function ensureX11SocketDir(): void {
  try {
    fs.mkdirSync('/tmp/.X11-unix', { mode: 0o1777 });
    fs.chmodSync('/tmp/.X11-unix', 0o1777);
  } catch {
    // exists already
  }
}

/** Longest Xvfb may take to accept connections: a hang guard (BrowserTree's starts are timed against a loaded host there). */
const START_TIMEOUT_MS = 30_000;

/**
 * Start Xvfb on a display number it picks itself (-displayfd): the X server takes the first free
 * lock file, so parallel sessions, servers and test files never collide. Resolves once the server
 * accepts connections (it writes the number only then).
 */
export function startXvfb(tree: TreeEnv & { xauthority: string }, timeoutMs = START_TIMEOUT_MS): Promise<Display> {
  const child = spawnDetached(
    'Xvfb',
    [
      '-displayfd',
      '3',
      '-auth',
      tree.xauthority,
      '-screen',
      '0',
      `${SCREEN.width}x${SCREEN.height}x${SCREEN.depth}`,
      '-nolisten',
      'tcp',
      '-noreset',
      '-dpi',
      '96',
    ],
    tree,
    ['ignore', 'ignore', 'ignore', 'pipe'],
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb did not start: ${why}`));
    };
    const timer = setTimeout(() => fail('timed out'), timeoutMs);
    child.once('error', (e) => fail(e.message));
    child.once('exit', (code, sig) => fail(`exited (${code ?? sig})`));
    const fd3 = child.stdio[3] as NodeJS.ReadableStream | null;
    fd3?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\n/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ process: child, pid: child.pid!, name: `:${m[1]}` });
    });
  });
}

/** After a crash: display files whose server is gone and whose owner is a session uid of ours. */
export function removeStaleDisplayFiles(uids: { first: number; last: number }): void {
  let names: string[];
  try {
    names = fs.readdirSync('/tmp').filter((f) => /^\.X\d+-lock$/.test(f));
  } catch {
    return;
  }
  for (const name of names) {
    try {
      const st = fs.statSync(`/tmp/${name}`);
      if (st.uid < uids.first || st.uid > uids.last) continue;
      const pid = Number(fs.readFileSync(`/tmp/${name}`, 'utf8').trim());
      if (pid && fs.existsSync(`/proc/${pid}`)) continue;
      removeDisplayFiles(`:${/\d+/.exec(name)![0]}`);
    } catch {
      // gone meanwhile
    }
  }
}
