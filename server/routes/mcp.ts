import type { FastifyInstance } from 'fastify';
import { McpQuery } from '../../contract/mcp.ts';
import { answerMcp } from '../http/mcpServer.ts';

const VERSION = '1.0.0';

/** The session a single tools/call names in its arguments (batches and other methods: none). */
function sessionOfToolCall(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { arguments?: { session_id?: unknown } } };
  if (method !== 'tools/call') return undefined;
  const id = params?.arguments?.session_id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * POST /api/mcp: the agent tools over MCP's Streamable HTTP transport. The API key as X-API-Key or
 * `Authorization: Bearer` (MCP clients are configured with the latter; `bearer` opens that form on
 * this route only). GET (a stream of server-initiated messages) is 405: a stateless server has
 * none to send, which the transport's spec allows and its clients expect.
 */
export async function mcpRoutes(app: FastifyInstance): Promise<void> {
  app.route({
    method: 'POST',
    url: '/mcp',
    config: { auth: 'apiKey', bearer: true },
    handler: async (req, reply) => {
      const query = McpQuery.safeParse(req.query);
      if (!query.success)
        return reply.status(400).send({
          jsonrpc: '2.0',
          error: { code: -32600, message: query.error.issues.map((i) => i.message).join('; ') },
          id: null,
        });
      // In a cluster, a tool call on a session another node holds is answered by that node (its
      // browser is there); the body goes on as JSON of what was parsed, the same request.
      const sessionId = sessionOfToolCall(req.body);
      if (
        sessionId &&
        !app.sessions.get(sessionId) &&
        (await app.passToOwner(req, reply, sessionId, Buffer.from(JSON.stringify(req.body))))
      )
        return reply;
      // The SDK's transport writes the answer itself, on the raw response.
      reply.hijack();
      try {
        await answerMcp(app.agentTools.registry, VERSION, req.raw, reply.raw, req.body, query.data.caps ?? [], {
          apiKeyId: req.apiKeyId,
        });
      } catch (err) {
        req.log.error({ err }, 'MCP request failed');
        if (!reply.raw.headersSent) {
          reply.raw
            .writeHead(500, { 'content-type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
        } else reply.raw.end();
      }
    },
  });
  app.route({
    method: ['GET', 'DELETE'],
    url: '/mcp',
    config: { auth: 'apiKey', bearer: true },
    handler: (_req, reply) =>
      reply
        .status(405)
        .header('allow', 'POST')
        .send({
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST each request' },
          id: null,
        }),
  });
}
