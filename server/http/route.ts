import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Operation } from '../../contract/operation.ts';
import { parseOr422 } from './errors.ts';

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface RouteInput<O extends Operation> {
  body: O['body'] extends { contentType: 'application/json'; schema: infer S } ? Infer<S> : undefined;
  query: Infer<O['query']>;
  params: Infer<O['params']>;
}

/**
 * Register one contract operation: method and path come from the contract, and params, query and
 * JSON body are parsed with its zod schemas (422 naming each bad field) before the handler runs.
 * Multipart bodies are left to the handler, which must stream them.
 */
export function addRoute<O extends Operation>(
  app: FastifyInstance,
  op: O,
  handler: (input: RouteInput<O>, req: FastifyRequest, reply: FastifyReply) => unknown,
): void {
  app.route({
    method: op.method.toUpperCase() as 'GET',
    url: op.path.replace(/\{(\w+)\}/g, ':$1'),
    config: { auth: op.auth === false ? 'public' : 'apiKey' },
    handler: async (req, reply) => {
      const input = {
        params: op.params ? parseOr422(op.params, req.params) : undefined,
        query: op.query ? parseOr422(op.query, req.query) : undefined,
        body: op.body?.contentType === 'application/json' ? parseOr422(op.body.schema, req.body) : undefined,
      } as RouteInput<O>;
      return handler(input, req, reply);
    },
  });
}
