import { describe, expect, it } from 'vitest';
import { operationsByTag } from './reference-contents.ts';

describe('operationsByTag', () => {
  it("groups calls by their first tag in the paths' order, with Scalar's anchors", () => {
    const spec = {
      openapi: '3.1.0',
      paths: {
        '/write': { post: { tags: ['writing'], summary: 'Generate prose' } },
        '/sessions/{id}': {
          parameters: [],
          get: { tags: ['sessions'], summary: 'A session' },
          delete: { tags: ['sessions', 'extra'], summary: 'End a session' },
        },
        '/writes': { get: { tags: ['writing'], summary: 'Earlier writes' } },
        '/healthz': { get: { summary: 'Alive?' } },
        '/broken': 'not an object',
      },
    };
    expect(operationsByTag(spec)).toEqual([
      {
        tag: 'writing',
        operations: [
          { method: 'POST', path: '/write', summary: 'Generate prose', anchor: 'tag/writing/POST/write' },
          { method: 'GET', path: '/writes', summary: 'Earlier writes', anchor: 'tag/writing/GET/writes' },
        ],
      },
      {
        tag: 'sessions',
        operations: [
          { method: 'GET', path: '/sessions/{id}', summary: 'A session', anchor: 'tag/sessions/GET/sessions/{id}' },
          {
            method: 'DELETE',
            path: '/sessions/{id}',
            summary: 'End a session',
            anchor: 'tag/sessions/DELETE/sessions/{id}',
          },
        ],
      },
      {
        tag: 'default',
        operations: [{ method: 'GET', path: '/healthz', summary: 'Alive?', anchor: 'tag/default/GET/healthz' }],
      },
    ]);
  });

  it("writes a tag of several words as Scalar's slug", () => {
    const spec = { openapi: '3.1.0', paths: { '/x': { get: { tags: ['CLI Auth'] } } } };
    expect(operationsByTag(spec)[0]!.operations[0]!.anchor).toBe('tag/cli-auth/GET/x');
  });
});
