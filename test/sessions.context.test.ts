import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { CreatedApiKey } from '../contract/apiKeys.ts';
import { CreateWorkflowSessionResponse, Session } from '../contract/sessions.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { browserProcess, serviceProcesses } from './helpers/processes.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';
import { waitForAsync as waitFor } from './helpers/wait.ts';
import { createWorkflow, runWorkflow, untilCompleted } from './helpers/runs.ts';
import { callTool, mcpClient, textOf } from './helpers/mcpClient.ts';

// Context sessions (README, "Context sessions"): a session as an off-the-record browser context in
// a browser that sessions of one API key share. Real Chromium, through the real server.
let server: TestServer;
let site: http.Server;
let siteUrl: string;

beforeAll(async () => {
  server = await startServer({ WARM_POOL_SIZE: '1', CONTEXTS_PER_BROWSER: '3', CONTEXT_BROWSER_IDLE_S: '600' });
  site = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    if (req.url === '/set') res.setHeader('set-cookie', 'who=first; Path=/');
    res.end(`<!doctype html><title>ctx ${req.url}</title><pre id="cookie">${req.headers.cookie ?? ''}</pre>`);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await closeLeavingNothing(server);
  await new Promise((r) => site?.close(r));
});

async function create(body: Record<string, unknown> = {}, apiKey?: string) {
  const res = apiKey
    ? await fetch(`${server.url}/api/create_workflow_session`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ workflow_name: 'context-test', ...body }),
      })
    : await postJson(server, '/api/create_workflow_session', { workflow_name: 'context-test', ...body });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return CreateWorkflowSessionResponse.parse(JSON.parse(text));
}

async function stateOf(id: string) {
  const res = await server.api(`/api/sessions/${id}`);
  return Session.parse(await res.json());
}

const end = (id: string) => server.api(`/api/sessions/${id}`, { method: 'DELETE' });

/** Chromium browser processes (not their children) of this server: one per browser. */
const browsers = () =>
  serviceProcesses(server.dataDir).filter((p) => p.name === 'chromium' && !/(^| )--type=/.test(p.cmdline));

describe('context sessions', () => {
  it('share one browser per key, each its own context that Playwright and Puppeteer drive unchanged', async () => {
    const a = await create({ isolation: 'context', start_url: `${siteUrl}/set` });
    const b = await create({ isolation: 'context' });
    expect(a.isolation).toBe('context');
    expect(b.isolation).toBe('context');
    expect((await stateOf(a.session_id)).isolation).toBe('context');
    // Both in one browser: a browser session would have started a second.
    expect(server.app.sessions.placesUsed).toBe(1);

    const pw = await chromium.connectOverCDP(a.connect_url!);
    try {
      const [context] = pw.contexts();
      const pages = context!.pages();
      expect(pages.map((p) => p.url())).toEqual([`${siteUrl}/set`]);
      expect(await pages[0]!.locator('#cookie').textContent()).toBe('');
      // Its cookie is its own: the other session's context sends none.
      const page = await context!.newPage();
      await page.goto(`${siteUrl}/echo`);
      expect(await page.locator('#cookie').textContent()).toBe('who=first');
      expect(context!.pages()).toHaveLength(2);
    } finally {
      await pw.close();
    }

    const pp = await puppeteer.connect({ browserWSEndpoint: b.connect_url!, defaultViewport: null });
    try {
      const pages = await pp.pages();
      expect(pages).toHaveLength(1);
      await pages[0]!.goto(`${siteUrl}/echo`);
      expect(await pages[0]!.$eval('#cookie', (e) => e.textContent)).toBe('');
    } finally {
      await pp.disconnect();
    }
    expect((await stateOf(a.session_id)).state).toBe('live');
    await end(a.session_id);
    await end(b.session_id);
  });

  it('takes a browser of its own for what only a launch can give, and refuses presentation browser outright', async () => {
    const ua = await create({ isolation: 'context', user_agent: 'Browserdesk-Test/1.0' });
    expect(ua.isolation).toBe('browser');
    expect((await stateOf(ua.session_id)).isolation).toBe('browser');
    await end(ua.session_id);

    const res = await postJson(server, '/api/create_workflow_session', {
      workflow_name: 'context-test',
      isolation: 'context',
      presentation: 'browser',
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain('presentation');

    const bad = await postJson(server, '/api/create_workflow_session', { workflow_name: 'x', isolation: 'tab' });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain('isolation');
  });

  it('keeps keys apart: another key gets a browser of its own', async () => {
    const made = await postJson(server, '/api/keys', { name: 'second key' });
    expect(made.status).toBe(201);
    const other = CreatedApiKey.parse(await made.json());
    const before = browsers().length;
    const mine = await create({ isolation: 'context' });
    const theirs = await create({ isolation: 'context' }, other.key);
    const inBrowsers = new Set(browsers().map((p) => p.tree));
    // Two browsers beyond what ran before at most (one may have been the warm pool's, taken).
    expect(inBrowsers.size).toBeGreaterThanOrEqual(2);
    expect(browsers().length).toBeGreaterThanOrEqual(before);
    expect(server.app.sessions.placesUsed).toBe(2);
    await end(mine.session_id);
    await end(theirs.session_id);
  });

  it('fills a browser to CONTEXTS_PER_BROWSER, then starts the next', async () => {
    const made = await Promise.all([1, 2, 3, 4].map(() => create({ isolation: 'context' })));
    expect(made.every((m) => m.isolation === 'context')).toBe(true);
    // Three fit in the key's first browser (CONTEXTS_PER_BROWSER=3), the fourth needs another.
    expect(server.app.sessions.placesUsed).toBeGreaterThanOrEqual(2);
    for (const m of made) expect((await stateOf(m.session_id)).state).toBe('live');
    await Promise.all(made.map((m) => end(m.session_id)));
  });

  it("Browser.close from a client ends its session only; the browser's crash ends its sessions as crashed", async () => {
    const a = await create({ isolation: 'context' });
    const b = await create({ isolation: 'context' });
    const pp = await puppeteer.connect({ browserWSEndpoint: a.connect_url!, defaultViewport: null });
    await pp.close();
    await waitFor('the closed session ended', async () => (await stateOf(a.session_id)).state === 'ended' || undefined);
    expect((await stateOf(a.session_id)).end_reason).toBe('stopped');
    expect((await stateOf(b.session_id)).state).toBe('live');

    const c = await create({ isolation: 'context' });
    const tree = browsers().find((p) => serviceProcesses(server.dataDir).some((q) => q.tree === p.tree))!.tree!;
    process.kill(browserProcess(server.dataDir, tree).pid, 'SIGKILL');
    for (const s of [b, c]) {
      await waitFor('the shared browser’s sessions ended', async () =>
        (await stateOf(s.session_id)).state === 'ended' ? true : undefined,
      );
      expect((await stateOf(s.session_id)).end_reason).toBe('crashed');
    }
    // The next context session of the key starts in a new browser.
    const d = await create({ isolation: 'context' });
    expect((await stateOf(d.session_id)).state).toBe('live');
    await end(d.session_id);
  });

  it('runs a workflow in a context session when the run asks, and it replays as in a browser of its own', async () => {
    const workflow_id = await createWorkflow(server, {
      name: 'context run',
      flow: {
        title: 'context run',
        steps: [
          { type: 'navigate', url: `${siteUrl}/run` },
          { type: 'waitForElement', selectors: [['#cookie']] },
        ],
      },
    });
    const started = await runWorkflow(server, { workflow_id, isolation: 'context' });
    expect(started.body.succeeded, started.body.message).toBe(true);
    const status = await untilCompleted(server, started.body.session_id!);
    expect(status.status, status.message).toBe('succeeded');
    expect((await stateOf(started.body.session_id!)).isolation).toBe('context');

    const form = new FormData();
    form.append('workflow_id', workflow_id);
    form.append('isolation', 'shared');
    const bad = await server.api('/api/run_workflow', { method: 'POST', body: form });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('isolation');
  });

  it("MCP's session_create makes a context session when asked, in the calling key's browser", async () => {
    const client = await mcpClient(server);
    try {
      const made = textOf(await callTool(client, 'session_create', { isolation: 'context' }));
      const { session_id, isolation } = JSON.parse(made.split('\n\n')[0]!.split('\nOpened')[0]!) as {
        session_id: string;
        isolation: string;
      };
      expect(isolation).toBe('context');
      expect((await stateOf(session_id)).isolation).toBe('context');
      // The agent tools drive it through the same scoped view: its own page, nobody else's.
      const other = await create({ isolation: 'context', start_url: `${siteUrl}/other` });
      expect(textOf(await callTool(client, 'browser_navigate', { session_id, url: `${siteUrl}/mine` }))).toContain(
        'ctx /mine',
      );
      const tabs = textOf(await callTool(client, 'browser_tabs', { session_id, action: 'list' }));
      expect(tabs).toContain('/mine');
      expect(tabs).not.toContain('/other');
      await end(other.session_id);
      await callTool(client, 'session_close', { session_id });
    } finally {
      await client.close();
    }
  });
});
