import { z } from 'zod';
import { ErrorBody } from './errors.ts';
import { operations } from './index.ts';
import { mcpOperations } from './mcp.ts';
import type { Operation } from './operation.ts';

type Json = Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  400: 'Malformed request',
  401: 'API key missing or invalid',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported content type',
  422: 'Invalid input; one issue per bad field',
  429: 'Over a limit; see Retry-After',
  502: 'The upstream model failed; retry the request',
  503: 'Not configured',
};

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io,
    unrepresentable: 'any',
  }) as Json;
  return rest;
}

function parameters(op: Operation): Json[] {
  const out: Json[] = [];
  for (const [where, obj] of [
    ['path', op.params],
    ['query', op.query],
  ] as const) {
    if (!obj) continue;
    const json = schemaOf(obj, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema });
    }
  }
  return out;
}

function operationObject(op: Operation): Json {
  const responses: Json = {};
  for (const [status, r] of Object.entries(op.responses)) {
    responses[status] = {
      description: r.description,
      ...(r.schema
        ? { content: { [r.contentType ?? 'application/json']: { schema: schemaOf(r.schema, 'output') } } }
        : {}),
    };
  }
  // A session-scoped operation answers 503 when the cluster node holding its session cannot be reached.
  const errors = [...(op.errors ?? []), ...(op.auth === false ? [] : [401]), ...(op.session ? [503] : [])];
  for (const status of new Set(errors)) {
    responses[status] = {
      description: STATUS_TEXT[status] ?? 'Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    tags: op.tags,
    ...(op.auth === false ? { security: [] } : op.auth ? { security: [{ ApiKeyAuth: [] }, { SignedToken: [] }] } : {}),
    ...(parameters(op).length ? { parameters: parameters(op) } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              op.body.contentTypes.map((type) => [type, { schema: schemaOf(op.body!.schema, 'input') }]),
            ),
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.0.1 document, generated from the contract's operations. */
export function buildOpenApiDocument(serverUrl?: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of Object.values(operations)) {
    paths[op.path] = { ...(paths[op.path] ?? {}), [op.method]: operationObject(op) };
  }
  // /api/mcp is registered outside addRoute (the MCP SDK answers it): in the document only. Its key
  // may also come as `Authorization: Bearer`, which MCP clients are configured with.
  for (const op of Object.values(mcpOperations)) {
    paths[op.path] = {
      ...(paths[op.path] ?? {}),
      [op.method]: { ...operationObject(op), security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }] },
    };
  }
  return {
    openapi: '3.0.1',
    info: {
      title: 'Browserdesk: an API for browser automation, web scraping and workflow automation',
      version: '1.0.0',
      description: 'Write prose from notes, open live browser sessions, and run saved workflows.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: [{ ApiKeyAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        BearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'The API key as `Authorization: Bearer KEY`: on /mcp only',
        },
        SignedToken: {
          type: 'apiKey',
          in: 'query',
          name: 'token',
          description:
            'The token in a URL the API handed out (logs_url, screenshot_url): one session, one use, expiring',
        },
      },
      schemas: { Error: schemaOf(ErrorBody, 'output') },
    },
  };
}
