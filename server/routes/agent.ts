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

  addRoute(app, ops.interrupt, async ({ body }) => interruptSession(app, body.session_id));
  addRoute(app, runControlOperations.interrupt, ({ body }) => interruptSession(app, body.session_id));
}

/**
 * /interrupt and /editor_interrupt: the agent's turn when the session has an agent, else the
 * session's run (which fails, saying so); the session stays live either way.
 */
async function interruptSession(app: FastifyInstance, sessionId: string) {
  const agent = app.agent.interrupt(sessionId);
  if (agent !== 'none' && !app.runs.isRunning(sessionId))
    return {
      succeeded: true,
      message:
        agent === 'interrupted'
          ? "The agent's turn was stopped where it was; the session stays live and the agent takes the next message"
          : 'The agent was not working: nothing to stop',
      session_id: sessionId,
    } as const;
  await app.runs.interrupt(sessionId);
  return {
    succeeded: true,
    message: 'The run was stopped; the session stays live until it is closed or times out',
    session_id: sessionId,
  } as const;
}
