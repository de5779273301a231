import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { runOperations } from '../../contract/runs.ts';
import { notFound } from '../http/errors.ts';
import { addRoute } from '../http/route.ts';
import { RunService } from '../workflows/runService.ts';
import { receiveRunForm } from '../workflows/uploads.ts';

/** POST /api/run_workflow (multipart, spec 2.5) and GET /api/run_workflow_status. */
export async function runRoutes(app: FastifyInstance): Promise<void> {
  const { MAX_FILES, MAX_FILE_BYTES } = app.config;
  // Multipart only in this plugin's scope: elsewhere it stays a 415.
  await app.register(multipart, {
    limits: { files: MAX_FILES, fileSize: MAX_FILE_BYTES, fields: 20, fieldSize: 1024 * 1024, parts: MAX_FILES + 20 },
  });
  const runs = new RunService(app);
  // After the session manager's start (which reaps a dead process's browsers) and the webhook loop's.
  app.addHook('onReady', async () => {
    await runs.recoverInterrupted();
  });
  app.addHook('onClose', () => runs.closeAll());

  addRoute(app, runOperations.runWorkflow, async (_input, req, reply) => {
    const runId = randomUUID();
    const form = await receiveRunForm(req, runs.runDir(runId), { maxFiles: MAX_FILES, maxFileBytes: MAX_FILE_BYTES });
    let prepared;
    try {
      prepared = await runs.prepare(runId, form);
    } catch (err) {
      runs.removeFiles({ filesDir: runs.runDir(runId) });
      throw err;
    }
    const { status, body } = await runs.start(prepared);
    return reply.status(status).send(body);
  });

  addRoute(app, runOperations.runWorkflowStatus, ({ query }) => {
    const status = runs.status(query.session_id);
    if (!status) throw notFound('Run');
    return status;
  });
}
