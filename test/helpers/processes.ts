import fs from 'node:fs';
import { DATA_DIR_MARKER, TREE_MARKER } from '../../server/sessions/browser/processes.ts';
import { sessionRootOf, sessionsRootOf } from '../../server/sessions/isolation/sessionDirs.ts';

export interface ServiceProcess {
  pid: number;
  /** The kernel's name for it (/proc/PID/comm): Xvfb, chromium, x11vnc, chrome_crashpad, … */
  name: string;
  cmdline: string;
  /** The browser tree (session or warm-pool id) it belongs to, when it carries the marker. */
  tree?: string;
}

function read(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Live processes the service started for this DATA_DIR: those whose environment carries the
 * data-dir marker (every process of a tree, Chromium's zygote and renderers included) or whose
 * command line names the folder. Scoped by folder, so parallel test files never see each other's.
 * Zombies (exited, not yet reaped) have no environment and do not count.
 */
export function serviceProcesses(dataDir: string): ServiceProcess[] {
  const out: ServiceProcess[] = [];
  const sessionsRoot = sessionsRootOf(dataDir);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const environ = read(`/proc/${entry}/environ`);
    const cmdline = read(`/proc/${entry}/cmdline`);
    if (!environ || cmdline === null) continue;
    const env = environ.split('\0');
    const ours =
      env.includes(`${DATA_DIR_MARKER}=${dataDir}`) ||
      cmdline.split('\0').some((a) => a.includes(dataDir) || a.includes(sessionsRoot));
    if (!ours) continue;
    const argv = cmdline.split('\0').filter(Boolean);
    // comm, not argv[0]: Chromium's zygote rewrites its argv.
    const name = (read(`/proc/${entry}/comm`) ?? '').trim();
    const tree = env.find((e) => e.startsWith(`${TREE_MARKER}=`))?.slice(TREE_MARKER.length + 1);
    out.push({ pid: Number(entry), name, cmdline: argv.join(' '), ...(tree ? { tree } : {}) });
  }
  return out;
}

/**
 * The Chromium browser process itself (of one tree, when given): the one whose death ends a
 * session. Its zygotes, renderers and helpers share its name and its --user-data-dir, and the
 * first 'chromium' in /proc need not be the browser: pids wrap, and /proc is read as sorted strings
 * ("10011" before "9989"), so a zygote came first and its SIGKILL ended nothing. Chromium's own
 * mark of a child is --type=; the browser has none.
 */
export function browserProcess(dataDir: string, treeId?: string): ServiceProcess {
  const browsers = serviceProcesses(dataDir).filter(
    (p) => p.name === 'chromium' && !/(^| )--type=/.test(p.cmdline) && (treeId === undefined || p.tree === treeId),
  );
  if (browsers.length !== 1)
    throw new Error(
      `expected one Chromium browser process${treeId ? ` in tree ${treeId}` : ''}, found ${browsers.length}`,
    );
  return browsers[0]!;
}

/** Counts by kind, e.g. { Xvfb: 1, chromium: 7, x11vnc: 1 }. */
export function countByName(dataDir: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const p of serviceProcesses(dataDir)) counts[p.name] = (counts[p.name] ?? 0) + 1;
  return counts;
}

/**
 * Poll until nothing the service started for `dataDir` is left (or the deadline passes); returns what is left.
 * The default only guards against a hang: a loaded host takes its time to end a browser's tree.
 */
export async function waitForNoServiceProcesses(dataDir: string, timeoutMs = 30_000): Promise<ServiceProcess[]> {
  const deadline = Date.now() + timeoutMs;
  let left = serviceProcesses(dataDir);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    left = serviceProcesses(dataDir);
  }
  return left;
}

/** Poll until no process of one tree (session) is left; true when none is (the default deadline: a hang guard). */
export async function treeGone(dataDir: string, treeId: string, timeoutMs = 30_000): Promise<boolean> {
  const mine = () =>
    serviceProcesses(dataDir).filter((p) => p.tree === treeId || p.cmdline.includes(sessionRootOf(dataDir, treeId)));
  const deadline = Date.now() + timeoutMs;
  while (mine().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return mine().length === 0;
}

/** A process's proportional set size (its share of shared pages counted once), in kB; 0 when it is gone. */
export function pssKb(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}
