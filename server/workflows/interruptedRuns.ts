import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookEvent } from '../../contract/runs.ts';
import type { RunsRepo } from '../store/runs.ts';
import { runCompletedEvent } from '../webhooks/fromBus.ts';

export const INTERRUPTED_MESSAGE =
  'The run was interrupted: the server stopped before the run finished (it crashed, was killed or lost power); run the workflow again';

export interface InterruptedRunsDeps {
  repo: RunsRepo;
  /** Into the durable webhook outbox; resolves once the row is written. */
  enqueue: (url: string, event: WebhookEvent) => Promise<unknown>;
  runDir: (runId: string) => string;
  /** Into the session's event log, so logs_url and retrieve_session_logs show how the run ended. */
  record: (sessionId: string, message: string, outputs: Record<string, string>) => void;
  log: FastifyBaseLogger;
}

/**
 * At start, before requests: runs a previous process of this DATA_DIR left queued or running cannot resume
 * (their browser died with it). Each is failed, keeping the steps it got through, and its
 * run.completed (failed) webhook is written to the outbox *before* the run is marked: dying again
 * in between sends that webhook twice (at-least-once) instead of never. Returns how many.
 */
export async function failInterruptedRuns({ repo, enqueue, runDir, record, log }: InterruptedRunsDeps): Promise<number> {
  const rows = await repo.unfinished();
  for (const row of rows) {
    const outputs = JSON.parse(row.outputs) as Record<string, string>;
    if (row.webhook_url) {
      const event = runCompletedEvent({
        session_id: row.session_id,
        workflow_id: row.workflow_id,
        succeeded: false,
        message: INTERRUPTED_MESSAGE,
        outputs,
        metadata: row.metadata ?? undefined,
        total_actions: row.total_actions,
        steps_run: (JSON.parse(row.results) as unknown[]).length,
      });
      await enqueue(row.webhook_url, event);
    }
    if (await repo.failInterrupted(row.id, INTERRUPTED_MESSAGE)) record(row.session_id, INTERRUPTED_MESSAGE, outputs);
    fs.rmSync(runDir(row.id), { recursive: true, force: true });
  }
  if (rows.length) log.warn(`${rows.length} run(s) were interrupted when the previous process stopped; they are marked failed`);
  return rows.length;
}
