import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestServer } from './server.ts';

/** The SDK's own client on the server's /api/mcp (or `path`, e.g. with ?caps=), with the key as `Authorization: Bearer` (or X-API-Key). */
export async function mcpClient(
  server: TestServer,
  auth: 'bearer' | 'x-api-key' = 'bearer',
  path = '/api/mcp',
): Promise<Client> {
  const headers: Record<string, string> =
    auth === 'bearer' ? { authorization: `Bearer ${server.apiKey}` } : { 'x-api-key': server.apiKey };
  const client = new Client({ name: 'browserdesk-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}${path}`), { requestInit: { headers } }),
  );
  return client;
}

/**
 * A tool call's answer, typed as the spec's CallToolResult. `timeoutMs`: the SDK's own wait for the
 * answer (60 s unless given), a hang guard for a call a loaded host may take long over.
 */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  timeoutMs?: number,
): Promise<CallToolResult> {
  return (await client.callTool(
    { name, arguments: args },
    undefined,
    timeoutMs ? { timeout: timeoutMs } : undefined,
  )) as CallToolResult;
}

/** The text parts of a result, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
}

/** The first ref the snapshot gives an element whose line matches `line` (e.g. /textbox "Name"/). */
export function refOf(snapshot: string, line: RegExp): string {
  const found = snapshot.split('\n').find((l) => line.test(l));
  const ref = found && /\[ref=([^\]]+)\]/.exec(found)?.[1];
  if (!ref) throw new Error(`no element matching ${line} in the snapshot:\n${snapshot.slice(0, 2000)}`);
  return ref;
}
