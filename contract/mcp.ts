import { z } from 'zod';
import { defineOperations } from './operation.ts';

/**
 * /api/mcp, the agent tools over MCP's Streamable HTTP transport (server/routes/mcp.ts), as the
 * OpenAPI document describes it. Its route hands the raw request to the MCP SDK's transport rather
 * than going through addRoute (the SDK parses and answers JSON-RPC itself, with JSON-RPC's error
 * shape, not ErrorBody), so these operations are in the document only (contract/openapi.ts), not
 * in `operations`, which addRoute registers and the route fuzzing holds to ErrorBody.
 */

const JsonRpcId = z.union([z.string(), z.number().int()]).describe('The request id, echoed in its answer');

const JsonRpcMessage = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcId.optional().describe('Absent for a notification, which is answered 202 with no body'),
    method: z.string().describe('initialize, notifications/initialized, tools/list, tools/call, ping'),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('For tools/call: {name, arguments}; the tools and their inputs are in tools/list'),
  })
  .describe('A JSON-RPC 2.0 request or notification');

/**
 * Tool groups beyond the core, as playwright-mcp's `--caps`: a client asks for them with
 * `/api/mcp?caps=pdf,evaluate`. `pdf`: browser_pdf_save. `evaluate`: browser_evaluate, the
 * caller's own JavaScript in the page. Without them, tools/list leaves their tools out and a call
 * to one says how to turn it on.
 */
export const MCP_CAPABILITIES = ['pdf', 'evaluate'] as const;
export type McpCapability = (typeof MCP_CAPABILITIES)[number];

export const McpQuery = z
  .object({
    caps: z
      .string()
      .max(200)
      .transform((s) =>
        s
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(
          z.enum(MCP_CAPABILITIES, {
            message: `caps must be a comma-separated list of ${MCP_CAPABILITIES.join(', ')}`,
          }),
        ),
      )
      .optional()
      .describe(`Tool groups to turn on beyond the core, comma-separated: ${MCP_CAPABILITIES.join(', ')}`),
  })
  .strict();

export const McpRequestBody = z.union([JsonRpcMessage, z.array(JsonRpcMessage).min(1)]);

const JsonRpcError = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});

const JsonRpcAnswer = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcId.nullable(),
    result: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('For tools/call: {content: [{type: "text", text} | {type: "image", data, mimeType}], isError}'),
    error: JsonRpcError.optional(),
  })
  .describe('A JSON-RPC 2.0 answer');

export const McpAnswer = z.union([JsonRpcAnswer, z.array(JsonRpcAnswer)]);

export const McpErrorAnswer = z
  .object({ jsonrpc: z.literal('2.0'), error: JsonRpcError, id: JsonRpcId.nullable() })
  .describe('A JSON-RPC 2.0 error, not the API error body');

const notAllowed = {
  405: {
    description:
      'This MCP server is stateless: there is no stream to GET and no MCP session to DELETE; POST each request',
    schema: McpErrorAnswer,
  },
} as const;

export const mcpOperations = defineOperations({
  mcp: {
    operationId: 'mcp',
    method: 'post',
    path: '/mcp',
    summary:
      "The browser tools for AI agents over MCP (Streamable HTTP, stateless): JSON-RPC 2.0 in, JSON-RPC 2.0 out. Send `Accept: application/json, text/event-stream`, as MCP clients do; this server answers application/json. The key as X-API-Key or `Authorization: Bearer` (this route only). See the README's 'Browser tools for agents (MCP)'",
    tags: ['mcp'],
    query: McpQuery,
    body: { contentTypes: ['application/json'], schema: McpRequestBody },
    responses: {
      200: {
        description: 'The answer to each request (a tool that failed is a result with isError, not an error)',
        schema: McpAnswer,
      },
      202: { description: 'Only notifications were sent: nothing to answer' },
      400: { description: 'Not a JSON-RPC 2.0 message, or a caps query naming no tool group', schema: McpErrorAnswer },
      406: {
        description: 'The Accept header does not take both application/json and text/event-stream',
        schema: McpErrorAnswer,
      },
    },
  },
  mcpGet: {
    operationId: 'mcpGet',
    method: 'get',
    path: '/mcp',
    summary: "Streamable HTTP's stream of server-initiated messages: this server has none (405)",
    tags: ['mcp'],
    responses: notAllowed,
  },
  mcpDelete: {
    operationId: 'mcpDelete',
    method: 'delete',
    path: '/mcp',
    summary: 'Ending an MCP session: this server keeps none (405)',
    tags: ['mcp'],
    responses: notAllowed,
  },
});
