import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';

// create_workflow_session's own additions start_url and user_agent (issue 26, item 7): the first
// page opens the start URL before the URLs are handed out, and every page of the session, new
// tabs included, sends the User-Agent asked for.
let server: TestServer;
let site: http.Server;
let origin: string;
const seen: { url: string; ua: string }[] = [];
beforeAll(async () => {
  server = await startServer();
  site = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', ua: req.headers['user-agent'] ?? '' });
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<!doctype html><title>Start ${req.url}</title><p>start page</p>`);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server?.close();
  await new Promise((r) => site?.close(r));
});

async function create(body: Record<string, unknown>) {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'start-url-test', ...body });
  expect(res.status, await res.clone().text()).toBe(200);
  return CreateWorkflowSessionResponse.parse(await res.json());
}

describe('start_url and user_agent', () => {
  it('hands out a session whose first page is at the start URL, sending the User-Agent asked for, in new tabs too', async () => {
    const ua = 'BrowserdeskTest/1.0 (start-url)';
    const s = await create({ start_url: `${origin}/first?x=1`, user_agent: ua });
    const browser = await chromium.connectOverCDP(s.connect_url!);
    try {
      const page = browser
        .contexts()[0]!
        .pages()
        .find((p) => p.url().startsWith(origin));
      expect(page?.url()).toBe(`${origin}/first?x=1`);
      expect(seen.find((r) => r.url === '/first?x=1')?.ua).toBe(ua);
      expect(await page!.evaluate(() => navigator.userAgent)).toBe(ua);
      const tab = await browser.contexts()[0]!.newPage();
      await tab.goto(`${origin}/second`);
      expect(seen.find((r) => r.url === '/second')?.ua).toBe(ua);
    } finally {
      await browser.close();
      await server.api(`/api/sessions/${s.session_id}`, { method: 'DELETE' });
    }
  });

  it('a start URL that does not load still hands the session out', async () => {
    const s = await create({ start_url: 'http://127.0.0.1:1/nothing-here' });
    expect((await (await server.api(`/api/sessions/${s.session_id}`)).json()) as { state: string }).toMatchObject({
      state: 'live',
    });
    await server.api(`/api/sessions/${s.session_id}`, { method: 'DELETE' });
  });

  it('refuses other schemes, over-long URLs and a User-Agent with control characters, naming the field', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ start_url: 'javascript:alert(1)' }, 'start_url'],
      [{ start_url: 'file:///etc/passwd' }, 'start_url'],
      [{ start_url: 'chrome://settings' }, 'start_url'],
      [{ start_url: 'not a url' }, 'start_url'],
      [{ start_url: `http://example.com/${'a'.repeat(2100)}` }, 'start_url'],
      [{ user_agent: 'evil\r\nX-Injected: 1' }, 'user_agent'],
      [{ user_agent: '' }, 'user_agent'],
      [{ user_agent: 'x'.repeat(513) }, 'user_agent'],
      [{ user_agent: 'caf\u00e9' }, 'user_agent'],
    ];
    for (const [body, field] of bad) {
      const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'start-url-bad', ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      const err = (await res.json()) as { issues: { path: string }[] };
      expect(err.issues.map((i) => i.path)).toContain(field);
    }
  });
});
