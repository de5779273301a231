import type { FastifyInstance } from 'fastify';
import { answerMcp } from '../http/mcpServer.ts';

const VERSION = '1.0.0';

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
      // The SDK's transport writes the answer itself, on the raw response.
      reply.hijack();
      try {
        await answerMcp(app.agentTools.registry, VERSION, req.raw, reply.raw, req.body);
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
