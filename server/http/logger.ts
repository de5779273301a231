import type { FastifyServerOptions } from 'fastify';

/** Hide capability tokens in logged URLs: a log line must never let someone into a session. */
export const redactUrl = (url: string) => url.replace(/([?&]token=)[^&]*/g, '$1[redacted]');

/** Where log lines may be written instead of stdout: one JSON line per write. */
export interface LogDestination {
  write(line: string): void;
}

export function loggerOptions(level: string, stream?: LogDestination): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    ...(stream ? { stream } : {}),
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
