import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { runOperations } from '../../contract/runs.ts';
import { addRoute } from '../http/route.ts';
import { receiveRunRequest } from '../http/runUploads.ts';

/**
 * POST /api/run_workflow (multipart as the spec says; urlencoded and JSON as Simplex's clients send
 * without files), the runs list and GET /api/run_workflow_status; each is one call on app.runs.
 */
export async function runRoutes(app: FastifyInstance): Promise<void> {
  const { MAX_FILES, MAX_FILE_BYTES } = app.config;
  // Multipart only in this plugin's scope: elsewhere it stays a 415.
  await app.register(multipart, {
    limits: { files: MAX_FILES, fileSize: MAX_FILE_BYTES, fields: 20, fieldSize: 1024 * 1024, parts: MAX_FILES + 20 },
  });
  const { runs } = app;

  addRoute(app, runOperations.runWorkflow, async (_input, req, reply) => {
    const { outcome, response } = await runs.submit(
      (filesDir) => receiveRunRequest(req, filesDir, { maxFiles: MAX_FILES, maxFileBytes: MAX_FILE_BYTES }),
      req.apiKeyId,
    );
    // Simplex's answer either way; a run whose browser did not start is a 503 with succeeded false.
    return reply.status(outcome === 'not_started' ? 503 : 200).send(response);
  });

  addRoute(app, runOperations.listRuns, ({ query: { workflow_id, ...query } }) =>
    runs.list({ ...query, workflowId: workflow_id }),
  );

  addRoute(app, runOperations.runWorkflowStatus, ({ query }) => runs.status(query.session_id));
}
