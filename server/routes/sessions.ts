import type { FastifyInstance } from 'fastify';
import { sessionOperations } from '../../contract/sessions.ts';
import { addRoute } from '../http/route.ts';

/** POST /create_workflow_session and the session list/get/extend/end operations the dashboard needs; the work is in app.sessionRecords. */
export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  const { sessionRecords } = app;

  addRoute(app, sessionOperations.createWorkflowSession, async ({ body }, req) => {
    const { sessionId, workflowId, isolation, tokens } = await sessionRecords.create(body, req.apiKeyId);
    return { session_id: sessionId, workflow_id: workflowId, ...app.urls.session(sessionId, tokens), isolation };
  });

  addRoute(app, sessionOperations.listSessions, ({ query }) => sessionRecords.list(query));

  addRoute(app, sessionOperations.getSession, ({ params }) => sessionRecords.get(params.id));

  addRoute(app, sessionOperations.createSessionViews, async ({ params }) => {
    const urls = app.urls.session(params.id, await sessionRecords.views(params.id));
    return { livestream_url: urls.livestream_url!, connect_url: urls.connect_url!, vnc_url: urls.vnc_url! };
  });

  addRoute(app, sessionOperations.updateSession, ({ params, body }) => sessionRecords.retime(params.id, body.timeout));

  addRoute(app, sessionOperations.endSession, ({ params }) => sessionRecords.end(params.id));
}
