import type { FastifyServerOptions } from 'fastify';

/** Hide capability tokens in logged URLs: a log line must never let someone into a session. */
export const redactUrl = (url: string) => url.replace(/([?&]token=)[^&]*/g, '$1[redacted]');

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    redact: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'],
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}
