import type { FastifyReply } from 'fastify';

/**
 * Take over the response as a server-sent event stream. Returns a writer for `data:` events and
 * calls `onClose` once when the client goes away. Headers disable proxy buffering so events arrive
 * as they are written.
 */
export function openSse(reply: FastifyReply, onClose: () => void): { send(data: unknown, event?: string, id?: string): void; comment(text: string): void; end(): void } {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    onClose();
  };
  res.on('close', close);
  return {
    send(data, event, id) {
      if (closed) return;
      res.write(`${id ? `id: ${id}\n` : ''}${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
    },
    comment(text) {
      if (!closed) res.write(`: ${text}\n\n`);
    },
    end() {
      if (!closed) res.end();
      close();
    },
  };
}
