import type { SessionStatus } from '../../contract/runControl.ts';
import {
  isUnfinished,
  type RunSortField,
  type RunStatus,
  type RunStatusResponse,
  type RunSummary,
} from '../../contract/runs.ts';
import { NotFound } from '../domain/errors.ts';
import { searchOf, sortedPageOf, type Page, type SortedPageRequest } from '../domain/pages.ts';
import { outputsOf, stepResultsOf, type RunRow } from '../store/runs.ts';
import type { PauseState } from './pauseGate.ts';
import type { RunParts, RunServiceDeps } from './runDeps.ts';
import { sessionStatusOf } from './sessionStatus.ts';

/** Where a run's state is read from: its row, its session's row, and this node's run under way or queue. */
export type RunStatusesDeps = Pick<RunServiceDeps, 'workflows' | 'urls' | 'artifacts' | 'recordings'> &
  Pick<RunParts, 'runRows' | 'sessionRows' | 'active' | 'queue'>;

/** Which runs a list reads: in the order asked, of one status and/or one workflow, or all, searched and within a time range. */
export interface RunListRequest extends SortedPageRequest<RunSortField> {
  status?: RunStatus;
  workflowId?: string;
}

/** Runs as the APIs read them: the list, a run's status, and Simplex's session status. */
export class RunStatuses {
  constructor(private readonly deps: RunStatusesDeps) {}

  list(request: RunListRequest): Promise<Page<RunSummary>> {
    return sortedPageOf(
      request,
      (limit, before) =>
        this.deps.runRows.page({
          ...searchOf(request),
          status: request.status,
          workflowId: request.workflowId,
          sort: request.sort,
          order: request.order,
          limit,
          before,
        }),
      (row) => toSummary(row),
    );
  }

  /** run_workflow_status; NotFound when the session has no run. */
  async status(sessionId: string): Promise<RunStatusResponse> {
    const row = await this.deps.runRows.getBySession(sessionId);
    if (!row) throw new NotFound('Run');
    return toStatus(row, this.deps.active.pauseOf(sessionId), await this.deps.queue.position(sessionId));
  }

  /** Simplex's session status: the run when there is one, else the session; NotFound when neither is known. */
  async sessionStatus(sessionId: string): Promise<SessionStatus> {
    const { deps } = this;
    const session = await deps.sessionRows.get(sessionId);
    const run = await deps.runRows.getBySession(sessionId);
    if (!session && !run) throw new NotFound('Session');
    return sessionStatusOf({
      session,
      run,
      pause: deps.active.pauseOf(sessionId),
      queuePosition: await deps.queue.position(sessionId),
      workflow: await deps.workflows.runFactsOf(run?.workflow_id ?? session!.workflow_id),
      logsUrl: deps.urls.logs(sessionId),
      files: deps.urls.fileMetadata(sessionId, deps.artifacts.files(sessionId)),
      recordingUrl: deps.recordings.fileOf(sessionId) ? deps.urls.recording(sessionId) : null,
    });
  }
}

function toSummary(r: RunRow & { workflow_name: string | null }): RunSummary {
  return {
    session_id: r.session_id,
    workflow_id: r.workflow_id,
    workflow_name: r.workflow_name,
    status: r.status,
    message: r.message,
    total_actions: r.total_actions,
    created_at: r.created_at,
    completed_at: r.completed_at,
    duration_ms: r.completed_at ? Date.parse(r.completed_at) - Date.parse(r.created_at) : null,
  };
}

function toStatus(row: RunRow, pause: PauseState | null, queuePosition: number | null): RunStatusResponse {
  const completed = !isUnfinished(row.status);
  return {
    succeeded: row.status === 'succeeded',
    completed,
    status: row.status,
    message: row.message,
    results: stepResultsOf(row),
    total_actions: row.total_actions,
    session_id: row.session_id,
    workflow_id: row.workflow_id,
    completed_at: row.completed_at,
    outputs: outputsOf(row),
    screenshot: row.screenshot ? `data:image/jpeg;base64,${row.screenshot.toString('base64')}` : null,
    pause,
    queue_position: row.status === 'queued' ? queuePosition : null,
  };
}
