import fs from 'node:fs';
import type { FileMetadata, WebhookEvent } from '../../contract/runs.ts';
import { outputsOf, stepResultsOf, type RunRow } from '../store/runs.ts';
import { runCompletedEvent } from '../webhooks/fromBus.ts';

export const INTERRUPTED_MESSAGE =
  'The run was interrupted: the server stopped before the run finished (it crashed, was killed or lost power); run the workflow again';
export const NODE_LOST_MESSAGE =
  'The run was interrupted: the node running it stopped answering (it crashed, was killed or lost power); run the workflow again';

export interface InterruptedRunsDeps {
  /** Marks the runs failed (with the message) and returns them, in one statement (RunsRepo.failUnfinished). */
  claim: (message: string) => Promise<RunRow[]>;
  /** Into the durable webhook outbox; resolves once the row is written. */
  enqueue: (url: string, event: WebhookEvent) => Promise<unknown>;
  runDir: (runId: string) => string;
  /** Into the session's event log, so logs_url and retrieve_session_logs show how the run ended. */
  record: (sessionId: string, message: string, outputs: Record<string, string>) => void;
  /** The files the session kept before the process stopped (each completed download is kept as it completes). */
  files: (sessionId: string) => FileMetadata[];
}

/**
 * Runs that cannot resume because the process running them is gone: at start, those a previous
 * process of this node left queued or running; on any node, those of a node that died. Each is
 * failed, keeping the steps it got through, then its run.completed (failed) webhook goes to the
 * outbox. Marked first, in one statement: when several nodes notice a dead one at once, exactly
 * one of them tells each run. Returns the runs.
 */
export async function failInterruptedRuns(
  { claim, enqueue, runDir, record, files }: InterruptedRunsDeps,
  message: string,
): Promise<RunRow[]> {
  const rows = await claim(message);
  for (const row of rows) {
    const outputs = outputsOf(row);
    if (row.webhook_url) {
      const event = runCompletedEvent({
        session_id: row.session_id,
        workflow_id: row.workflow_id,
        succeeded: false,
        message,
        outputs,
        metadata: row.metadata ?? undefined,
        total_actions: row.total_actions,
        steps_run: stepResultsOf(row).length,
        file_metadata: files(row.session_id),
      });
      await enqueue(row.webhook_url, event);
    }
    record(row.session_id, message, outputs);
    fs.rmSync(runDir(row.id), { recursive: true, force: true });
  }
  return rows;
}
