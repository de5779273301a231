import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { CdpClient } from './cdpClient.ts';
import { startChromium, type Chromium } from './chromium.ts';
import { startXvfb, writeXauthority, type Display } from './display.ts';
import { killTree, renice } from './processes.ts';
import { startX11vnc, type VncServer } from './vnc.ts';

export type ProcessKind = 'xvfb' | 'chromium' | 'x11vnc';

export interface TreeOptions {
  dataDir: string;
  id: string;
  executable: string;
  proxyServer?: string;
  /** Start at this niceness (warm pool); promote() restores normal priority. */
  niceness?: number;
  /** Called as soon as each group leader is up, so its pid can be recorded for reaping. */
  onPid?: (kind: ProcessKind, pid: number) => void;
}

/** UNIX socket paths are limited to 107 bytes; a long DATA_DIR falls back to a private temp folder. */
function vncSocketPath(dataDir: string, id: string): string {
  const inData = path.join(dataDir, 'run', `${id}.vnc`);
  if (Buffer.byteLength(inData) < 100) return inData;
  const tag = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
  return path.join(os.tmpdir(), `browserdesk-${tag}`, `${id}.vnc`);
}

export function profileDirOf(dataDir: string, id: string): string {
  return path.join(dataDir, 'profiles', id);
}

/**
 * One session's processes: Xvfb, a headful Chromium on it and an x11vnc on it, each its own
 * process group, started as fast as they allow (Chromium and x11vnc in parallel once the display
 * is up) and always ended together.
 */
export class BrowserTree {
  private killing: Promise<void> | undefined;
  private exitListener: ((what: ProcessKind, clean: boolean) => void) | undefined;

  private constructor(
    readonly id: string,
    private readonly opts: TreeOptions,
    readonly display: Display,
    readonly chromium: Chromium,
    readonly vnc: VncServer,
    readonly profileDir: string,
  ) {
    for (const [kind, child] of [['xvfb', display.process], ['chromium', chromium.process], ['x11vnc', vnc.process]] as const) {
      child.once('exit', (code) => {
        if (!this.killing) this.exitListener?.(kind, code === 0);
      });
    }
  }

  get browserWSEndpoint(): string {
    return this.chromium.browserWSEndpoint;
  }

  get vncSocket(): string {
    return this.vnc.socket;
  }

  get pids(): number[] {
    return [this.display.pid, this.chromium.pid, this.vnc.pid];
  }

  get alive(): boolean {
    return !this.killing && [this.display.process, this.chromium.process, this.vnc.process].every((p) => p.exitCode === null && p.signalCode === null);
  }

  /**
   * The first death of any member not caused by kill(). `clean` is an exit with status 0 (a client
   * closed the browser over CDP, e.g. Puppeteer's browser.close()); anything else is a crash.
   */
  onExit(listener: (what: ProcessKind, clean: boolean) => void): void {
    this.exitListener = listener;
    if (!this.alive && !this.killing) queueMicrotask(() => listener('chromium', false));
  }

  static async start(opts: TreeOptions): Promise<BrowserTree> {
    const { dataDir, id } = opts;
    const profileDir = profileDirOf(dataDir, id);
    const socket = vncSocketPath(dataDir, id);
    const xauthority = path.join(dataDir, 'run', `${id}.xauth`);
    const leaders: number[] = [];
    const note = (kind: ProcessKind, pid: number) => {
      leaders.push(pid);
      opts.onPid?.(kind, pid);
    };
    try {
      fs.mkdirSync(path.dirname(socket), { recursive: true, mode: 0o700 });
      fs.mkdirSync(path.dirname(xauthority), { recursive: true, mode: 0o700 });
      writeXauthority(xauthority);
      const niceness = opts.niceness && process.getuid?.() === 0 ? opts.niceness : 0;
      const display = await startXvfb({ dataDir, treeId: id, niceness, xauthority });
      note('xvfb', display.pid);
      const env = { dataDir, treeId: id, display: display.name, niceness, xauthority };
      const [chromium, vnc] = await Promise.all([
        startChromium(env, { executable: opts.executable, profileDir, proxyServer: opts.proxyServer }).then((c) => (note('chromium', c.pid), c)),
        startX11vnc(env, socket).then((v) => (note('x11vnc', v.pid), v)),
      ]);
      // DevToolsActivePort is written early in Chromium's start; a tree is ready only once the
      // browser answers a command, so nobody is handed a browser that is still busy starting.
      const cdp = await CdpClient.connect(chromium.browserWSEndpoint);
      try {
        await cdp.send('Browser.getVersion');
      } finally {
        cdp.close();
      }
      return new BrowserTree(id, opts, display, chromium, vnc, profileDir);
    } catch (e) {
      // Whatever did start (recorded or not: the marker finds it) goes, and so does the profile.
      await killTree(dataDir, id, leaders);
      await removeLeftovers(profileDir, socket, xauthority);
      throw e;
    }
  }

  /** Back to normal priority: this tree now serves a session. */
  promote(): void {
    if (this.opts.niceness) renice(this.pids, this.opts.niceness);
  }

  /** Kill every process of the tree (SIGTERM, SIGKILL after a short grace) and remove its files. Idempotent. */
  kill(): Promise<void> {
    this.killing ??= (async () => {
      await killTree(this.opts.dataDir, this.id, this.pids);
      await removeLeftovers(this.profileDir, this.vnc.socket, path.join(this.opts.dataDir, 'run', `${this.id}.xauth`));
    })();
    return this.killing;
  }
}

/**
 * Chromium keeps its singleton socket in a temp folder of its own (/tmp/org.chromium.Chromium.*),
 * linked from the profile; nothing removes that folder when the browser is killed.
 */
export async function removeSingletonDir(profileDir: string): Promise<void> {
  const singleton = await fs.promises.readlink(path.join(profileDir, 'SingletonSocket')).catch(() => null);
  if (singleton && /^org\.chromium\.Chromium\.\w+$/.test(path.basename(path.dirname(singleton)))) {
    await fs.promises.rm(path.dirname(singleton), { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * The profile is moved out of profiles/ at once (a rename) and deleted behind it, so ending a
 * session does not wait for thousands of small files; a restart empties trash/ as well.
 */
async function removeLeftovers(profileDir: string, socket: string, xauthority: string): Promise<void> {
  await fs.promises.rm(socket, { force: true }).catch(() => undefined);
  await fs.promises.rm(xauthority, { force: true }).catch(() => undefined);
  await removeSingletonDir(profileDir);
  const trash = path.join(path.dirname(path.dirname(profileDir)), 'trash');
  const target = path.join(trash, `${path.basename(profileDir)}-${Date.now()}`);
  try {
    await fs.promises.mkdir(trash, { recursive: true, mode: 0o700 });
    await fs.promises.rename(profileDir, target);
  } catch {
    // Not there (never created), or rename failed: delete in place.
    await fs.promises.rm(profileDir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    return;
  }
  void fs.promises.rm(target, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
}
