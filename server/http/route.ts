import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ErrorCode } from '../../contract/errors.ts';
import type { BodyContentType, Operation } from '../../contract/operation.ts';
import { parseOrInvalid } from '../domain/parse.ts';
import { AppError } from './errors.ts';

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface RouteInput<O extends Operation> {
  /** Parsed unless the operation takes multipart, which its handler streams. */
  body: O['body'] extends { contentTypes: infer C; schema: infer S }
    ? C extends readonly BodyContentType[]
      ? 'multipart/form-data' extends C[number]
        ? undefined
        : Infer<S>
      : undefined
    : undefined;
  query: Infer<O['query']>;
  params: Infer<O['params']>;
}

/**
 * What a handler answers: one of the operation's JSON success bodies, typed by the contract (so a
 * handler cannot drift from it), or nothing when it sent the reply itself (streams, files, other
 * statuses through reply.status().send()).
 */
type JsonBody<R> = R extends { contentType: string }
  ? never
  : R extends { schema: infer S }
    ? z.input<S & z.ZodType>
    : never;
export type RouteResult<O extends Operation> =
  { [K in keyof O['responses']]: JsonBody<O['responses'][K]> }[keyof O['responses']] | FastifyReply | void;

/** The media type of a request, without parameters (`multipart/form-data; boundary=…` → `multipart/form-data`). */
export function mediaTypeOf(req: FastifyRequest): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Register one contract operation: method and path come from the contract, and params, query and
 * body are parsed with its zod schemas (422 naming each bad field) before the handler runs. A body
 * in an encoding the operation does not list is a 415, even when the server has a parser for it.
 * Multipart bodies are left to the handler, which must stream them.
 */
export function addRoute<O extends Operation>(
  app: FastifyInstance,
  op: O,
  handler: (input: RouteInput<O>, req: FastifyRequest, reply: FastifyReply) => RouteResult<O> | Promise<RouteResult<O>>,
): void {
  const accepted = op.body?.contentTypes ?? [];
  const streamed = accepted.includes('multipart/form-data');
  app.route({
    method: op.method.toUpperCase() as 'GET',
    url: op.path.replace(/\{(\w+)\}/g, ':$1'),
    config: {
      ...(op.auth === false
        ? { auth: 'public' }
        : op.auth
          ? { auth: 'apiKeyOrToken', tokenScope: op.auth.orToken }
          : { auth: 'apiKey' }),
      // Read by server/http/forwarding/forward.ts: a session's own node answers for it.
      ...(op.session ? { session: op.session } : {}),
      ...(op.startsBrowser ? { startsBrowser: true } : {}),
    },
    handler: async (req, reply) => {
      if (op.body && !accepted.includes(mediaTypeOf(req) as BodyContentType)) {
        throw new AppError(
          415,
          ErrorCode.unsupportedMediaType,
          `Unsupported content type: send ${accepted.join(' or ')}`,
        );
      }
      const input = {
        params: op.params ? parseOrInvalid(op.params, req.params) : undefined,
        query: op.query ? parseOrInvalid(op.query, req.query) : undefined,
        body: op.body && !streamed ? parseOrInvalid(op.body.schema, req.body) : undefined,
      } as RouteInput<O>;
      return handler(input, req, reply);
    },
  });
}
