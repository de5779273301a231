import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ErrorCode, type ErrorBody, type Issue } from '../../contract/errors.ts';
import { Invalid, isDomainError, type DomainError } from '../domain/errors.ts';
import { issuesOf } from '../domain/parse.ts';
import { installClientErrorHandler } from './clientErrors.ts';

/** A failure the client should hear about, mapped to the error shape by one handler. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: Issue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return { error: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}) };
  }
}

export const unauthorized = () =>
  new AppError(401, ErrorCode.unauthorized, 'API key missing or invalid: send it in the X-API-Key header');

const retryAfter = (seconds: number | undefined) =>
  seconds === undefined ? undefined : { 'retry-after': String(seconds) };

/** The one place a domain error gets its HTTP status, error code and headers. */
function httpErrorOf(err: DomainError): AppError {
  switch (err.kind) {
    case 'notFound':
      return new AppError(404, ErrorCode.notFound, err.message, err.issues);
    case 'invalid':
      return new AppError(422, ErrorCode.invalidRequest, err.message, err.issues);
    case 'conflict':
      return new AppError(409, ErrorCode.conflict, err.message, err.issues);
    case 'gone':
      return new AppError(410, ErrorCode.gone, err.message);
    case 'atCapacity':
      return new AppError(429, ErrorCode.tooManyRequests, err.message, undefined, retryAfter(err.retryAfterSeconds));
    case 'unavailable':
      return new AppError(503, err.reason, err.message, undefined, retryAfter(err.retryAfterSeconds));
    case 'upstreamFailed':
      return new AppError(502, ErrorCode.modelFailed, err.message);
    case 'tooLarge':
      return new AppError(413, ErrorCode.tooLarge, err.message);
    case 'malformed':
      return new AppError(400, ErrorCode.badRequest, err.message);
  }
}

/** What the client hears for an AppError or a domain error; undefined for anything else (a bug: a 500). */
export function clientFacing(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  return isDomainError(err) ? httpErrorOf(err) : undefined;
}

const FASTIFY_CODES: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    415,
    ErrorCode.unsupportedMediaType,
    'Unsupported content type: send application/json',
  ],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, ErrorCode.tooLarge, 'Request body is larger than the 1 MiB limit'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, ErrorCode.badRequest, 'Request body is empty: send a JSON object'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, ErrorCode.badRequest, 'Request body is not valid JSON'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, ErrorCode.badRequest, 'Content-Length does not match the body'],
  FST_REQ_FILE_TOO_LARGE: [413, ErrorCode.tooLarge, 'An uploaded file is larger than the limit'],
  FST_FILES_LIMIT: [413, ErrorCode.tooLarge, 'Too many files uploaded'],
  FST_PARTS_LIMIT: [413, ErrorCode.tooLarge, 'Too many multipart parts'],
  FST_FIELDS_LIMIT: [413, ErrorCode.tooLarge, 'Too many multipart fields'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, ErrorCode.unsupportedMediaType, 'Send multipart/form-data'],
  FST_INVALID_JSON_FIELD_ERROR: [
    400,
    ErrorCode.badRequest,
    'A multipart field sent as application/json is not valid JSON',
  ],
  FST_PROTO_VIOLATION: [
    400,
    ErrorCode.badRequest,
    'A multipart field name is not allowed (__proto__, constructor, ...)',
  ],
  FST_MP_PREMATURE_CLOSE: [400, ErrorCode.badRequest, 'The request ended before the multipart body was complete'],
};

/** Map every thrown thing to the error shape (client errors of the HTTP parser too); never leak a stack, a path or a secret. */
export function installErrorHandler(app: FastifyInstance): void {
  installClientErrorHandler(app);
  app.setErrorHandler((err: FastifyError | Error, req, reply) => {
    const known = clientFacing(err instanceof z.ZodError ? new Invalid(issuesOf(err)) : err);
    if (known) {
      if (known.headers) reply.headers(known.headers);
      return reply.status(known.status).send(known.toBody());
    }
    const code = (err as FastifyError).code;
    const fastify = code ? FASTIFY_CODES[code] : undefined;
    if (fastify) return reply.status(fastify[0]).send({ error: fastify[1], message: fastify[2] });
    if (err instanceof SyntaxError || (err as FastifyError).statusCode === 400) {
      return reply.status(400).send({ error: ErrorCode.badRequest, message: 'Malformed request' });
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.status(status).send({ error: ErrorCode.badRequest, message: err.message });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: ErrorCode.internal, message: 'Internal error; it has been logged' });
  });
}

export function sendRouteNotFound(req: FastifyRequest, reply: FastifyReply): void {
  reply.status(404).send({ error: ErrorCode.notFound, message: `No route for ${req.method} ${req.url.split('?')[0]}` });
}
