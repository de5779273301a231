import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { titlesFromSession } from '../helpers/pageTitles.ts';
import { startServer } from '../helpers/server.ts';

// The attack: an address of the host's own interfaces that is in no private range (a public IP on
// eth0) reaches whatever listens there or on 0.0.0.0, this service included. Here the host gets
// such addresses on one end of a veth pair whose other end is in a network namespace this test
// makes: 198.51.100.7 (TEST-NET-2) and 2001:db8:bd::7 (documentation prefix), in none of the
// BLOCKED ranges of egress.ts. All traffic stays on this machine: a connection to a local address
// goes over loopback. The namespace is held by a `cat` on this process's pipe, so if this process
// dies the namespace goes, and with it both ends of the pair.
const V4 = '198.51.100.7';
const V6 = '2001:db8:bd::7';
const hostEnd = `bdhl${process.pid}h`;
const peerEnd = `bdhl${process.pid}p`;

let holder: ChildProcess | undefined;
const pages: http.Server[] = [];
let requests = 0;
const urls: string[] = [];

const ip = (args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

function teardown(): void {
  try {
    ip(['link', 'del', hostEnd]); // takes the peer end with it
  } catch {
    // never made, or gone with the namespace
  }
  holder?.stdin?.end();
  holder?.kill('SIGKILL');
  holder = undefined;
}

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  try {
    teardown(); // a pair left by an earlier process with this pid
    holder = spawn('unshare', ['--net', 'cat'], { stdio: ['pipe', 'ignore', 'ignore'] });
    const ours = fs.readlinkSync('/proc/self/ns/net');
    await until('the namespace', () => {
      try {
        return fs.readlinkSync(`/proc/${holder!.pid}/ns/net`) !== ours;
      } catch {
        return false;
      }
    });
    ip(['link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', peerEnd, 'netns', String(holder.pid)]);
    ip(['addr', 'add', `${V4}/32`, 'dev', hostEnd]);
    ip(['-6', 'addr', 'add', `${V6}/128`, 'dev', hostEnd, 'nodad']);
    ip(['link', 'set', hostEnd, 'up']);
    execFileSync('nsenter', [`--net=/proc/${holder.pid}/ns/net`, 'ip', 'link', 'set', peerEnd, 'up']);
    await until('the IPv6 address to be usable', () => {
      const out = ip(['-6', '-o', 'addr', 'show', 'dev', hostEnd]);
      return out.includes(V6) && !out.includes('tentative');
    });
    for (const address of [V4, V6]) {
      const page = http.createServer((_req, res) => {
        requests++;
        res.end('<title>host-local</title>host-local');
      });
      pages.push(page);
      await new Promise<void>((resolve, reject) => page.once('error', reject).listen(0, address, resolve));
      const port = (page.address() as AddressInfo).port;
      urls.push(address.includes(':') ? `http://[${address}]:${port}/` : `http://${address}:${port}/`);
    }
  } catch (e) {
    teardown();
    throw e;
  }
});

afterAll(async () => {
  await Promise.all(pages.map((p) => new Promise<void>((r) => p.close(() => r()))));
  teardown();
});

describe("network egress of a session towards the host's own addresses", () => {
  it('a process that is not a session reaches the page on them (the set-up works)', async () => {
    requests = 0;
    for (const url of urls) expect(await (await fetch(url)).text()).toContain('host-local');
    expect(requests).toBe(2);
  });

  it('a session cannot reach them by default, though they are in no private range, and nothing gets there', async () => {
    const server = await startServer({ BROWSER_ALLOW_PRIVATE_NETWORKS: '0' });
    try {
      requests = 0;
      expect(await titlesFromSession(server, urls)).toEqual([null, null]);
      expect(requests).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('a session reaches them with BROWSER_ALLOW_PRIVATE_NETWORKS=1 (so the refusal above is the filter)', async () => {
    const server = await startServer({ BROWSER_ALLOW_PRIVATE_NETWORKS: '1' });
    try {
      requests = 0;
      expect(await titlesFromSession(server, urls)).toEqual(['host-local', 'host-local']);
      expect(requests).toBeGreaterThanOrEqual(2);
    } finally {
      await server.close();
    }
  });
});
