import type { FastifyInstance } from 'fastify';
import { agentOperations as ops } from '../../contract/agent.ts';
import { runControlOperations } from '../../contract/runControl.ts';
import { addRoute } from '../http/route.ts';

/**
 * Simplex's editor sessions: start one, talk to its agent, read its state, interrupt it (/interrupt
 * and /editor_interrupt); the work is in app.agent.
 */
export async function agentRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, ops.startEditorSession, ({ body }) => app.agent.start(body));

  addRoute(app, ops.agentMessage, async ({ params, body }) => {
    await app.sessionRecords.assertExists(params.id);
    app.agent.message(params.id, body);
    return { status: 'received' } as const;
  });

  addRoute(app, ops.agentState, async ({ params }) => {
    await app.sessionRecords.assertExists(params.id);
    return app.agent.state(params.id);
  });

  addRoute(app, ops.interrupt, ({ body }) => app.agent.interrupt(body.session_id));
  addRoute(app, runControlOperations.interrupt, ({ body }) => app.agent.interrupt(body.session_id));
}
