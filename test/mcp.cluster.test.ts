import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFormSite, type FormSite } from './fixtures/formSite.ts';
import { callTool, mcpClient, refOf, textOf } from './helpers/mcpClient.ts';
import { startServer, type TestServer } from './helpers/server.ts';

/**
 * Two nodes (as test/cluster.forward.test.ts sets them up): an agent talking to node A drives a
 * session node B holds. A is told B holds it by overriding its routing, which the membership
 * fills in a real cluster.
 */
const shared = {
  BROWSERDESK_API_KEY: `test_${randomBytes(16).toString('hex')}`,
  BROWSERDESK_SECRET_KEY: randomBytes(32).toString('hex'),
};
let a: TestServer;
let b: TestServer;
let site: FormSite;
let viaA: Client;
let onB: Client;

beforeAll(async () => {
  [a, b] = await Promise.all([startServer(shared), startServer(shared)]);
  site = await startFormSite();
  viaA = await mcpClient(a);
  onB = await mcpClient(b);
});

afterAll(async () => {
  await viaA?.close();
  await onB?.close();
  await a?.close();
  await b?.close();
  await site?.close();
});

describe('MCP tool calls in a cluster', () => {
  it("are answered by the node that holds the call's session", async () => {
    const created = await callTool(onB, 'session_create', {
      workflow_name: 'mcp cluster',
      start_url: `${site.origin}/form`,
    });
    const id = (JSON.parse((created.content[0] as { text: string }).text) as { session_id: string }).session_id;
    // Without routing, A does not know the session.
    expect(textOf(await callTool(viaA, 'browser_snapshot', { session_id: id }))).toMatch(/Session not found/);

    const bUrl = b.url;
    a.app.cluster.ownerUrl = async (sid: string) => (sid === id ? bUrl : null);
    const snap = await callTool(viaA, 'browser_snapshot', { session_id: id });
    expect(snap.isError, textOf(snap)).toBeFalsy();
    const name = refOf(textOf(snap), /textbox "Name"/);
    // A ref from a snapshot taken through A works through B directly: it is one session, one snapshot.
    const typed = await callTool(onB, 'browser_type', {
      session_id: id,
      element: 'Name',
      ref: name,
      text: 'Via B',
      submit: true,
    });
    expect(typed.isError, textOf(typed)).toBeFalsy();
    // The browser posts the form in its own time: expect.poll's 1 s is not enough on a loaded host.
    await expect.poll(() => site.submissions.at(-1)?.name, { timeout: 30_000 }).toBe('Via B');

    // A wrong key is refused by A itself, never passed on.
    const res = await fetch(`${a.url}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer wrong',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'browser_snapshot', arguments: { session_id: id } },
      }),
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(textOf(await callTool(viaA, 'session_close', { session_id: id })))).toMatchObject({
      state: 'ended',
    });
  });
});
