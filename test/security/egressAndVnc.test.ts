import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x11vncArgs } from '../../server/sessions/display/vnc.ts';
import { titlesFromSession } from '../helpers/pageTitles.ts';
import { startServer } from '../helpers/server.ts';

let page: http.Server;
let pageUrl: string;
beforeAll(async () => {
  page = http.createServer((_req, res) => res.end('<title>reachable</title>reachable'));
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => page.close(() => r())));

describe('network egress of a session', () => {
  it('cannot reach loopback, the service itself, link-local (metadata) or private ranges by default', async () => {
    const server = await startServer({ BROWSER_ALLOW_PRIVATE_NETWORKS: '0' });
    try {
      const titles = await titlesFromSession(server, [
        pageUrl,
        `${server.url}/api/healthz`,
        'http://169.254.169.254/latest/meta-data/',
        'http://10.0.0.1/',
        'http://192.168.1.1/',
        'http://[::1]:1/',
      ]);
      expect(titles).toEqual([null, null, null, null, null, null]);
    } finally {
      await server.close();
    }
  });

  it('reaches them with BROWSER_ALLOW_PRIVATE_NETWORKS=1 (the same page, so the refusal above is the filter)', async () => {
    const server = await startServer({ BROWSER_ALLOW_PRIVATE_NETWORKS: '1' });
    try {
      expect(await titlesFromSession(server, [pageUrl])).toEqual(['reachable']);
    } finally {
      await server.close();
    }
  });
});

describe('x11vnc on display :0', () => {
  it('listens on its UNIX socket only, never on TCP 5900', async () => {
    // Display :0 is the one where -rfbport 0 alone still opened [::]:5900 with no password. Other
    // sessions may hold :0 on this host, so this runs the real flags in a private /tmp and network
    // namespace, where :0 is always free and every port x11vnc opens is visible in one table.
    const dir = fs.mkdtempSync('/var/tmp/bd-vnc0-');
    const sock = path.join(dir, 'vnc.sock');
    const quote = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;
    const script = `mount -t tmpfs none /tmp && mkdir -m 1777 /tmp/.X11-unix && Xvfb :0 -nolisten tcp -screen 0 640x480x24 & sleep 1; exec x11vnc ${x11vncArgs(':0', sock).map(quote).join(' ')}`;
    const ns = spawn('unshare', ['--mount', '--net', '--fork', 'sh', '-c', script], {
      stdio: 'ignore',
      detached: true,
    });
    try {
      const until = Date.now() + 15_000;
      while (!fs.existsSync(sock) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(fs.existsSync(sock)).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      const x11vnc = execFileSync('pgrep', ['-x', 'x11vnc'])
        .toString()
        .trim()
        .split('\n')
        .map(Number)
        .find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(sock))!;
      expect(x11vnc).toBeGreaterThan(0);
      // Its namespace's own TCP and UDP tables: nothing listens there at all.
      const listening = ['tcp', 'tcp6', 'udp', 'udp6'].flatMap((t) =>
        fs
          .readFileSync(`/proc/${x11vnc}/net/${t}`, 'utf8')
          .split('\n')
          .slice(1)
          .filter((l) => l.trim() && (t.startsWith('udp') || l.trim().split(/\s+/)[3] === '0A')),
      );
      expect(listening).toEqual([]);
    } finally {
      try {
        process.kill(-ns.pid!, 'SIGKILL');
      } catch {
        // gone
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
