import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, mcpClient, refOf, textOf } from '../helpers/mcpClient.ts';
import { sessionEventsRepo } from '../../server/store/sessionEvents.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

/**
 * /api/mcp as an attacker meets it: without the key, with another session's refs, with URLs the
 * sessions may not open (on a server with BROWSER_ALLOW_PRIVATE_NETWORKS off, as in production),
 * and with arguments and bodies of any shape.
 */
let server: TestServer;
let client: Client;
let site: http.Server;
let siteUrl: string;

beforeAll(async () => {
  server = await startServer();
  client = await mcpClient(server);
  site = http.createServer((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<title>secret intranet</title><button>Go</button><a href="/x">Link</a>'),
  );
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await client?.close();
  await server?.discard();
  site?.closeAllConnections();
  await new Promise((r) => site?.close(r));
});

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
};
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function post(body: string, headers: Record<string, string>) {
  return fetch(`${server.url}/api/mcp`, { method: 'POST', headers: { ...mcpHeaders, ...headers }, body });
}

async function newSession(on = client): Promise<string> {
  const res = await callTool(on, 'session_create', { workflow_name: 'mcp-attacks', start_url: siteUrl });
  expect(res.isError, textOf(res)).toBeFalsy();
  return (JSON.parse((res.content[0] as { text: string }).text) as { session_id: string }).session_id;
}

describe('/api/mcp needs the API key', () => {
  it('answers 401 without it, with a wrong one in either header, and with the key in another scheme', async () => {
    const tries: Record<string, string>[] = [
      {},
      { 'x-api-key': 'wrong' },
      { authorization: 'Bearer wrong' },
      { authorization: `Basic ${Buffer.from(`x:${server.apiKey}`).toString('base64')}` },
      { authorization: server.apiKey },
      { authorization: `Bearer ${server.apiKey} extra` },
    ];
    for (const headers of tries) {
      const res = await post(JSON.stringify(initialize), headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(await res.text()).not.toContain('serverInfo');
    }
    const get = await fetch(`${server.url}/api/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(401);
    expect((await post(JSON.stringify(initialize), { authorization: `bearer ${server.apiKey}` })).status).toBe(200);
  });

  it('takes Bearer on /api/mcp only: the other routes still want X-API-Key', async () => {
    const res = await fetch(`${server.url}/api/sessions`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(res.status).toBe(401);
    expect((await server.api('/api/sessions')).status).toBe(200);
  });

  it('answers GET with 405 (a stateless server streams nothing), never a hanging stream', async () => {
    const res = await fetch(`${server.url}/api/mcp`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${server.apiKey}` },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('tool calls an attacker shapes', () => {
  it("refuses a ref from another session's snapshot, and a made-up or stale one", async () => {
    const a = await newSession();
    const b = await newSession();
    try {
      // The same page in both: Playwright numbers their elements alike (e2, e3), ours are told apart.
      const refA = refOf(textOf(await callTool(client, 'browser_snapshot', { session_id: a })), /button "Go"/);
      const refB = refOf(textOf(await callTool(client, 'browser_snapshot', { session_id: b })), /button "Go"/);
      expect(refA.split('-')[1]).toBe(refB.split('-')[1]);
      expect(refB).not.toBe(refA);
      const cross = await callTool(client, 'browser_click', { session_id: b, element: 'the page', ref: refA });
      expect(cross.isError).toBe(true);
      expect(textOf(cross)).toMatch(/another session.*take a new snapshot/i);
      const cursor = await callTool(client, 'browser_snapshot', { session_id: b, cursor: `${refA.split('-')[0]}:1` });
      expect(cursor.isError).toBe(true);
      expect(textOf(cursor)).toMatch(/another session/);

      for (const ref of ['e1', 'zzzzzz-e1', `${refA.split('-')[0]}-e99999`, '../../etc']) {
        const res = await callTool(client, 'browser_click', { session_id: a, element: 'x', ref });
        expect(res.isError, ref).toBe(true);
        expect(textOf(res), ref).toMatch(/snapshot/);
      }
      // A newer snapshot makes the older one's refs stale.
      await callTool(client, 'browser_snapshot', { session_id: a });
      const stale = await callTool(client, 'browser_click', { session_id: a, element: 'x', ref: refA });
      expect(textOf(stale)).toMatch(/stale.*take a new snapshot/i);
    } finally {
      await callTool(client, 'session_close', { session_id: a });
      await callTool(client, 'session_close', { session_id: b });
    }
  });

  it('opens no file:, chrome: or javascript: URL, and a private address is refused by the egress policy', async () => {
    const strict = await startServer({ BROWSER_ALLOW_PRIVATE_NETWORKS: '0' });
    const on = await mcpClient(strict);
    const created = await callTool(on, 'session_create', { workflow_name: 'egress' });
    const id = (JSON.parse(textOf(created)) as { session_id: string }).session_id;
    try {
      for (const url of [
        'file:///etc/passwd',
        'chrome://settings',
        'javascript:alert(1)',
        'data:text/html,hi',
        'view-source:http://example.com',
      ]) {
        const res = await callTool(on, 'browser_navigate', { session_id: id, url });
        expect(res.isError, url).toBe(true);
        expect(textOf(res), url).toMatch(/url: url must be an http:\/\/ or https:\/\/ URL/);
      }
      const startFile = await callTool(on, 'session_create', { start_url: 'file:///etc/passwd' });
      expect(startFile.isError).toBe(true);

      for (const url of [siteUrl, `${strict.url}/api/healthz`]) {
        const res = await callTool(on, 'browser_navigate', { session_id: id, url });
        expect(res.isError, url).toBe(true);
        expect(textOf(res), url).toMatch(/BROWSER_ALLOW_PRIVATE_NETWORKS/);
      }
      const snap = textOf(await callTool(on, 'browser_snapshot', { session_id: id }));
      expect(snap).not.toContain('secret intranet');
    } finally {
      await on.close();
      await strict.discard();
    }
  });

  it('answers arguments that fail the schema with an error result naming the field, never a protocol failure', async () => {
    const cases: [string, unknown][] = [
      ['browser_navigate', {}],
      ['browser_navigate', { session_id: 'not-a-uuid', url: 'http://example.com' }],
      ['browser_snapshot', { session_id: '00000000-0000-4000-8000-000000000000', max_tokens: -5 }],
      ['browser_snapshot', { session_id: '00000000-0000-4000-8000-000000000000', max_tokens: 1e12 }],
      ['browser_type', { session_id: '00000000-0000-4000-8000-000000000000', element: 'x', ref: 'a', text: 5 }],
      ['session_create', { timeout: 'forever' }],
      ['session_create', { surprise: true }],
      ['browser_press_key', { session_id: '00000000-0000-4000-8000-000000000000', key: '\u0000<script>' }],
    ];
    for (const [name, args] of cases) {
      const res = await callTool(client, name, args as Record<string, unknown>);
      expect(res.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(res)).toMatch(/^Invalid arguments for /);
    }
    const unknown = await callTool(client, 'browser_format_disk', {});
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/No tool is named/);
  });

  it('says plainly that a session does not exist', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const name of [
      'browser_snapshot',
      'browser_navigate',
      'session_status',
      'session_close',
      'browser_take_screenshot',
    ]) {
      const res = await callTool(client, name, {
        session_id: id,
        ...(name === 'browser_navigate' ? { url: 'https://example.com' } : {}),
      });
      expect(res.isError, name).toBe(true);
      expect(textOf(res), name).toMatch(/Session not found/);
    }
    // Calls on an unknown id leave nothing in the event log.
    expect(await sessionEventsRepo(server.app.db).count(id)).toBe(0);
  });

  it('answers bodies of any shape with a JSON-RPC or HTTP error, never a 500, and keeps serving', async () => {
    const key = { authorization: `Bearer ${server.apiKey}` };
    const bodies = [
      '{',
      '[]',
      'null',
      '{"jsonrpc":"2.0"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":{"$gt":1},"arguments":[1,2]}}',
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'browser_snapshot', arguments: { session_id: 'x'.repeat(100_000) } },
      }),
      JSON.stringify([initialize, initialize]),
      JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 'no/such/method' }),
      JSON.stringify({ ...initialize, params: { protocolVersion: 7 } }),
    ];
    for (const body of bodies) {
      const res = await post(body, key);
      expect(res.status, body.slice(0, 80)).toBeLessThan(500);
      const text = await res.text();
      expect(text, body.slice(0, 80)).not.toMatch(/at .*\.ts:\d+/);
    }
    expect((await post('{}', { ...key, 'content-type': 'text/plain' })).status).toBeLessThan(500);
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);
  });
});
