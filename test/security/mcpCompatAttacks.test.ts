import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startCompatSite, type CompatSite } from '../fixtures/compatSite.ts';
import { callTool, mcpClient, refOf, textOf } from '../helpers/mcpClient.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

/** What an attacker tries with playwright-mcp 0.0.83's arguments and the tools it added. */
let server: TestServer;
let site: CompatSite;
let client: Client;

beforeAll(async () => {
  server = await startServer();
  site = await startCompatSite();
  client = await mcpClient(server, 'bearer', '/api/mcp?caps=evaluate,pdf');
});

afterAll(async () => {
  await client?.close();
  await server?.discard();
  await site?.close();
});

const sessionOf = (res: { content: unknown[] }) =>
  (JSON.parse((res.content[0] as { text: string }).text) as { session_id: string }).session_id;

describe('targets and evaluate an attacker shapes', () => {
  it("refuses another session's ref given as target (and in drag, find's refs, evaluate), and a selector applies to the named session's page only", async () => {
    const a = sessionOf(await callTool(client, 'session_create', { start_url: `${site.origin}/` }));
    const b = sessionOf(await callTool(client, 'session_create', { start_url: `${site.origin}/second` }));
    try {
      const refA = refOf(textOf(await callTool(client, 'browser_snapshot', { session_id: a })), /button "Click me"/);
      await callTool(client, 'browser_snapshot', { session_id: b });
      for (const [tool, args] of [
        ['browser_click', { target: refA }],
        ['browser_hover', { ref: refA }],
        ['browser_evaluate', { function: '(e) => e.outerHTML', target: refA }],
        ['browser_drag', { startTarget: refA, endTarget: 'h1' }],
        ['browser_drop', { target: refA, data: { 'text/plain': 'x' } }],
      ] as const) {
        const res = await callTool(client, tool, { session_id: b, ...args });
        expect(res.isError, tool).toBe(true);
        expect(textOf(res), tool).toMatch(/another session/);
      }
      // #clicker is on a's page: on b's it matches nothing, and a's page is untouched.
      const cross = await callTool(client, 'browser_click', { session_id: b, target: '#clicker' });
      expect(textOf(cross)).toMatch(/matches 0 elements/);
      // Playwright's other selector engines are not taken: only CSS.
      for (const target of ['aria-ref=e2', 'xpath=//button', 'text=Click me', '../../etc/passwd']) {
        const res = await callTool(client, 'browser_click', { session_id: a, target });
        expect(res.isError, target).toBe(true);
        expect(textOf(res), target).toMatch(/snapshot|CSS selector|matches 0/);
      }
      const clicks = await callTool(client, 'browser_evaluate', {
        session_id: a,
        function: '() => window.seen.clicks.length',
      });
      expect(JSON.parse(textOf(clicks))).toBe(0);
    } finally {
      await callTool(client, 'session_close', { session_id: a });
      await callTool(client, 'session_close', { session_id: b });
    }
  });

  it('evaluate reaches no file:, chrome: or private address (egress off), and a hostile result stays bounded', async () => {
    const strict = await startServer({ BROWSER_ALLOW_PRIVATE_NETWORKS: '0' });
    const on = await mcpClient(strict, 'bearer', '/api/mcp?caps=evaluate');
    try {
      const id = sessionOf(await callTool(on, 'session_create', { workflow_name: 'evaluate egress' }));
      const tryFetch = (url: string) =>
        callTool(on, 'browser_evaluate', {
          session_id: id,
          function: `async () => { try { const r = await fetch(${JSON.stringify(url)}); return 'read ' + (await r.text()).slice(0, 200); } catch (e) { return 'failed: ' + e; } }`,
        });
      for (const url of ['file:///etc/passwd', 'chrome://settings', `${site.origin}/`, `${strict.url}/api/healthz`]) {
        const res = await tryFetch(url);
        expect(res.isError, url).toBeFalsy();
        expect(textOf(res), url).toMatch(/failed/);
        expect(textOf(res), url).not.toMatch(/root:|Compat page|ok/);
      }
      const toChrome = await callTool(on, 'browser_evaluate', {
        session_id: id,
        function:
          "async () => { location.href = 'chrome://settings'; await new Promise((r) => setTimeout(r, 500)); return location.href; }",
      });
      expect(textOf(toChrome)).not.toMatch(/^"chrome:/);
      // A page that replaces JSON.stringify cannot make the answer unbounded.
      const tampered = await callTool(on, 'browser_evaluate', {
        session_id: id,
        function: "() => { JSON.stringify = () => 'y'.repeat(5_000_000); return 1; }",
      });
      expect(textOf(tampered).length).toBeLessThan(101_000);
      expect(textOf(tampered)).toMatch(/only the first 100,000 are shown/);
      const health = await fetch(`${strict.url}/api/healthz`);
      expect(health.status).toBe(200);
      await callTool(on, 'session_close', { session_id: id });
    } finally {
      await on.close();
      await strict.discard();
    }
  });
});
