import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sessionRootOf, sessionsRootOf } from '../isolation/sessionDirs.ts';
import type { SessionUser } from '../isolation/sessionUsers.ts';

/**
 * Every process the session manager starts carries this variable, holding DATA_DIR (its children
 * inherit it; see startedBy() for Chromium's). It is how a restarted server, and the tests,
 * recognise what a given data folder started, without trusting a pid that may have been recycled.
 */
export const DATA_DIR_MARKER = 'BROWSERDESK_DATA_DIR';
/** Names the tree (session) a process belongs to, for the same reason. */
export const TREE_MARKER = 'BROWSERDESK_TREE';

export interface TreeEnv {
  dataDir: string;
  treeId: string;
  display?: string;
  /** The display's cookie file (XAUTHORITY). */
  xauthority?: string;
  /** Warm-pool trees start at a lower priority, so refilling never slows the sessions in use. */
  niceness?: number;
  /** The session's own home and temp folders (Chromium writes into both). */
  home: string;
  tmp: string;
  /** The user the tree runs as; null: the service's own. */
  user: SessionUser | null;
  /**
   * The tree's own System V IPC namespace (root only, see IpcNamespace): 'new' makes it (the
   * tree's first process), a path joins it.
   */
  ipc?: 'new' | string;
}

/**
 * A small, explicit environment: the server's secrets (model keys, API key) never reach a browser
 * the customer drives.
 */
export function treeEnv({ dataDir, treeId, display, xauthority, home, tmp }: TreeEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    TMPDIR: tmp,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    LANG: process.env.LANG ?? 'C.UTF-8',
    [DATA_DIR_MARKER]: dataDir,
    [TREE_MARKER]: treeId,
  };
  if (process.env.TZ) env.TZ = process.env.TZ;
  if (display) env.DISPLAY = display;
  if (xauthority) env.XAUTHORITY = xauthority;
  return env;
}

/**
 * Spawn in a process group of its own (detached), so the whole group can be signalled at once,
 * and so a crash of the server does not take the signal for us: the restart reaps instead.
 */
export function spawnDetached(command: string, args: string[], tree: TreeEnv, stdio: StdioOptions): ChildProcess {
  const env = treeEnv(tree);
  const [file, argv, as] = asTreeUser(command, args, tree);
  const options = { env, stdio, detached: true, cwd: tree.home, ...as };
  // `nice`, `unshare` and `nsenter` exec the command, so the pid and the inherited fds are the
  // command's own; its name and cmdline only once they have run (at the lower priority: on a loaded
  // host, a while after spawn).
  const niceness = tree.niceness ?? 0;
  const child = niceness ? spawn('nice', ['-n', String(niceness), file, ...argv], options) : spawn(file, argv, options);
  // Detached children must not keep the server's event loop alive, nor be waited for on exit.
  child.unref();
  return child;
}

/**
 * As the session's user (the kernel then keeps it from the service's files and other sessions);
 * the user's home is the session's own, and nothing of the service's environment is passed on.
 * With an IPC namespace to make or join, `unshare`/`nsenter` start as root, do that, then drop
 * every group and take the user's uid and gid before the command runs.
 */
function asTreeUser(
  command: string,
  args: string[],
  tree: TreeEnv,
): [string, string[], { uid?: number; gid?: number }] {
  const { user, ipc } = tree;
  if (!user) return [command, args, {}];
  if (!ipc) return [command, args, { uid: user.uid, gid: user.gid }];
  const enter = ipc === 'new' ? ['unshare', '--ipc'] : ['nsenter', `--ipc=${ipc}`];
  return [
    enter[0]!,
    [...enter.slice(1), '--setgid', String(user.gid), '--setuid', String(user.uid), '--', command, ...args],
    {},
  ];
}

function readNulList(file: string): string[] | null {
  try {
    return fs.readFileSync(file, 'utf8').split('\0').filter(Boolean);
  } catch {
    return null;
  }
}

/** The NUL-separated environment of a live process, or null when it is gone or unreadable. */
export function environOf(pid: number): string[] | null {
  return readNulList(`/proc/${pid}/environ`);
}

export function cmdlineOf(pid: number): string[] | null {
  return readNulList(`/proc/${pid}/cmdline`);
}

/**
 * True when `pid` is still a process this data folder started (pids are recycled). The markers in
 * its environment say so; Chromium's zygote and renderers overwrite their environment block with
 * their process title, so for them the session folder on their command line says so instead.
 */
export function startedBy(pid: number, dataDir: string, treeId?: string): boolean {
  const env = environOf(pid);
  if (
    env?.includes(`${DATA_DIR_MARKER}=${dataDir}`) &&
    (treeId === undefined || env.includes(`${TREE_MARKER}=${treeId}`))
  )
    return true;
  const folder = treeId === undefined ? sessionsRootOf(dataDir) : sessionRootOf(dataDir, treeId);
  return cmdlineOf(pid)?.some((arg) => arg.includes(folder)) ?? false;
}

/**
 * The data folder of the server that started `pid` as part of tree `treeId`, read off its
 * environment markers; null when `pid` is not that tree's (gone, recycled, or on another host).
 * How a node finds, on its own host, the trees of another node that died.
 */
export function dataDirOfTree(pid: number, treeId: string): string | null {
  const env = environOf(pid);
  if (!env?.includes(`${TREE_MARKER}=${treeId}`)) return null;
  const marker = env.find((e) => e.startsWith(`${DATA_DIR_MARKER}=`));
  return marker ? marker.slice(DATA_DIR_MARKER.length + 1) : null;
}

/** Every live pid startedBy() the data folder (and tree): the whole tree, whatever its groups. */
export function pidsStartedBy(dataDir: string, treeId?: string): number[] {
  const out: number[] = [];
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    if (startedBy(pid, dataDir, treeId)) out.push(pid);
  }
  return out;
}

function signal(pid: number, sig: NodeJS.Signals, group: boolean): void {
  try {
    process.kill(group ? -pid : pid, sig);
  } catch {
    // Already gone (ESRCH): nothing to do.
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * End a tree: SIGKILL to each group leader's group (Xvfb, Chromium, x11vnc: what they hold is thrown
 * away, so Chromium's orderly shutdown would only flush a profile nobody reads, at the cost of CPU
 * and of the caller's wait), SIGTERM to every other process carrying the tree's marker (ffmpeg
 * finishing its recording; Chromium's crash handler, which daemonizes into a group of its own),
 * then SIGKILL to whatever is left after `graceMs`. Group leaders are checked against the marker
 * first, so a recycled pid is never signalled. Resolves when nothing of the tree is left.
 */
export async function killTree(dataDir: string, treeId: string, groupLeaders: number[], graceMs = 500): Promise<void> {
  for (const pid of groupLeaders) if (startedBy(pid, dataDir, treeId)) signal(pid, 'SIGKILL', true);
  let left = pidsStartedBy(dataDir, treeId);
  for (const pid of left) signal(pid, 'SIGTERM', false);
  const deadline = Date.now() + graceMs;
  while (left.length && Date.now() < deadline) {
    await sleep(10);
    left = pidsStartedBy(dataDir, treeId);
  }
  if (left.length) await killStartedBy(dataDir, treeId);
}

/**
 * SIGKILL every process startedBy() the data folder (and tree) until none is left. SIGKILL cannot
 * be ignored, but a process busy in the kernel (disk I/O on a loaded machine) dies only when that
 * returns: keep at it, for up to 30 s.
 */
export async function killStartedBy(dataDir: string, treeId?: string): Promise<void> {
  const giveUp = Date.now() + 30_000;
  for (
    let left = pidsStartedBy(dataDir, treeId);
    left.length && Date.now() < giveUp;
    left = pidsStartedBy(dataDir, treeId)
  ) {
    for (const pid of left) signal(pid, 'SIGKILL', false);
    await sleep(20);
  }
}

/** The thread ids of `pid`; none when it is gone. */
function threadsOf(pid: number): string[] {
  try {
    return fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

/** `pid` and its descendants, through /proc/PID/task/TID/children (no full /proc scan). */
export function descendantsOf(pids: number[]): number[] {
  const seen = new Set<number>();
  const todo = [...pids];
  while (todo.length) {
    const pid = todo.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    for (const tid of threadsOf(pid)) {
      try {
        for (const c of fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' '))
          if (c.trim()) todo.push(Number(c));
      } catch {
        // thread or process gone
      }
    }
  }
  return [...seen];
}

/**
 * Take back `by` niceness from the processes under `leaders` (a pooled tree handed out to a
 * session). Niceness is per thread on Linux, so every thread is adjusted; threads Chromium itself
 * raised (its UI threads run at a negative nice as root) are left as they are.
 */
export function renice(leaders: number[], by: number): void {
  for (const pid of descendantsOf(leaders)) {
    for (const tid of threadsOf(pid)) {
      try {
        const nice = os.getPriority(Number(tid));
        if (nice >= by) os.setPriority(Number(tid), nice - by);
      } catch {
        // gone, or not allowed (not root): it keeps running, just at the lower priority
      }
    }
  }
}
