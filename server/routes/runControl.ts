import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '../../contract/errors.ts';
import { runControlOperations as ops } from '../../contract/runControl.ts';
import { NotFound } from '../domain/errors.ts';
import { AppError } from '../http/errors.ts';
import { fileMetadataOf, logsUrl, recordingUrl, sessionUrls } from '../http/publicUrls.ts';
import { addRoute } from '../http/route.ts';
import { runsRepo } from '../store/runs.ts';
import { sessionsRepo } from '../store/sessions.ts';
import { sessionStatusOf } from '../workflows/sessionStatus.ts';
import { sendSessionFiles } from './artifacts.ts';

/** The calls Simplex's clients make on a session beyond the spec: status, pause, resume, interrupt, close, active_session. */
export async function runControlRoutes(app: FastifyInstance): Promise<void> {
  const sessions = sessionsRepo(app.db);
  const runs = runsRepo(app.db);

  addRoute(app, ops.sessionStatus, ({ params }) => {
    const session = sessions.get(params.id);
    const run = runs.getBySession(params.id);
    if (!session && !run) throw new NotFound('Session');
    const workflowId = run?.workflow_id ?? session!.workflow_id;
    return sessionStatusOf({
      session,
      run,
      pause: app.runs.pauseOf(params.id),
      queuePosition: app.sessions.queuePosition(params.id),
      workflowMetadata: app.store.workflows.get(workflowId)?.metadata ?? null,
      logsUrl: logsUrl(app, params.id),
      files: fileMetadataOf(app, params.id),
      recordingUrl: app.recordings.fileOf(params.id) ? recordingUrl(app, params.id) : null,
    });
  });

  addRoute(app, ops.pause, ({ body }) => ({ succeeded: true, action: 'pause', pause_key: app.runs.pause(body.session_id).key }) as const);

  addRoute(app, ops.resume, ({ body }) => {
    const lifted = app.runs.resume(body.session_id);
    return { succeeded: true, action: 'resume_session', pause_type: lifted.type, key: lifted.key } as const;
  });

  addRoute(app, ops.interrupt, async ({ body }) => {
    await app.runs.interrupt(body.session_id);
    return { succeeded: true, message: 'The run was stopped; the session stays live until it is closed or times out', session_id: body.session_id } as const;
  });

  addRoute(app, ops.closeSession, async ({ body }) => {
    // A queued run's session has no record yet; closing it takes the run out of the queue.
    if (!sessions.get(body.session_id) && app.sessions.queuePosition(body.session_id) === null) throw new NotFound('Session');
    await app.sessions.end(body.session_id, 'stopped');
    return { succeeded: true, message: 'The session is closed', session_id: body.session_id } as const;
  });

  addRoute(app, ops.activeSession, ({ params }) => {
    if (!app.store.workflows.get(params.id)) throw new NotFound('Workflow');
    const row = sessions.newestActiveOf(params.id);
    const tokens = row && app.sessions.issueTokens(row.id);
    if (!row || !tokens) throw new AppError(404, ErrorCode.notFound, 'This workflow has no live session');
    const running = app.runs.isRunning(row.id);
    return {
      session_id: row.id,
      status: app.runs.pauseOf(row.id) ? ('paused' as const) : running ? ('running' as const) : ('live' as const),
      logs_url: logsUrl(app, row.id),
      message_url: null,
      vnc_url: sessionUrls(app, row.id, { control: tokens.control }).vnc_url!,
    };
  });

  addRoute(app, ops.sessionScreenshot, ({ params }, _req, reply) => {
    const shot = runs.getBySession(params.id)?.screenshot;
    if (!shot) throw new AppError(404, ErrorCode.notFound, 'No final screenshot: the session has no finished run, or its page was gone');
    return reply.type('image/jpeg').header('cache-control', 'private, max-age=300').send(shot);
  });

  addRoute(app, ops.downloadSessionFiles, ({ query }, _req, reply) => sendSessionFiles(app, reply, query.session_id, query.filename));
}
