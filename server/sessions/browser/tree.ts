import type { ChildProcess } from 'node:child_process';
import { CdpClient } from '../cdp/client.ts';
import type { CdpHub } from '../cdp/hub.ts';
import { startChromium, type Chromium } from './chromium.ts';
import {
  ensureX11SocketDir,
  removeDisplayFiles,
  startXvfb,
  writeXauthority,
  type Display,
} from '../display/display.ts';
import { IpcNamespace } from '../isolation/ipcNamespace.ts';
import type { Isolation, TreeSandbox } from '../isolation/isolation.ts';
import type { SessionDirs } from '../isolation/sessionDirs.ts';
import { killTree, renice, type TreeEnv } from './processes.ts';
import { startX11vnc, type VncServer } from '../display/vnc.ts';
import type { StartGate, StartTicket } from './startGate.ts';
import { withinOr } from '../../domain/within.ts';

export type ProcessKind = 'xvfb' | 'chromium' | 'x11vnc';

/** How long each phase of a tree's start took, in ms (the benchmark's phase trace). */
export interface StartTrace {
  /** Waiting in the start gate's line. */
  gate: number;
  user_folders_egress: number;
  xvfb: number;
  /** Chromium and x11vnc start side by side once the display is up: each from then. */
  chromium: number;
  x11vnc: number;
  /** From the gate's place to the tree up (the gate's wait not counted). */
  total: number;
}

export interface TreeOptions {
  dataDir: string;
  id: string;
  executable: string;
  isolation: Isolation;
  proxyServer?: string;
  /** Chromium in kiosk mode from the start (ChromiumOptions.kiosk). */
  kiosk?: boolean;
  /**
   * Chromium alone, drawing off screen (ChromiumOptions.headless): no Xvfb and no x11vnc. For a
   * browser whose pages are seen only through screencasts (a shared browser's context sessions).
   */
  headless?: boolean;
  /** Chromium's User-Agent from the start (ChromiumOptions.userAgent). */
  userAgent?: string;
  /** Start at this niceness (warm pool); promote() restores normal priority. */
  niceness?: number;
  /** Called as soon as each group leader is up, so its pid can be recorded for reaping. */
  onPid?: (kind: ProcessKind, pid: number) => void;
  /** Aborting ends the start where it is: what started is killed and start() rejects. */
  signal?: AbortSignal;
  /** Lays files into the empty user-data folder (a profile's), beside the display's start and before Chromium's. */
  seed?: (userDataDir: string, user: TreeSandbox['user']) => Promise<void>;
  /** Bounds the starts that run at once (StartGate); the start waits its turn with `ticket`. */
  gate?: StartGate;
  ticket?: StartTicket;
}

/**
 * One session's processes: Xvfb, a headful Chromium on it and an x11vnc on it (or, headless,
 * Chromium alone), each its own
 * process group, all as the session's own user in the session's own folders, started as fast as
 * they allow (Chromium and x11vnc in parallel once the display is up) and always ended together.
 *
 * Each start has a timeout that only guards against a hang: a start the host is slow to give CPU
 * is not a failed one, and killing it would turn a busy host into a session that failed to start.
 * On this 2-core host with two starts at once and four other processes keeping both cores busy
 * (load average 26–35), Xvfb took at most 0.5 s, x11vnc 0.35 s and Chromium 3.8 s (1.1–1.6 s idle);
 * Xvfb and x11vnc are given 30 s, Chromium 60 s, over 15 times that. The gate (StartGate) keeps the
 * starts that share the cores few, so a burst does not slow each start by its size.
 */
export class BrowserTree {
  private killing: Promise<void> | undefined;
  private exitListener: ((what: ProcessKind, clean: boolean) => void) | undefined;

  private constructor(
    readonly startTrace: StartTrace,
    readonly id: string,
    private readonly opts: TreeOptions,
    private readonly sandbox: TreeSandbox,
    private readonly ipc: IpcNamespace | null,
    /** Null for a headless tree, as is `vnc`. */
    readonly display: Display | null,
    readonly chromium: Chromium,
    readonly vnc: VncServer | null,
  ) {
    for (const [kind, child] of this.members) {
      child.once('exit', (code) => {
        if (!this.killing) this.exitListener?.(kind, code === 0);
      });
    }
  }

  /** The only door to the browser's DevTools. */
  get hub(): CdpHub {
    return this.chromium.hub;
  }

  get dirs(): SessionDirs {
    return this.sandbox.dirs;
  }

  /** The uid and gid the tree runs as (null: the service's own). */
  get user(): TreeSandbox['user'] {
    return this.sandbox.user;
  }

  /** What another process of the tree joins (TreeEnv.ipc); undefined when trees share the host's. */
  get ipcNamespace(): string | undefined {
    return this.ipc?.path;
  }

  /** Null for a headless tree: nothing to show over VNC. */
  get vncSocket(): string | null {
    return this.vnc?.socket ?? null;
  }

  /** Each process of the tree, with its kind. */
  private get members(): [ProcessKind, ChildProcess][] {
    return [
      ...(this.display ? [['xvfb', this.display.process] as [ProcessKind, ChildProcess]] : []),
      ['chromium', this.chromium.process],
      ...(this.vnc ? [['x11vnc', this.vnc.process] as [ProcessKind, ChildProcess]] : []),
    ];
  }

  get pids(): number[] {
    return this.members.map(([, child]) => child.pid!);
  }

  get alive(): boolean {
    return !this.killing && this.members.every(([, p]) => p.exitCode === null && p.signalCode === null);
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
    const queued = performance.now();
    const leaveGate =
      (await opts.gate?.enter(opts.ticket ?? { urgent: true }, { signal: opts.signal })) ?? (() => undefined);
    try {
      return await BrowserTree.startNow(opts, Math.round(performance.now() - queued));
    } finally {
      leaveGate();
    }
  }

  /** start(), once its place in the gate has come. */
  private static async startNow(opts: TreeOptions, gate: number): Promise<BrowserTree> {
    const { dataDir, id } = opts;
    const since = (t: number) => Math.round(performance.now() - t);
    const began = performance.now();
    const sandbox = await opts.isolation.prepare(id);
    const trace: StartTrace = { gate, user_folders_egress: since(began), xvfb: 0, chromium: 0, x11vnc: 0, total: 0 };
    const { dirs, user, ownIpc } = sandbox;
    const leaders: number[] = [];
    let display: Display | undefined;
    let ipc: IpcNamespace | null = null;
    const note = (kind: ProcessKind, pid: number) => {
      leaders.push(pid);
      opts.onPid?.(kind, pid);
    };
    // Killing what started makes the waits below fail at once (a process they wait on exits).
    const cancel = () => void killTree(dataDir, id, [...leaders], 0);
    opts.signal?.addEventListener('abort', cancel, { once: true });
    const goOn = () => {
      if (opts.signal?.aborted) throw new Error('the browser start was cancelled');
    };
    try {
      goOn();
      if (!opts.headless) {
        ensureX11SocketDir();
        writeXauthority(dirs.xauthority, user);
      }
      const niceness = opts.niceness && process.getuid?.() === 0 ? opts.niceness : 0;
      const base: TreeEnv = {
        dataDir,
        treeId: id,
        niceness,
        xauthority: dirs.xauthority,
        home: dirs.home,
        tmp: dirs.tmp,
        user,
      };
      const seeding = opts.seed?.(dirs.profile, user);
      // Awaited below; this only keeps a failure while Xvfb starts from going unhandled.
      seeding?.catch(() => undefined);
      const folders = { uploads: dirs.uploads, downloads: dirs.downloads };
      const chromiumOptions = {
        executable: opts.executable,
        profileDir: dirs.profile,
        proxyServer: opts.proxyServer,
        folders,
        kiosk: opts.kiosk,
        userAgent: opts.userAgent,
        headless: opts.headless,
      };
      if (opts.headless) {
        // Chromium alone makes the tree's IPC namespace.
        await seeding;
        goOn();
        const chromiumAt = performance.now();
        const chromium = await startChromium({ ...base, ...(ownIpc ? { ipc: 'new' } : {}) }, chromiumOptions);
        note('chromium', chromium.pid);
        trace.chromium = since(chromiumAt);
        if (ownIpc) {
          ipc = IpcNamespace.of(chromium.process);
          if (!ipc) throw new Error('Chromium died while starting');
        }
        goOn();
        trace.total = since(began);
        return new BrowserTree(trace, id, opts, sandbox, ipc, null, chromium, null);
      }
      // The X server makes the tree's IPC namespace, the others join it.
      const xvfbAt = performance.now();
      display = await startXvfb({ ...base, xauthority: dirs.xauthority, ...(ownIpc ? { ipc: 'new' } : {}) });
      note('xvfb', display.pid);
      trace.xvfb = since(xvfbAt);
      goOn();
      if (ownIpc) {
        ipc = IpcNamespace.of(display.process);
        if (!ipc) throw new Error('Xvfb died while starting');
      }
      await seeding;
      goOn();
      const env = { ...base, display: display.name, ...(ipc ? { ipc: ipc.path } : {}) };
      const bothAt = performance.now();
      const [chromium, vnc] = await Promise.all([
        startChromium(env, chromiumOptions).then((c) => (note('chromium', c.pid), (trace.chromium = since(bothAt)), c)),
        startX11vnc(env, dirs.vncSocket).then((v) => (note('x11vnc', v.pid), (trace.x11vnc = since(bothAt)), v)),
      ]);
      goOn();
      trace.total = since(began);
      return new BrowserTree(trace, id, opts, sandbox, ipc, display, chromium, vnc);
    } catch (e) {
      // Whatever did start (recorded or not: the marker finds it) goes, and so do the folders.
      await killTree(dataDir, id, leaders);
      ipc?.close();
      if (display) removeDisplayFiles(display.name);
      await opts.isolation.release(sandbox);
      throw e;
    } finally {
      opts.signal?.removeEventListener('abort', cancel);
    }
  }

  /**
   * Ask Chromium to close as a person closing its window would (Browser.close), so that it writes
   * what it keeps in memory (cookies) to the profile; true once it has exited cleanly. The display
   * and the VNC server stay until kill().
   */
  async closeBrowser(timeoutMs: number): Promise<boolean> {
    const child = this.chromium.process;
    const exited = () => child.exitCode !== null || child.signalCode !== null;
    if (!exited()) {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const cdp = await CdpClient.open(this.hub).catch(() => undefined);
      await cdp?.send('Browser.close', {}, undefined, timeoutMs).catch(() => undefined);
      await withinOr(gone, timeoutMs, undefined);
      cdp?.close();
    }
    return child.exitCode === 0;
  }

  /** Back to normal priority: this tree now serves a session. */
  promote(): void {
    if (this.opts.niceness) renice(this.pids, this.opts.niceness);
  }

  /** Kill every process of the tree (SIGTERM, SIGKILL after a short grace) and remove its files. Idempotent. */
  kill(): Promise<void> {
    this.killing ??= (async () => {
      this.hub.close();
      await killTree(this.opts.dataDir, this.id, this.pids);
      this.ipc?.close();
      if (this.display) removeDisplayFiles(this.display.name);
      await this.opts.isolation.release(this.sandbox);
    })();
    return this.killing;
  }
}
