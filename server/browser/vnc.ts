import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { spawnDetached, treeEnv, type TreeEnv } from './processes.ts';

export interface VncServer {
  process: ChildProcess;
  pid: number;
  socket: string;
}

/**
 * x11vnc on the session's display, reachable ONLY through a UNIX socket (-rfbport 0 turns TCP off,
 * -no6 keeps it from opening an IPv6 port); the socket lives in the session's 0700 run folder and
 * the VNC bridge is the only way in from outside. Resolves when the socket exists.
 */
export async function startX11vnc(tree: TreeEnv & { display: string }, socket: string, timeoutMs = 10_000): Promise<VncServer> {
  fs.rmSync(socket, { force: true });
  const child = spawnDetached(
    'x11vnc',
    [
      '-display', tree.display,
      '-unixsock', socket,
      '-rfbport', '0',
      '-no6',
      '-shared',
      '-forever',
      '-nopw',
      '-norc',
      '-quiet',
      '-noxdamage', // XDAMAGE misses Chromium's updates on Xvfb
      '-ncache', '0',
      '-nowf',
      '-wait', '10',
      '-defer', '10',
      '-noipv6',
    ],
    treeEnv(tree),
    ['ignore', 'ignore', 'ignore'],
    tree.niceness,
  );
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
  return { process: child, pid: child.pid!, socket };
}
