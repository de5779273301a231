import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { CdpHub } from '../cdp/hub.ts';
import type { SessionFolders } from '../cdp/policy.ts';
import { SCREEN } from '../display/display.ts';
import { writeDownloadPrefs } from './downloadPrefs.ts';
import { headlessArgs } from './headlessArgs.ts';
import { spawnDetached, type TreeEnv } from './processes.ts';

export interface Chromium {
  process: ChildProcess;
  pid: number;
  /** DevTools over the pipe: the only way to the browser's protocol. */
  hub: CdpHub;
}

export interface ChromiumOptions {
  executable: string;
  profileDir: string;
  proxyServer?: string;
  folders: SessionFolders;
  /** Start in kiosk mode (the page alone, fullscreen, no notice): a cold start that knows its presentation. */
  kiosk?: boolean;
  /** The User-Agent of every page, tab and worker (--user-agent); validated by the contract (printable ASCII). */
  userAgent?: string;
  /** Draw off screen, with no display (--headless: Chromium's full browser, not the old headless shell). */
  headless?: boolean;
}

/**
 * Features switched off. The first eight are Playwright's quiet-start set (no calls home, no
 * media-router or translate bars). The omnibox ones matter for cost: Chromium 156 preloads its
 * address-bar popup as two WebUI pages (chrome://omnibox-popup.top-chrome) in a renderer of their
 * own, which spends about 1.1 s of CPU in the two seconds after the browser answers (bench/startCpu,
 * "settled"). On 2 cores that is what kept the warm pool from refilling at 2 creates a second.
 * Without them the popup is drawn by the native views code, the same list for a person typing.
 */
const DISABLED_FEATURES = [
  'MediaRouter',
  'OptimizationHints',
  'Translate',
  'LensOverlay',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'DestroyProfileOnBrowserClose',
  'WebUIOmniboxPopup',
  'WebUIOmniboxFullPopup',
  'WebUIOmniboxAimPopup',
  'PreloadTopChromeWebUI',
];

/**
 * Flags: the shop's required set, plus Playwright's own quiet-start switches that apply to a headful
 * browser. DevTools is on a pipe only (no port): nothing on the host, no page and no other session
 * can reach it. The sandbox stays on unless the browser would run as root.
 */
export function chromiumArgs(
  { executable, profileDir, proxyServer, kiosk, userAgent, headless }: ChromiumOptions,
  asRoot: boolean,
): string[] {
  return [
    // --test-type: as root --no-sandbox is required, and this keeps Chromium from painting its
    // "unsupported command-line flag" bar over every page a person watches.
    ...(asRoot ? ['--no-sandbox', '--test-type'] : []),
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
    '--remote-debugging-pipe',
    `--user-data-dir=${profileDir}`,
    '--window-position=0,0',
    `--window-size=${SCREEN.width},${SCREEN.height}`,
    '--disable-field-trial-config',
    '--disable-breakpad',
    '--disable-crash-reporter',
    '--disable-default-apps',
    '--disable-dev-shm-usage',
    '--disable-extensions',
    `--disable-features=${DISABLED_FEATURES.join(',')}`,
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
    ...(headless
      ? headlessArgs(chromiumBinary(executable), userAgent)
      : [...(kiosk ? ['--kiosk'] : []), ...(userAgent ? [`--user-agent=${userAgent}`] : [])]),
    'about:blank',
  ];
}

/** Where Debian's chromium package keeps the browser itself; /usr/bin/chromium is a launcher script. */
const DEBIAN_BINARY = '/usr/lib/chromium/chromium';
const resolved = new Map<string, string>();

/**
 * The program to run for `configured`. Debian's /usr/bin/chromium is a sh script that runs ls,
 * findmnt and tr on every start (about 20 ms of a cold start) and adds flags we do not want
 * (--enable-remote-extensions, --load-extension=…); when the configured program is a script and
 * Debian's binary is there, the binary is run directly with our flags alone.
 */
export function chromiumBinary(configured: string): string {
  let out = resolved.get(configured);
  if (out === undefined) {
    out = configured;
    try {
      const head = Buffer.alloc(2);
      const fd = fs.openSync(configured, 'r');
      try {
        fs.readSync(fd, head, 0, 2, 0);
      } finally {
        fs.closeSync(fd);
      }
      if (head.toString() === '#!' && fs.existsSync(DEBIAN_BINARY)) out = DEBIAN_BINARY;
    } catch {
      // Not readable here: spawn reports it.
    }
    resolved.set(configured, out);
  }
  return out;
}

/**
 * Longest a Chromium may take to answer its first command: a hang guard (BrowserTree's starts are
 * timed against a loaded host there), never a judgement of a slow host.
 */
const START_TIMEOUT_MS = 60_000;

/**
 * Start Chromium on `tree.display` (headless: on none), as the tree's user, with DevTools on fds 3 (commands
 * in) and 4 (answers out). Ready once the browser answers a command, so nobody is handed a browser
 * that is still busy starting.
 */
export async function startChromium(
  tree: TreeEnv,
  opts: ChromiumOptions,
  timeoutMs = START_TIMEOUT_MS,
): Promise<Chromium> {
  const asRoot = (tree.user?.uid ?? process.getuid?.()) === 0;
  writeDownloadPrefs(opts.profileDir, opts.folders.downloads, tree.user);
  const child = spawnDetached(chromiumBinary(opts.executable), chromiumArgs(opts, asRoot), tree, [
    'ignore',
    'ignore',
    'ignore',
    'pipe',
    'pipe',
  ]);
  const hub = new CdpHub(child.stdio[3] as Writable, child.stdio[4] as Readable, opts.folders);
  let exited: string | undefined;
  const died = new Promise<never>((_, reject) => {
    child.once('exit', (code, sig) => reject(new Error(`Chromium did not start: exited (${code ?? sig})`)));
    child.once('error', (e) => reject(new Error(`Chromium did not start: ${e.message}`)));
  });
  died.catch((e: Error) => (exited = e.message));
  await Promise.race([hub.call('Browser.getVersion', {}, undefined, timeoutMs), died]).catch((e: Error) => {
    throw new Error(exited ?? (e.message.includes('no answer') ? 'Chromium did not start: timed out' : e.message));
  });
  return { process: child, pid: child.pid!, hub };
}
