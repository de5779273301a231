import type { FastifyInstance } from 'fastify';
import { runControlOperations as ops } from '../../contract/runControl.ts';
import { NotFound } from '../domain/errors.ts';
import { addRoute } from '../http/route.ts';

/**
 * The calls Simplex's clients make on a session beyond the spec: status, pause, resume, close,
 * active_session, the final screenshot. /editor_interrupt is with the agent's routes (the agent's
 * turn or the run stops), download_session_files with the artifacts' routes.
 */
export async function runControlRoutes(app: FastifyInstance): Promise<void> {
  const { sessionRecords } = app;

  addRoute(app, ops.sessionStatus, ({ params }) => app.runs.sessionStatus(params.id));

  addRoute(
    app,
    ops.pause,
    async ({ body }) =>
      ({ succeeded: true, action: 'pause', pause_key: (await app.runs.pause(body.session_id)).key }) as const,
  );

  addRoute(app, ops.resume, async ({ body }) => {
    const lifted = await app.runs.resume(body.session_id);
    return { succeeded: true, action: 'resume_session', pause_type: lifted.type, key: lifted.key } as const;
  });

  addRoute(app, ops.closeSession, async ({ body }) => {
    await sessionRecords.close(body.session_id);
    return { succeeded: true, message: 'The session is closed', session_id: body.session_id } as const;
  });

  addRoute(app, ops.activeSession, async ({ params }, req, reply) => {
    const found = await sessionRecords.activeOf(params.id);
    if (found && 'elsewhere' in found && (await app.passToOwner(req, reply, found.elsewhere))) return reply;
    const active = found && 'id' in found ? found : undefined;
    if (!active) throw new NotFound({ message: 'This workflow has no live session' });
    return {
      session_id: active.id,
      status: active.status,
      logs_url: app.urls.logs(active.id),
      message_url: app.agent.has(active.id) || app.runs.isRunning(active.id) ? app.urls.message(active.id) : null,
      vnc_url: app.urls.vnc(active.id, active.controlToken),
    };
  });

  addRoute(app, ops.sessionScreenshot, async ({ params }, _req, reply) => {
    const shot = await sessionRecords.finalScreenshot(params.id);
    if (!shot)
      throw new NotFound({ message: 'No final screenshot: the session has no finished run, or its page was gone' });
    return reply.type('image/jpeg').header('cache-control', 'private, max-age=300').send(shot);
  });
}
