import type { FastifyInstance } from 'fastify';
import { sessionOperations, type Session } from '../../contract/sessions.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { NotFound } from '../domain/errors.ts';
import { AppError } from '../http/errors.ts';
import { decodeCursor, encodeCursor } from '../http/cursor.ts';
import { sessionUrls } from '../http/publicUrls.ts';
import { addRoute } from '../http/route.ts';
import { admitCreate } from './sessionAdmission.ts';
import { sessionsRepo, type SessionRow } from '../store/sessions.ts';

function toSession(row: SessionRow, workflowName: string | null): Session {
  return {
    id: row.id,
    workflow_id: row.workflow_id,
    workflow_name: workflowName,
    state: row.state,
    end_reason: row.end_reason,
    proxies: row.proxies === 1,
    timeout: row.timeout_seconds,
    webhook_url: row.webhook_url,
    metadata: row.metadata,
    created_at: row.created_at,
    expires_at: row.expires_at,
    ended_at: row.ended_at,
  };
}

/** POST /create_workflow_session and the session list/get/end operations the dashboard needs. */
export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  const repo = sessionsRepo(app.db);
  // A lookup by primary key per session (a page holds at most 100); deleted workflows keep their sessions, so null.
  const session = (row: SessionRow) => toSession(row, app.store.workflows.get(row.workflow_id)?.name ?? null);

  addRoute(app, sessionOperations.createWorkflowSession, async ({ body }) => {
    // A refused create leaves nothing: what can be checked without a browser is checked first,
    // and a workflow this request created goes again when its session does not start.
    await admitCreate(app, body);
    const { row: workflow, created } = app.store.workflows.ensureByName(body.workflow_name);
    let started;
    try {
      started = await app.sessions.create({
        workflowId: workflow.id,
        timeoutSeconds: body.timeout,
        proxies: body.proxies,
        storageState: body.session_data,
        webhookUrl: body.webhook_url,
        metadata: body.metadata,
        presentation: body.presentation,
      });
    } catch (err) {
      if (created) app.store.workflows.deleteIfUnused(workflow.id);
      throw err;
    }
    const { session, tokens } = started;
    return { session_id: session.id, workflow_id: workflow.id, ...sessionUrls(app, session.id, tokens) };
  });

  addRoute(app, sessionOperations.listSessions, ({ query }) => {
    const rows = repo.list({ state: query.state, limit: query.limit + 1, before: query.cursor ? decodeCursor(query.cursor) : undefined });
    const items = rows.slice(0, query.limit);
    const last = items.at(-1);
    return { items: items.map(session), next_cursor: rows.length > query.limit && last ? encodeCursor(last) : null };
  });

  addRoute(app, sessionOperations.getSession, ({ params }) => {
    const row = repo.get(params.id);
    if (!row) throw new NotFound('Session');
    return session(row);
  });

  addRoute(app, sessionOperations.createSessionViews, ({ params }) => {
    if (!repo.get(params.id)) throw new NotFound('Session');
    const tokens = app.sessions.issueTokens(params.id);
    if (!tokens) throw new AppError(409, ErrorCode.conflict, 'The session is not live: an ended session has no live view');
    const urls = sessionUrls(app, params.id, tokens);
    return { livestream_url: urls.livestream_url!, connect_url: urls.connect_url!, vnc_url: urls.vnc_url! };
  });

  addRoute(app, sessionOperations.endSession, async ({ params }) => {
    if (!repo.get(params.id)) throw new NotFound('Session');
    await app.sessions.end(params.id, 'stopped');
    return session(repo.get(params.id)!);
  });
}
