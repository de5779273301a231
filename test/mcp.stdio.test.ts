import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { callTool, textOf } from './helpers/mcpClient.ts';
import { startServer, type TestServer } from './helpers/server.ts';

/** `browserdesk mcp`: a desktop agent's stdio MCP client reaches the running server's tools through the bridge. */
const BIN = path.resolve(import.meta.dirname, '../bin/browserdesk.mjs');
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.discard();
});

function bridged(
  args: string[],
  env: Record<string, string> = {},
): { client: Client; transport: StdioClientTransport } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  return { client: new Client({ name: 'stdio-test', version: '1.0.0' }), transport };
}

describe('the stdio bridge', () => {
  it('lists the tools and drives a session, the key from the environment', async () => {
    const { client, transport } = bridged(['--url', server.url], { BROWSERDESK_API_KEY: server.apiKey });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('browser_snapshot');
      const created = await callTool(client, 'session_create', { workflow_name: 'stdio' });
      expect(created.isError, textOf(created)).toBeFalsy();
      const id = (JSON.parse(textOf(created)) as { session_id: string }).session_id;
      const snap = await callTool(client, 'browser_snapshot', { session_id: id });
      expect(textOf(snap)).toMatch(/^Page URL: /);
      const closed = await callTool(client, 'session_close', { session_id: id });
      expect(JSON.parse(textOf(closed))).toMatchObject({ state: 'ended' });
    } finally {
      await client.close();
    }
  });

  it('takes the full /api/mcp URL and --key too, and says so when the key is wrong instead of hanging', async () => {
    const good = bridged(['--url', `${server.url}/api/mcp`, '--key', server.apiKey]);
    await good.client.connect(good.transport);
    expect((await good.client.listTools()).tools.length).toBeGreaterThan(10);
    await good.client.close();

    const bad = bridged(['--url', server.url, '--key', 'wrong']);
    await expect(bad.client.connect(bad.transport)).rejects.toThrow(/refused the API key \(401\)/);
    await bad.client.close();
  });
});
