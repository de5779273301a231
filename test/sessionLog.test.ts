import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsPage, SessionLogs } from '../contract/sessionEvents.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { waitForAsync } from './helpers/wait.ts';

// The session log: what a CDP client did in the session, as the log tells it afterwards.
let server: TestServer;
let site: http.Server;
let origin: string;
beforeAll(async () => {
  server = await startServer();
  site = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Log me</title>
<script>console.log('hello from the page', 42); console.warn('${'w'.repeat(3000)}'); setTimeout(() => { throw new Error('boom in the page'); });</script>`),
  );
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server?.close();
  await new Promise((r) => site?.close(r));
});

describe('the session log', () => {
  it('records navigations, console messages (truncated), page errors and the CDP client; null while live, the whole log once ended', async () => {
    const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'logged' });
    const s = (await res.json()) as { session_id: string; connect_url: string };
    const browser = await chromium.connectOverCDP(s.connect_url);
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    await page.goto(`${origin}/logged`);
    // The page's error comes a task after its console lines: all of it is in the log before the session ends.
    await waitForAsync('the page error in the log', async () => {
      const res = await server.api(`/api/session/${s.session_id}/events?limit=1000`);
      return EventsPage.parse(await res.json()).events.some((e) => e.event === 'PageError') ? true : undefined;
    });
    expect(await (await server.api(`/api/retrieve_session_logs/${s.session_id}`)).json()).toEqual({ logs: null });
    await browser.close().catch(() => undefined);
    await server.api(`/api/sessions/${s.session_id}`, { method: 'DELETE' });

    const { logs } = SessionLogs.parse(await (await server.api(`/api/retrieve_session_logs/${s.session_id}`)).json());
    const events = logs!;
    expect(events.map((e) => e.index)).toEqual(events.map((_e, i) => i));
    const kinds = events.map((e) => e.event);
    expect(kinds[0]).toBe('SessionStarted');
    expect(kinds.at(-1)).toBe('SessionEnded');
    expect(events).toContainEqual(expect.objectContaining({ event: 'Navigated', url: `${origin}/logged` }));
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'ConsoleMessage', level: 'log', text: 'hello from the page 42' }),
    );
    const warning = events.find((e) => e.event === 'ConsoleMessage' && e.level === 'warning');
    expect(warning && 'text' in warning ? warning.text.length : 0).toBe(1000);
    expect(events.find((e) => e.event === 'PageError')).toMatchObject({
      text: expect.stringContaining('boom in the page'),
    });
    const clients = events
      .filter((e) => e.event === 'ClientConnected' || e.event === 'ClientDisconnected')
      .map((e) => `${e.event}:${'client' in e ? e.client : ''}`);
    expect(clients).toContain('ClientConnected:cdp');
    expect(clients).toContain('ClientDisconnected:cdp');
  });
});
