import type { SessionStatus } from '../../contract/runControl.ts';
import { isUnfinished, type FileMetadata } from '../../contract/runs.ts';
import type { EndReason } from '../../contract/sessions.ts';
import type { SessionRow } from '../store/sessions.ts';
import { outputsOf, type RunRow } from '../store/runs.ts';
import type { PauseState } from './pauseGate.ts';
import { sessionMetadataOf, workflowMetadataOf } from '../workflows/simplexMetadata.ts';
import { structuredOutputOf } from '../workflows/structuredOutput.ts';
import type { WorkflowRunFacts } from '../domain/runFacts.ts';

const NORMAL_ENDS: ReadonlySet<EndReason | null | undefined> = new Set<EndReason>([
  'stopped',
  'completed',
  'timed_out',
]);

/**
 * Simplex's session status, from what we keep: the run when there is one (a paused run is in
 * progress), else the session itself. scraper_outputs are the extract values as text;
 * structured_output is the same values typed by the workflow's structured_output, once the run has
 * ended, as Simplex hands over its structured output at the end. Fields are typed as the clients
 * type them: metadata the caller's string, paused_key "" when not paused.
 */
export function sessionStatusOf(input: {
  session: SessionRow | undefined;
  run: RunRow | undefined;
  pause: PauseState | null;
  /** Where the run waits for a browser (1: next); null when it is not queued. */
  queuePosition: number | null;
  workflow: WorkflowRunFacts;
  logsUrl: string;
  /** The files the session kept (app.artifacts), with their signed URLs. */
  files?: FileMetadata[];
  /** Signed URL of the session's recording; null when none was kept. */
  recordingUrl?: string | null;
}): SessionStatus {
  const { session, run, pause } = input;
  const outputs = run ? outputsOf(run) : {};
  const inProgress = run ? isUnfinished(run.status) : session?.state !== 'ended';
  const metadata = run?.metadata ?? session?.metadata ?? null;
  let success: boolean | null = null;
  if (!inProgress) success = run ? run.status === 'succeeded' : NORMAL_ENDS.has(session?.end_reason);
  return {
    in_progress: inProgress,
    success,
    metadata,
    session_metadata: sessionMetadataOf(metadata),
    workflow_metadata: workflowMetadataOf(input.workflow.metadata),
    file_metadata: input.files ?? [],
    scraper_outputs: outputs,
    structured_output:
      run && !inProgress
        ? structuredOutputOf(outputs, input.workflow.structuredOutput, new Set(input.workflow.aiOutputs))
        : null,
    final_message: run && !inProgress ? run.message : null,
    queued: run?.status === 'queued',
    queue_position: run?.status === 'queued' ? input.queuePosition : null,
    paused: pause !== null,
    paused_key: pause?.key ?? '',
    pause_type: pause?.type ?? null,
    pause_message: pause?.message ?? null,
    logs_url: input.logsUrl,
    recording_url: input.recordingUrl ?? null,
  };
}
