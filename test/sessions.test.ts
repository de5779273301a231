import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import WebSocket from 'ws';
import { CreateWorkflowSessionResponse, Session, SessionsPage } from '../contract/sessions.ts';
import type { BusEvents } from '../server/events/bus.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { countByName, serviceProcesses, waitForNoServiceProcesses } from './helpers/processes.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';

let server: TestServer;
let site: http.Server;
let siteUrl: string;
let proxy: http.Server;
const proxied: string[] = [];

beforeAll(async () => {
  // A forward proxy standing in for PROXY_URL: it answers every request itself and records it.
  proxy = http.createServer((req, res) => {
    proxied.push(req.url ?? '');
    res.setHeader('content-type', 'text/html');
    res.end('<title>via the proxy</title>');
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  server = await startServer({ PROXY_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
  // The page the session's browser visits: served by the test, on loopback.
  site = http.createServer((req, res) => {
    if (req.url === '/echo') {
      res.setHeader('content-type', 'text/html');
      res.end(`<title>echo</title><pre id="cookie">${req.headers.cookie ?? ''}</pre>`);
      return;
    }
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>Hello from the test</title><h1>hi</h1>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await closeLeavingNothing(server);
  await new Promise((r) => site?.close(r));
  await new Promise((r) => proxy?.close(r));
});

async function create(body: Record<string, unknown> = {}) {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'sessions-test', ...body });
  expect(res.status).toBe(200);
  return CreateWorkflowSessionResponse.parse(await res.json());
}

async function end(id: string) {
  const res = await server.api(`/api/sessions/${id}`, { method: 'DELETE' });
  expect(res.status).toBe(200);
  return Session.parse(await res.json());
}

/** Status of a WebSocket upgrade to `url`: 101 when accepted, else the HTTP status. */
function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.once('error', () => resolve(-1));
  });
}

describe('live browser sessions', () => {
  it('creates a session, drives it with Playwright connectOverCDP, and ends it', async () => {
    const events: (keyof BusEvents)[] = [];
    const offs = (['session.started', 'session.ended'] as const).map((t) => server.app.bus.on(t, () => events.push(t)));
    const s = await create({ metadata: '{"order":42}' });
    expect(s.connect_url).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/s/${s.session_id}/cdp\\?token=[\\w-]{43}$`));
    expect(s.vnc_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/s/${s.session_id}/vnc\\?token=[\\w-]{43}$`));
    expect(s.livestream_url).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:\\d+/s/${s.session_id}/live\\?token=[\\w-]{43}$`),
    );
    // One tree: a display, a VNC server, and Chromium (with its helpers).
    const counts = countByName(server.dataDir);
    expect(counts.Xvfb).toBe(1);
    expect(counts.x11vnc).toBe(1);
    expect(counts.chromium).toBeGreaterThanOrEqual(1);

    // The display takes only clients holding its cookie: another local user cannot open it.
    const xvfb = serviceProcesses(server.dataDir).find((p) => p.name === 'Xvfb')!;
    const display = fs
      .readFileSync(`/proc/${serviceProcesses(server.dataDir).find((p) => p.name === 'x11vnc')!.pid}/environ`, 'utf8')
      .split('\0')
      .find((e) => e.startsWith('DISPLAY='))!
      .slice(8);
    expect(xvfb.cmdline).toContain('-auth');
    const intruder = spawnSync(
      'x11vnc',
      [
        '-display',
        display,
        '-rfbport',
        '0',
        '-unixsock',
        path.join(server.dataDir, 'intruder.sock'),
        '-quiet',
        '-nopw',
        '-norc',
        '-once',
        '-timeout',
        '1',
      ],
      {
        env: { PATH: process.env.PATH },
        encoding: 'utf8',
        timeout: 10_000,
      },
    );
    expect(intruder.status).not.toBe(0);
    expect(intruder.stderr).toContain('XOpenDisplay failed');

    const got = Session.parse(await (await server.api(`/api/sessions/${s.session_id}`)).json());
    expect(got).toMatchObject({
      id: s.session_id,
      workflow_id: s.workflow_id,
      state: 'live',
      end_reason: null,
      timeout: 1200,
      metadata: '{"order":42}',
    });

    const browser = await chromium.connectOverCDP(s.connect_url!);
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    await page.goto(siteUrl);
    expect(await page.title()).toBe('Hello from the test');
    await browser.close();

    // The http(s) form of connect_url works too: Playwright asks /json/version first.
    const viaHttp = await chromium.connectOverCDP(s.connect_url!.replace(/^ws/, 'http'));
    expect(viaHttp.version()).toMatch(/^\d+\./);
    await viaHttp.close();

    const ended = await end(s.session_id);
    expect(ended).toMatchObject({ state: 'ended', end_reason: 'stopped' });
    expect(ended.ended_at).not.toBeNull();
    expect(await waitForNoServiceProcesses(server.dataDir)).toEqual([]);
    expect(events).toEqual(['session.started', 'session.ended']);
    offs.forEach((off) => off());
  });

  it('works with Puppeteer connect({ browserWSEndpoint: connect_url }); its browser.close() stops the session', async () => {
    const s = await create();
    const browser = await puppeteer.connect({ browserWSEndpoint: s.connect_url!, defaultViewport: null });
    const page = await browser.newPage();
    await page.goto(siteUrl);
    expect(await page.title()).toBe('Hello from the test');
    expect(await browser.version()).toMatch(/Chrome\/\d+/);
    const ended = new Promise<BusEvents['session.ended']>((resolve) => {
      const off = server.app.bus.on('session.ended', (e) => e.session_id === s.session_id && (off(), resolve(e)));
    });
    // Puppeteer's close() sends Browser.close: the client ended its browser, which is not a crash.
    await browser.close();
    expect((await ended).reason).toBe('stopped');
    expect(await waitForNoServiceProcesses(server.dataDir)).toEqual([]);
  });

  it('applies session_data (cookies and localStorage) before handing out the URLs', async () => {
    const origin = siteUrl;
    const state = {
      cookies: [
        {
          name: 'sid',
          value: 'abc123',
          domain: '127.0.0.1',
          path: '/',
          expires: -1,
          httpOnly: true,
          secure: false,
          sameSite: 'Lax',
        },
      ],
      origins: [{ origin, localStorage: [{ name: 'theme', value: 'dark' }] }],
    };
    const s = await create({ session_data: JSON.stringify(state) });
    const browser = await chromium.connectOverCDP(s.connect_url!);
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(`${siteUrl}/echo`);
    expect(await page.textContent('#cookie')).toBe('sid=abc123');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await browser.close();
    await end(s.session_id);
  });

  it('routes the browser through PROXY_URL when proxies is true', async () => {
    const s = await create({ proxies: true });
    expect(Session.parse(await (await server.api(`/api/sessions/${s.session_id}`)).json()).proxies).toBe(true);
    const browser = await chromium.connectOverCDP(s.connect_url!);
    const page = await browser.contexts()[0]!.newPage();
    await page.goto('http://shop.example.test/cart');
    expect(await page.title()).toBe('via the proxy');
    expect(proxied).toContain('http://shop.example.test/cart');
    await browser.close();
    await end(s.session_id);
  });

  it('answers 422 naming session_data when the browser refuses it, and leaves nothing running', async () => {
    const bad = { cookies: [{ name: 'a', value: 'b', domain: 'bad domain with spaces', path: '/' }], origins: [] };
    const res = await postJson(server, '/api/create_workflow_session', {
      workflow_name: 'sessions-test',
      session_data: JSON.stringify(bad),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual(['session_data']);
    expect(await waitForNoServiceProcesses(server.dataDir)).toEqual([]);
  });

  it('lists sessions, filtered by state', async () => {
    const s = await create();
    const live = SessionsPage.parse(await (await server.api('/api/sessions?state=live')).json());
    expect(live.items.map((i) => i.id)).toEqual([s.session_id]);
    await end(s.session_id);
    const ended = SessionsPage.parse(await (await server.api('/api/sessions?state=ended&limit=100')).json());
    expect(ended.items.map((i) => i.id)).toContain(s.session_id);
    expect(ended.items.every((i) => i.state === 'ended')).toBe(true);
    const none = SessionsPage.parse(await (await server.api('/api/sessions?state=live')).json());
    expect(none.items).toEqual([]);
    expect((await server.api('/api/sessions?state=sleeping')).status).toBe(422);
    expect((await server.api(`/api/sessions/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await server.api(`/api/sessions/${crypto.randomUUID()}`, { method: 'DELETE' })).status).toBe(404);
    // Ending twice changes nothing.
    expect((await end(s.session_id)).end_reason).toBe('stopped');
  });

  it("names each session's workflow, and a workflow its new workflow_name made stays out of the Workflows list", async () => {
    const name = `made by a session ${crypto.randomUUID()}`;
    const s = await create({ workflow_name: name });
    const listed = SessionsPage.parse(await (await server.api('/api/sessions?state=live')).json());
    expect(listed.items.find((i) => i.id === s.session_id)).toMatchObject({
      workflow_id: s.workflow_id,
      workflow_name: name,
    });
    const workflows = (await (await server.api('/api/workflows?limit=100')).json()) as { items: { id: string }[] };
    expect(workflows.items.map((w) => w.id)).not.toContain(s.workflow_id);
    // Still there by id, and reused by the next session of that name.
    expect((await server.api(`/api/workflows/${s.workflow_id}`)).status).toBe(200);
    expect((await end(s.session_id)).workflow_name).toBe(name);
  });

  it('guards connect_url with its own token: wrong, missing, other capability, other session, ended', async () => {
    const a = await create();
    const b = await create();
    const url = new URL(a.connect_url!);
    const base = `${url.origin.replace('http', 'ws')}${url.pathname}`;
    const viewToken = new URL(a.livestream_url!).searchParams.get('token')!;
    const controlToken = new URL(a.vnc_url!).searchParams.get('token')!;
    const otherToken = new URL(b.connect_url!).searchParams.get('token')!;

    expect(await upgradeStatus(a.connect_url!)).toBe(101);
    expect(await upgradeStatus(`${base}?token=${'x'.repeat(43)}`)).toBe(401);
    expect(await upgradeStatus(base)).toBe(401);
    expect(await upgradeStatus(`${base}?token=${viewToken}`)).toBe(401);
    expect(await upgradeStatus(`${base}?token=${controlToken}`)).toBe(401);
    expect(await upgradeStatus(`${base}?token=${otherToken}`)).toBe(401);

    const httpBase = `http://${url.host}${url.pathname}`;
    expect((await fetch(`${httpBase}/json/version?token=${controlToken}`)).status).toBe(401);
    const version = (await (await fetch(`${httpBase}/json/version?token=${url.searchParams.get('token')}`)).json()) as {
      webSocketDebuggerUrl: string;
    };
    expect(version.webSocketDebuggerUrl).toBe(a.connect_url);

    // An unknown session answers exactly like a wrong token.
    const unknown = await fetch(`http://${url.host}/s/${crypto.randomUUID()}/cdp?token=${otherToken}`);
    const wrong = await fetch(`http://${url.host}${url.pathname}?token=${otherToken}`);
    expect([unknown.status, await unknown.text()]).toEqual([wrong.status, await wrong.text()]);

    // Stored as sha256 hashes only: no token appears anywhere in the row.
    const row = () => server.app.db.get<Record<string, unknown>>('SELECT * FROM sessions WHERE id = ?', [a.session_id]);
    const sha = (t: string) => createHash('sha256').update(t).digest('hex');
    expect(await row()).toMatchObject({
      view_hash: sha(viewToken),
      control_hash: sha(controlToken),
      cdp_hash: sha(url.searchParams.get('token')!),
    });
    expect(JSON.stringify(await row())).not.toContain(controlToken);

    // authorize(): capabilities as the seam describes them.
    expect(server.app.sessions.authorize(a.session_id, controlToken, 'view')?.id).toBe(a.session_id);
    expect(server.app.sessions.authorize(a.session_id, controlToken, 'control')?.id).toBe(a.session_id);
    expect(server.app.sessions.authorize(a.session_id, viewToken, 'control')).toBeNull();
    expect(server.app.sessions.authorize(a.session_id, undefined, 'view')).toBeNull();

    // An open CDP connection is closed when its session ends, and the token dies with it.
    const ws = new WebSocket(a.connect_url!);
    await new Promise((r) => ws.once('open', r));
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    await end(a.session_id);
    expect(await closed).toBe(1001);
    expect(await upgradeStatus(a.connect_url!)).toBe(401);
    expect(server.app.sessions.authorize(a.session_id, controlToken, 'view')).toBeNull();
    expect(await row()).toMatchObject({ view_hash: null, control_hash: null, cdp_hash: null });
    await end(b.session_id);
  });
});
