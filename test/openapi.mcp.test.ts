import { describe, expect, it } from 'vitest';
import { operations } from '../contract/index.ts';
import { buildOpenApiDocument } from '../contract/openapi.ts';

type Op = {
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: { anyOf?: unknown[] } }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
};

describe('/api/mcp in the OpenAPI document', () => {
  const doc = buildOpenApiDocument('http://127.0.0.1:8080/api') as {
    paths: Record<string, Record<string, Op>>;
    components: { securitySchemes: Record<string, unknown> };
  };

  it('has POST with a JSON-RPC body and answer, GET and DELETE as 405, and the key as X-API-Key or Bearer', () => {
    const mcp = doc.paths['/mcp']!;
    expect(Object.keys(mcp).sort()).toEqual(['delete', 'get', 'post']);
    const post = mcp.post!;
    expect(Object.keys(post.requestBody!.content)).toEqual(['application/json']);
    // One message or a batch of them.
    expect(post.requestBody!.content['application/json']!.schema.anyOf).toHaveLength(2);
    expect(Object.keys(post.responses).sort()).toEqual(['200', '202', '400', '401', '406']);
    expect(post.responses['200']!.content).toHaveProperty('application/json');
    expect(post.responses['202']!.content).toBeUndefined();
    for (const method of ['get', 'delete']) expect(Object.keys(mcp[method]!.responses).sort()).toEqual(['401', '405']);
    for (const op of Object.values(mcp)) expect(op.security).toEqual([{ ApiKeyAuth: [] }, { BearerAuth: [] }]);
    expect(doc.components.securitySchemes.BearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('keeps it out of the operations addRoute registers (the MCP SDK answers the route)', () => {
    expect(Object.values(operations).some((op) => op.path === '/mcp')).toBe(false);
  });
});
