import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '../../contract/errors.ts';
import { writeOperations, type WriteStreamEvent } from '../../contract/write.ts';
import { clientFacing } from '../http/errors.ts';
import { addRoute } from '../http/route.ts';
import { openSse } from '../http/sse.ts';

/** POST /write, POST /write/stream and GET /writes; the work is in app.writer. */
export async function writeRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, writeOperations.write, ({ body }) => app.writer.write(body.prompt));

  addRoute(app, writeOperations.writeStream, async ({ body }, _req, reply) => {
    app.writer.ensureConfigured(); // a 503 is still a plain JSON error: nothing has been streamed yet
    const reader = new AbortController();
    const sse = openSse(reply, () => reader.abort());
    const send = (event: WriteStreamEvent) => sse.send(event, event.type);
    try {
      const response = await app.writer.stream(body.prompt, (text) => send({ type: 'delta', text }), reader.signal);
      send({ type: 'done', response });
    } catch (err) {
      const known = clientFacing(err);
      if (!known && !reader.signal.aborted) app.log.error({ err }, 'write stream failed');
      const e = known ?? { status: 500, code: ErrorCode.internal, message: 'Internal error; it has been logged' };
      send({ type: 'error', status: e.status, error: e.code, message: e.message });
    } finally {
      sse.end();
    }
  });

  addRoute(app, writeOperations.listWrites, ({ query }) => app.writer.list(query.limit, query.cursor));
}
