import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateWorkflowSessionResponse } from '../../contract/sessions.ts';
import { startX11vnc } from '../../server/browser/vnc.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';
import { listenersOf } from './sockets.ts';

let page: http.Server;
let pageUrl: string;
beforeAll(async () => {
  page = http.createServer((_req, res) => res.end('<title>reachable</title>reachable'));
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => page.close(() => r())));

async function titleFrom(server: TestServer, urls: string[]): Promise<(string | null)[]> {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'egress' });
  expect(res.status).toBe(200);
  const s = CreateWorkflowSessionResponse.parse(await res.json());
  let browser: Browser | undefined;
  try {
    browser = await chromium.connectOverCDP(s.connect_url!);
    const p = browser.contexts()[0]!.pages()[0]!;
    const out: (string | null)[] = [];
    for (const url of urls) out.push(await p.goto(url, { timeout: 8_000 }).then(() => p.title(), () => null));
    return out;
  } finally {
    await browser?.close();
  }
}

describe('network egress of a session', () => {
  it('cannot reach loopback, the service itself, link-local (metadata) or private ranges by default', async () => {
    const server = await startServer({ BROWSER_ALLOW_PRIVATE_NETWORKS: '0' });
    try {
      const titles = await titleFrom(server, [pageUrl, `${server.url}/api/healthz`, 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', 'http://192.168.1.1/', 'http://[::1]:1/']);
      expect(titles).toEqual([null, null, null, null, null, null]);
    } finally {
      await server.close();
    }
  });

  it('reaches them with BROWSER_ALLOW_PRIVATE_NETWORKS=1 (the same page, so the refusal above is the filter)', async () => {
    const server = await startServer({ BROWSER_ALLOW_PRIVATE_NETWORKS: '1' });
    try {
      expect(await titleFrom(server, [pageUrl])).toEqual(['reachable']);
    } finally {
      await server.close();
    }
  });
});

describe('x11vnc on display :0', () => {
  it('listens on its UNIX socket only, never on TCP 5900', async () => {
    // Display :0 is the one where -rfbport 0 alone still opened [::]:5900. Take it when it is free.
    const deadline = Date.now() + 30_000;
    while (fs.existsSync('/tmp/.X0-lock') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(fs.existsSync('/tmp/.X0-lock')).toBe(false);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-vnc0-'));
    const xvfb = spawn('Xvfb', [':0', '-nolisten', 'tcp', '-screen', '0', '640x480x24'], { stdio: 'ignore' });
    try {
      const until = Date.now() + 10_000;
      while (!fs.existsSync('/tmp/.X11-unix/X0') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      const vnc = await startX11vnc({ dataDir: dir, treeId: 'vnc0', display: ':0', home: dir, tmp: dir, user: null }, path.join(dir, 'vnc.sock'));
      try {
        await new Promise((r) => setTimeout(r, 500));
        expect(listenersOf([vnc.pid])).toEqual([]);
        expect(execFileSync('ss', ['-xlp']).toString()).toContain(path.join(dir, 'vnc.sock'));
        expect(fs.statSync(path.join(dir, 'vnc.sock')).mode & 0o777).toBe(0o600);
      } finally {
        vnc.process.kill('SIGKILL');
      }
    } finally {
      const gone = new Promise((r) => xvfb.once('exit', r));
      xvfb.kill('SIGTERM');
      await gone;
      for (const f of ['/tmp/.X0-lock', '/tmp/.X11-unix/X0']) fs.rmSync(f, { force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
