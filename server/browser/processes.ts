import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/**
 * Every process the session manager starts carries this variable (inherited by Chromium's zygote and
 * renderers), holding DATA_DIR. It is how a restarted server, and the tests, recognise what a given
 * data folder started, without trusting a pid that may have been recycled.
 */
export const DATA_DIR_MARKER = 'BROWSERDESK_DATA_DIR';
/** Names the tree (session) a process belongs to, for the same reason. */
export const TREE_MARKER = 'BROWSERDESK_TREE';

export interface TreeEnv {
  dataDir: string;
  treeId: string;
  display?: string;
  /** Warm-pool trees start at a lower priority, so refilling never slows the sessions in use. */
  niceness?: number;
}

/**
 * A small, explicit environment: the server's secrets (model keys, API key) never reach a browser
 * the customer drives.
 */
export function treeEnv({ dataDir, treeId, display }: TreeEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    LANG: process.env.LANG ?? 'C.UTF-8',
    [DATA_DIR_MARKER]: dataDir,
    [TREE_MARKER]: treeId,
  };
  if (process.env.TZ) env.TZ = process.env.TZ;
  if (display) env.DISPLAY = display;
  return env;
}

/**
 * Spawn in a process group of its own (detached), so the whole group can be signalled at once,
 * and so a crash of the server does not take the signal for us: the restart reaps instead.
 */
export function spawnDetached(command: string, args: string[], env: NodeJS.ProcessEnv, stdio: StdioOptions, niceness = 0): ChildProcess {
  // `nice` execs the command, so the pid, the cmdline and the inherited fds are the command's own.
  const child = niceness ? spawn('nice', ['-n', String(niceness), command, ...args], { env, stdio, detached: true }) : spawn(command, args, { env, stdio, detached: true });
  // Detached children must not keep the server's event loop alive, nor be waited for on exit.
  child.unref();
  return child;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
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

/** True when `pid` is still a process this data folder started (pids are recycled). */
export function startedBy(pid: number, dataDir: string, treeId?: string): boolean {
  const env = environOf(pid);
  if (!env?.includes(`${DATA_DIR_MARKER}=${dataDir}`)) return false;
  return treeId === undefined || env.includes(`${TREE_MARKER}=${treeId}`);
}

/** Every live pid whose environment carries the markers (the whole tree, whatever its groups). */
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
 * End a tree: SIGTERM to each group leader's group and to every process carrying the tree's marker
 * (Chromium's crash handler daemonizes into a group of its own), then SIGKILL to whatever is left
 * after `graceMs`. Group leaders are checked against the marker first, so a recycled pid is never
 * signalled. Resolves when nothing of the tree is left.
 */
export async function killTree(dataDir: string, treeId: string, groupLeaders: number[], graceMs = 500): Promise<void> {
  for (const pid of groupLeaders) if (startedBy(pid, dataDir, treeId)) signal(pid, 'SIGTERM', true);
  let left = pidsStartedBy(dataDir, treeId);
  for (const pid of left) signal(pid, 'SIGTERM', false);
  const deadline = Date.now() + graceMs;
  while (left.length && Date.now() < deadline) {
    await sleep(10);
    left = pidsStartedBy(dataDir, treeId);
  }
  for (let round = 0; left.length && round < 50; round++) {
    for (const pid of left) signal(pid, 'SIGKILL', false);
    await sleep(20);
    left = pidsStartedBy(dataDir, treeId);
  }
}

/**
 * Take back a tree's niceness (a pooled tree handed out to a session). Niceness is per thread on
 * Linux, so every thread is adjusted; threads Chromium itself raised (its UI threads run at a
 * negative nice as root) are left as they are.
 */
export function renice(dataDir: string, treeId: string, by: number): void {
  for (const pid of pidsStartedBy(dataDir, treeId)) {
    let tids: string[];
    try {
      tids = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const nice = os.getPriority(Number(tid));
        if (nice >= by) os.setPriority(Number(tid), nice - by);
      } catch {
        // gone, or not allowed (not root): it keeps running, just at the lower priority
      }
    }
  }
}
