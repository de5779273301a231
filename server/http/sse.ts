import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Take over the response as a server-sent event stream. Returns a writer for `data:` events and
 * calls `onClose` once when the client goes away. Headers disable proxy buffering so events arrive
 * as they are written.
 */
export function openSse(
  reply: FastifyReply,
  onClose: () => void,
): { send(data: unknown, event?: string, id?: string): void; comment(text: string): void; end(): void } {
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

export type SseStream = ReturnType<typeof openSse>;

/**
 * Open-ended streams of one plugin: each gets a `: keep-alive` comment every `keepAliveMs` so
 * proxies do not drop it while idle, and all are ended when the server closes, so app.close() does
 * not wait on clients that never hang up. Returns the opener; `onClose` runs once per stream.
 */
export function longLivedStreams(
  app: FastifyInstance,
  keepAliveMs = 15_000,
): (reply: FastifyReply, onClose: () => void) => SseStream {
  const open = new Set<() => void>();
  app.addHook('onClose', async () => {
    for (const end of [...open]) end();
  });
  return (reply, onClose) => {
    const sse = openSse(reply, () => {
      clearInterval(keepAlive);
      open.delete(sse.end);
      onClose();
    });
    const keepAlive = setInterval(() => sse.comment('keep-alive'), keepAliveMs);
    open.add(sse.end);
    return sse;
  };
}
