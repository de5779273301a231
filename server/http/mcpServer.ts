import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpCapability } from '../../contract/mcp.ts';
import type { AgentToolRegistry, ToolCaller } from '../agentTools/registry.ts';

// Loaded when first used: it is about 300 ms and 25 MB the idle server does not need.
const sdk = async () => {
  const [{ Server }, { StreamableHTTPServerTransport }, { CallToolRequestSchema, ListToolsRequestSchema }] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
  return { Server, StreamableHTTPServerTransport, CallToolRequestSchema, ListToolsRequestSchema };
};

const INSTRUCTIONS =
  'Browserdesk: real Chromium sessions a person can watch and take over. Start with session_create (or session_list), then browser_navigate, browser_snapshot (refs for browser_click and browser_type; a long page comes in parts, with a cursor), and session_close when done.';

/** The MCP face of the tool registry: tools/list and tools/call, nothing else (the registry knows no MCP). */
function mcpServerOver(
  { Server, CallToolRequestSchema, ListToolsRequestSchema }: Awaited<ReturnType<typeof sdk>>,
  registry: AgentToolRegistry,
  version: string,
  caps: readonly McpCapability[],
  caller: ToolCaller,
): Server {
  const server = new Server(
    { name: 'browserdesk', version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: registry.list(caps) }));
  // The registry validates the arguments with the tool's zod schema and never throws: a bad call
  // is an error result the agent reads (isError), not a JSON-RPC failure.
  // The request's signal: aborted when its client goes away, so a long call (browser_extract) stops.
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => ({
    ...(await registry.call(request.params.name, request.params.arguments, { caps, signal: extra.signal, caller })),
  }));
  return server;
}

/**
 * Answer one MCP request (Streamable HTTP, stateless): a server and transport made for this
 * request alone and dropped with it. Stateless because every tool names its session_id: nothing
 * of an MCP "session" has to be kept, so any node, any restart and any number of clients answer
 * alike. Answers are plain JSON (enableJsonResponse): a tool call has no progress to stream.
 * `caps`: the tool groups beyond the core the request's URL turned on (?caps=pdf,evaluate); `caller`: its API key.
 */
export async function answerMcp(
  registry: AgentToolRegistry,
  version: string,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  caps: readonly McpCapability[],
  caller: ToolCaller,
): Promise<void> {
  const mcp = await sdk();
  const server = mcpServerOver(mcp, registry, version, caps, caller);
  const transport = new mcp.StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close().catch(() => undefined);
    void server.close().catch(() => undefined);
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
