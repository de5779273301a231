import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { har as validateHar } from 'har-validator';
import { Har } from '../contract/har.ts';
import { SessionEvent } from '../contract/sessionEvents.ts';
import { AUTH_TOKEN, BIG_BYTES, COOKIE_VALUE, startNetworkSite, type NetworkSite } from './fixtures/networkSite.ts';
import { callTool, mcpClient, textOf } from './helpers/mcpClient.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';

/**
 * Each session's network and console record: read by the MCP tools while it is live (credentials
 * hidden, bodies bounded), told in its live log, written as a HAR 1.2 at its end.
 */
const SECRET = 'hunter2-network-secret';
let server: TestServer;
let site: NetworkSite;
let client: Client;

beforeAll(async () => {
  server = await startServer();
  site = await startNetworkSite(SECRET);
  client = await mcpClient(server);
  const stored = await server.api('/api/store_credential', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'site_password', value: SECRET }),
  });
  expect(stored.status).toBe(200);
});

afterAll(async () => {
  await client?.close();
  await closeLeavingNothing(server);
  await site?.close();
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return callTool(client, name, args);
}

async function newSession(startUrl?: string): Promise<string> {
  const res = await call('session_create', { ...(startUrl ? { start_url: startUrl } : {}) });
  expect(res.isError, textOf(res)).toBeFalsy();
  return (JSON.parse((res.content[0] as { text: string }).text) as { session_id: string }).session_id;
}

/** browser_network_requests' text once it lists a line matching `line` (the page's fetches run after load). */
async function requestsUntil(id: string, line: RegExp): Promise<string> {
  const until = Date.now() + 20_000;
  for (;;) {
    const res = await call('browser_network_requests', { session_id: id });
    expect(res.isError, textOf(res)).toBeFalsy();
    const text = textOf(res);
    if (line.test(text) || Date.now() > until) return text;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const indexOf = (list: string, line: RegExp) => {
  const found = list.split('\n').find((l) => line.test(l));
  if (!found) throw new Error(`no request matching ${line} in:\n${list}`);
  return Number(/^\[(\d+)\]/.exec(found)![1]);
};

describe('network and console record', () => {
  let id: string;
  let other: string;

  it('lists the page requests with status and failure, and tells one in full with credentials hidden', async () => {
    id = await newSession(`${site.origin}/page`);
    const list = await requestsUntil(id, /GET .*\/auth => \[200\]/);
    expect(list).toMatch(/GET .*\/page => \[200\] OK \(Document/);
    expect(list).toMatch(/GET .*\/ok\?q=1 => \[200\]/);
    expect(list).toMatch(/GET .*\/missing => \[404\]/);
    expect(list).toMatch(/GET http:\/\/127\.0\.0\.1:1\/refused => failed: net::ERR_/);
    expect(list).toMatch(/POST .*\/echo => \[200\]/);

    const auth = indexOf(list, /\/auth =>/);
    const headers = textOf(await call('browser_network_request', { session_id: id, index: auth }));
    expect(headers).toMatch(/^authorization: \[redacted\]$/im);
    expect(headers).toMatch(/^cookie: \[redacted\]$/im);
    expect(headers).toMatch(/^set-cookie: \[redacted\]$/im);
    expect(headers).not.toContain(AUTH_TOKEN.split(' ')[1]);
    expect(headers).not.toContain(COOKIE_VALUE);

    const echo = indexOf(list, /POST .*\/echo/);
    const sent = textOf(await call('browser_network_request', { session_id: id, index: echo, part: 'request-body' }));
    expect(sent).toContain('"hello":"world"');
    expect(sent).toContain('[credentials.site_password]');
    expect(sent).not.toContain(SECRET);
    const echoed = textOf(
      await call('browser_network_request', { session_id: id, index: echo, part: 'response-body' }),
    );
    expect(echoed).toContain('[credentials.site_password]');
    expect(echoed).not.toContain(SECRET);

    const ok = indexOf(list, /\/ok\?q=1/);
    const body = textOf(await call('browser_network_request', { session_id: id, index: ok, part: 'response-body' }));
    expect(JSON.parse(body)).toEqual({ ok: true, answer: 42 });

    const none = await call('browser_network_request', { session_id: id, index: 100_000 });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/No request has index 100000: the session has made \d+/);
  });

  it('answers console messages by level, since the last navigation or all', async () => {
    const info = textOf(await call('browser_console_messages', { session_id: id }));
    expect(info).toContain('[INFO] hello console');
    expect(info).toContain('[WARNING] careful');
    expect(info).toContain('[ERROR] bad thing');
    const errors = textOf(await call('browser_console_messages', { session_id: id, level: 'error' }));
    expect(errors).toContain('[ERROR] bad thing');
    expect(errors).not.toContain('hello console');
  });

  it("keeps another session's requests out of reach of this one's indexes", async () => {
    other = await newSession();
    const list = textOf(await call('browser_network_requests', { session_id: other }));
    expect(list).not.toContain(site.origin);
    const auth = indexOf(await requestsUntil(id, /\/auth/), /\/auth =>/);
    const res = await call('browser_network_request', { session_id: other, index: auth });
    expect(textOf(res)).not.toContain('/auth');
    const unknown = await call('browser_network_requests', { session_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/session not found/i);
  });

  it('a 100 MB body is sized, not kept, and the server goes on', async () => {
    const res = await call('browser_navigate', { session_id: id, url: `${site.origin}/fetch-big` });
    expect(res.isError, textOf(res)).toBeFalsy();
    const list = await requestsUntil(id, /\/big => \[200\].*ms\)/);
    const big = indexOf(list, /\/big =>/);
    const answer = textOf(await call('browser_network_request', { session_id: id, index: big, part: 'response-body' }));
    expect(answer.length).toBeLessThan(1000);
    expect(answer).toMatch(new RegExp(`${BIG_BYTES} bytes, not kept: over the \\d+ bytes a body may take`));
    expect((await server.api('/api/healthz')).status).toBe(200);
    // A navigation starts the console over: all: true has the earlier ones still.
    expect(textOf(await call('browser_console_messages', { session_id: id }))).toBe('No console messages');
    expect(textOf(await call('browser_console_messages', { session_id: id, all: true }))).toContain('bad thing');
  });

  it('tells each request in the live log', async () => {
    const res = await server.api(`/api/session/${id}/events?limit=1000`);
    const events = ((await res.json()) as { events: unknown[] }).events.map((e) => SessionEvent.parse(e));
    const requests = events.flatMap((e) => (e.event === 'NetworkRequest' ? [e] : []));
    expect(requests.find((e) => e.url.endsWith('/missing'))?.status).toBe(404);
    expect(requests.find((e) => e.url.endsWith('/ok?q=1'))).toMatchObject({
      method: 'GET',
      status: 200,
      type: 'Fetch',
    });
    // Its bytes on the wire: the 23-byte body and the response's headers.
    expect(requests.find((e) => e.url.endsWith('/ok?q=1'))?.size).toBeGreaterThan(23);
    expect(requests.find((e) => e.url.endsWith('/refused'))?.failed).toMatch(/^net::ERR_/);
  });

  it("answers a live session's HAR so far, said to be a snapshot, then writes it at the end, served with the key for that session only, with no credential in it", async () => {
    const live = await server.api(`/api/sessions/${id}/har`);
    expect(live.status).toBe(200);
    expect(live.headers.get('content-disposition')).toContain(`session-${id}.har`);
    const liveText = await live.text();
    for (const secret of [SECRET, AUTH_TOKEN.split(' ')[1]!, COOKIE_VALUE]) expect(liveText).not.toContain(secret);
    const snapshot: unknown = JSON.parse(liveText);
    await expect(validateHar(snapshot)).resolves.toBe(snapshot);
    const sofar = Har.parse(snapshot);
    expect(sofar.log.comment).toMatch(/^A snapshot of a live session at \d{4}-/);
    expect(Date.parse(sofar.log._snapshotAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect(sofar.log.entries.find((e) => e.request.url.endsWith('/ok?q=1'))?.response.status).toBe(200);
    // Live as ended: nothing without the key, under any spelling of the path.
    for (const spelling of [`/api/sessions/${id}/har`, `/api/sessions/${id}/%68ar`, `/api//sessions/${id}/har`]) {
      const res = await fetch(`${server.url}${spelling}`);
      expect([401, 404]).toContain(res.status);
      expect(await res.text()).not.toContain('/ok?q=1');
    }

    expect((await call('session_close', { session_id: id })).isError).toBeFalsy();
    expect((await call('session_close', { session_id: other })).isError).toBeFalsy();

    const noKey = await fetch(`${server.url}/api/sessions/${id}/har`);
    expect(noKey.status).toBe(401);
    const wrongKey = await fetch(`${server.url}/api/sessions/${id}/har`, { headers: { 'x-api-key': 'test_nope' } });
    expect(wrongKey.status).toBe(401);
    const unknown = await server.api('/api/sessions/00000000-0000-4000-8000-000000000000/har');
    expect(unknown.status).toBe(404);

    const res = await server.api(`/api/sessions/${id}/har`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(`session-${id}.har`);
    const text = await res.text();
    // The file written at the end is no snapshot.
    const written = JSON.parse(text) as { log: { comment?: string; _snapshotAt?: string } };
    expect(written.log.comment ?? '').not.toMatch(/snapshot/);
    expect(written.log._snapshotAt).toBeUndefined();
    for (const secret of [SECRET, AUTH_TOKEN.split(' ')[1]!, COOKIE_VALUE]) expect(text).not.toContain(secret);
    const har = Har.parse(JSON.parse(text));
    // Also against the community's HAR 1.2 JSON Schema (har-validator), a check not written from our own schema.
    const parsed: unknown = JSON.parse(text);
    await expect(validateHar(parsed)).resolves.toBe(parsed);
    const entry = (path: string) => har.log.entries.find((e) => e.request.url.endsWith(path));
    expect(entry('/missing')?.response.status).toBe(404);
    expect(entry('/ok?q=1')).toMatchObject({
      request: { method: 'GET', queryString: [{ name: 'q', value: '1' }] },
      response: { status: 200, content: { mimeType: 'application/json', text: '{"ok":true,"answer":42}' } },
    });
    expect(entry('/refused')?.response).toMatchObject({ status: 0 });
    expect(entry('/refused')?.response._error).toMatch(/^net::ERR_/);
    expect(entry('/echo')?.request.postData?.text).toContain('[credentials.site_password]');
    expect(entry('/big')?.response.content).toMatchObject({ size: BIG_BYTES });
    expect(entry('/big')?.response.content.text).toBeUndefined();
    // Each entry's page is one of the log's pages, as DevTools' importer expects.
    const pages = new Set(har.log.pages.map((p) => p.id));
    expect(har.log.entries.every((e) => e.pageref !== undefined && pages.has(e.pageref))).toBe(true);

    // The other session made no request of the site; its HAR is its own.
    const theirs = Har.parse(await (await server.api(`/api/sessions/${other}/har`)).json());
    expect(theirs.log.entries.some((e) => e.request.url.startsWith(site.origin))).toBe(false);
  });
});
