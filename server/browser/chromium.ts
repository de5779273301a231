import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SCREEN } from './display.ts';
import { spawnDetached, treeEnv, type TreeEnv } from './processes.ts';

export interface Chromium {
  process: ChildProcess;
  pid: number;
  /** ws://127.0.0.1:PORT/devtools/browser/…: loopback only, never handed out. */
  browserWSEndpoint: string;
}

export interface ChromiumOptions {
  executable: string;
  profileDir: string;
  proxyServer?: string;
}

const isRoot = () => process.getuid?.() === 0;

/** Flags: the shop's required set, plus Playwright's own quiet-start switches that apply to a headful browser. */
export function chromiumArgs({ profileDir, proxyServer }: ChromiumOptions): string[] {
  return [
    // --test-type: as root --no-sandbox is required, and this keeps Chromium from painting its
    // "unsupported command-line flag" bar over every page a person watches.
    ...(isRoot() ? ['--no-sandbox', '--test-type'] : []),
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
    '--remote-debugging-port=0',
    '--remote-debugging-address=127.0.0.1',
    `--user-data-dir=${profileDir}`,
    '--window-position=0,0',
    `--window-size=${SCREEN.width},${SCREEN.height}`,
    '--disable-field-trial-config',
    '--disable-breakpad',
    '--disable-crash-reporter',
    '--disable-default-apps',
    '--disable-dev-shm-usage',
    '--disable-extensions',
    '--disable-features=MediaRouter,OptimizationHints,Translate,LensOverlay,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch,DestroyProfileOnBrowserClose',
    '--disable-hang-monitor',
    '--disable-ipc-flooding-protection',
    '--disable-popup-blocking',
    '--disable-prompt-on-repost',
    '--disable-renderer-backgrounding',
    '--disable-background-timer-throttling',
    '--disable-backgrounding-occluded-windows',
    '--disable-search-engine-choice-screen',
    '--disable-session-crashed-bubble',
    '--hide-crash-restore-bubble',
    '--metrics-recording-only',
    '--password-store=basic',
    '--use-mock-keychain',
    '--no-service-autorun',
    '--force-color-profile=srgb',
    ...(proxyServer ? [`--proxy-server=${proxyServer}`] : []),
    'about:blank',
  ];
}

/**
 * Start a headful Chromium on `tree.display`. It picks its own debugging port
 * (--remote-debugging-port=0) and writes it to DevToolsActivePort in the profile, which we poll:
 * no port is ever chosen by us, so none can collide.
 */
export async function startChromium(tree: TreeEnv & { display: string }, opts: ChromiumOptions, timeoutMs = 20_000): Promise<Chromium> {
  fs.mkdirSync(opts.profileDir, { recursive: true, mode: 0o700 });
  const child = spawnDetached(opts.executable, chromiumArgs(opts), treeEnv(tree), ['ignore', 'ignore', 'ignore'], tree.niceness);
  let exited: string | undefined;
  const onExit = (code: number | null, sig: string | null) => (exited = `exited (${code ?? sig})`);
  child.once('exit', onExit);
  child.once('error', (e) => (exited = e.message));
  const file = path.join(opts.profileDir, 'DevToolsActivePort');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`Chromium did not start: ${exited}`);
    if (Date.now() > deadline) throw new Error('Chromium did not start: timed out waiting for DevToolsActivePort');
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      // not written yet
    }
    const [port, wsPath] = text.split('\n');
    if (port && wsPath) {
      child.off('exit', onExit);
      return { process: child, pid: child.pid!, browserWSEndpoint: `ws://127.0.0.1:${port}${wsPath}` };
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}
