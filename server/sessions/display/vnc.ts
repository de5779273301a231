import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { spawnDetached, type TreeEnv } from '../browser/processes.ts';

export interface VncServer {
  process: ChildProcess;
  pid: number;
  socket: string;
}

/**
 * x11vnc's flags: on the session's display, reachable ONLY through a UNIX socket. -rfbport 0 turns its IPv4
 * port off, but on display :0 it still opened [::]:5900 with no password: -rfbportv6 0 closes that
 * one too. Once the socket exists it is made the service's own (0600), so only the VNC bridge can
 * connect: not the session's own user, not anyone else. Resolves when the socket exists.
 */
export function x11vncArgs(display: string, socket: string): string[] {
  return [
    '-display',
    display,
    '-unixsock',
    socket,
    '-rfbport',
    '0',
    '-rfbportv6',
    '0',
    '-no6',
    '-shared',
    '-forever',
    '-nopw',
    '-norc',
    '-quiet',
    '-noxdamage', // XDAMAGE misses Chromium's updates on Xvfb
    '-ncache',
    '0',
    '-nowf',
    '-wait',
    '10',
    '-defer',
    '10',
    '-noipv6',
  ];
}

/** Longest x11vnc may take to open its socket: a hang guard (BrowserTree's starts are timed against a loaded host there). */
const START_TIMEOUT_MS = 30_000;

/** x11vnc as the tree's user; resolves when its socket exists, then makes the socket the service's. */
export async function startX11vnc(
  tree: TreeEnv & { display: string },
  socket: string,
  timeoutMs = START_TIMEOUT_MS,
): Promise<VncServer> {
  fs.rmSync(socket, { force: true });
  const child = spawnDetached('x11vnc', x11vncArgs(tree.display, socket), tree, ['ignore', 'ignore', 'ignore']);
  let exited: string | undefined;
  const onExit = (code: number | null, sig: string | null) => (exited = `exited (${code ?? sig})`);
  child.once('exit', onExit);
  child.once('error', (e) => (exited = e.message));
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(socket)) {
    if (exited) throw new Error(`x11vnc did not start: ${exited}`);
    if (Date.now() > deadline) throw new Error('x11vnc did not start: timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
  child.off('exit', onExit);
  takeSocket(socket);
  return { process: child, pid: child.pid!, socket };
}

/**
 * Make x11vnc's socket the service's own, 0600. Its folder is sticky and the service's, so once the
 * entry is ours the session's user can no longer swap it; checking it is a socket before and after
 * the change of owner means no link planted in its place is ever followed.
 */
function takeSocket(socket: string): void {
  if (!fs.lstatSync(socket).isSocket()) throw new Error('x11vnc did not start: its socket is not a socket');
  fs.lchownSync(socket, process.getuid!(), process.getgid!());
  if (!fs.lstatSync(socket).isSocket()) throw new Error('x11vnc did not start: its socket was replaced');
  fs.chmodSync(socket, 0o600);
}
