import type { FastifyInstance } from 'fastify';
import { agentOperations as ops } from '../../contract/agent.ts';
import { runControlOperations } from '../../contract/runControl.ts';
import { Conflict } from '../domain/errors.ts';
import { addRoute } from '../http/route.ts';

/**
 * Simplex's editor sessions: start one, talk to its agent, read its state, interrupt it (/interrupt
 * and /editor_interrupt); the work is in app.agent.
 */
export async function agentRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, ops.startEditorSession, ({ body }, req) => app.agent.start(body, req.apiKeyId));

  // One message_url for both: a run under way takes the message (its pause's answer), else the agent.
  addRoute(app, ops.agentMessage, async ({ params, body }) => {
    await app.sessionRecords.assertExists(params.id);
    if (app.runs.isRunning(params.id) || !app.agent.has(params.id)) await app.runs.message(params.id, body);
    else if ('flow_resume' in body)
      throw new Conflict('No run is paused in this session: its agent takes {"message": …}');
    else app.agent.message(params.id, body);
    return { status: 'received' } as const;
  });

  addRoute(app, ops.agentState, async ({ params }) => {
    await app.sessionRecords.assertExists(params.id);
    return app.agent.state(params.id);
  });

  addRoute(app, ops.interrupt, ({ body }) => app.agent.interrupt(body.session_id));
  addRoute(app, runControlOperations.interrupt, ({ body }) => app.agent.interrupt(body.session_id));
}
