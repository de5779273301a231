import { z } from 'zod';
import {
  isUnfinished,
  StepResult,
  UNFINISHED_RUN_STATUSES,
  type RunSortField,
  type RunStatus,
} from '../../contract/runs.ts';
import { nowIso, type Sql } from './db.ts';
import { jsonColumn } from './jsonColumn.ts';
import { durationMs, listClauses, type ListQuery } from './listQuery.ts';

/** `IN (…)` of the unfinished statuses (contract literals, not input). */
const UNFINISHED = `(${UNFINISHED_RUN_STATUSES.map((s) => `'${s}'`).join(', ')})`;

export interface RunRow {
  id: string;
  session_id: string;
  workflow_id: string;
  status: RunStatus;
  message: string;
  /** JSON list of StepResult. */
  results: string;
  total_actions: number;
  /** JSON object of extract outputs. */
  outputs: string;
  screenshot: Buffer | null;
  metadata: string | null;
  webhook_url: string | null;
  created_at: string;
  completed_at: string | null;
}

/** A run's JSON columns: its step results so far, and its extract outputs by name. */
const resultsColumn = jsonColumn('runs.results', z.array(StepResult));
const outputsColumn = jsonColumn('runs.outputs', z.record(z.string(), z.string()));
export const stepResultsOf = (row: Pick<RunRow, 'results'>): StepResult[] => resultsColumn.read(row.results);
export const outputsOf = (row: Pick<RunRow, 'outputs'>): Record<string, string> => outputsColumn.read(row.outputs);

const RUN_COLUMNS = [
  'id',
  'session_id',
  'workflow_id',
  'status',
  'message',
  'total_actions',
  'metadata',
  'webhook_url',
] as const;
type FinalStatus = Exclude<RunStatus, (typeof UNFINISHED_RUN_STATUSES)[number]>;

/** The runs table: one row per run_workflow call that got as far as a session (or failed trying); each marked with the node that took it. */
export function runsRepo(sql: Sql, nodeId: string) {
  return {
    /** `owner`: the node that answers for the run (a run in the shared queue belongs to none: UNCLAIMED). */
    insert: (row: Pick<RunRow, (typeof RUN_COLUMNS)[number]>, owner = nodeId) =>
      sql.run(
        `INSERT INTO runs (${RUN_COLUMNS.join(', ')}, node_id, results, outputs, created_at, completed_at) VALUES (${RUN_COLUMNS.map(() => '?').join(', ')}, ?, '[]', '{}', ?, ?)`,
        [...RUN_COLUMNS.map((c) => row[c]), owner, nowIso(), isUnfinished(row.status) ? null : nowIso()],
      ),
    getBySession: (sessionId: string) => sql.get<RunRow>('SELECT * FROM runs WHERE session_id = ?', [sessionId]),
    /** The status of the run in each of these sessions that has one, in one query. */
    statusesOfSessions: (sessionIds: readonly string[]) =>
      sessionIds.length === 0
        ? Promise.resolve([])
        : sql.all<Pick<RunRow, 'session_id' | 'status'>>(
            `SELECT session_id, status FROM runs WHERE session_id IN (${sessionIds.map(() => '?').join(', ')})`,
            [...sessionIds],
          ),
    /** A page in the order asked, with the workflow's name, of one status and/or workflow, searched and within a start-time range. */
    page(opts: ListQuery<RunSortField> & { status?: RunStatus; workflowId?: string }) {
      const page = listClauses(
        {
          id: 'r.id',
          createdAt: 'r.created_at',
          prefixSearched: 'r.session_id',
          searched: ['w.name', 'r.message', 'r.metadata'],
          sortBy: {
            created_at: 'r.created_at',
            workflow_name: 'lower(w.name)',
            status: 'r.status',
            duration: { number: durationMs(sql, 'r.created_at', 'r.completed_at') },
          },
        },
        opts,
        { 'r.status': opts.status, 'r.workflow_id': opts.workflowId },
      );
      return sql.all<RunRow & { workflow_name: string | null; sort_value: string | number | null }>(
        `SELECT r.*, w.name AS workflow_name, ${page.sortValue} AS sort_value FROM runs r LEFT JOIN workflows w ON w.id = r.workflow_id
        ${page.where} ${page.orderBy} LIMIT ?`,
        [...page.args, opts.limit],
      );
    },
    /** A queued run got its browser. */
    markStarted: (id: string) =>
      sql.run("UPDATE runs SET status = 'running', message = 'Running' WHERE id = ? AND status = 'queued'", [id]),
    /** Progress while running: results and outputs so far. */
    progress: (id: string, results: StepResult[], outputs: Record<string, string>) =>
      sql.run("UPDATE runs SET results = ?, outputs = ? WHERE id = ? AND status = 'running'", [
        resultsColumn.write(results),
        outputsColumn.write(outputs),
        id,
      ]),
    complete: (
      id: string,
      r: {
        status: FinalStatus;
        message: string;
        results: StepResult[];
        outputs: Record<string, string>;
        screenshot: Buffer | null;
      },
    ) =>
      sql.run(
        'UPDATE runs SET status = ?, message = ?, results = ?, outputs = ?, screenshot = ?, completed_at = ? WHERE id = ?',
        [
          r.status,
          r.message,
          resultsColumn.write(r.results),
          outputsColumn.write(r.outputs),
          r.screenshot,
          nowIso(),
          id,
        ],
      ),
    /**
     * Fail every unfinished run of the nodes `of` selects, keeping the steps each got through, and
     * return them: this node's after a restart (a previous process left them), or a dead node's.
     * One statement: when several nodes reap at once, each run is failed, and told, by one.
     */
    failUnfinished: (of: { node: 'self' } | { deadBefore: number }, message: string) =>
      sql.all<RunRow>(
        `UPDATE runs SET status = 'failed', message = ?, completed_at = ? WHERE status IN ${UNFINISHED} AND ${
          'node' in of ? 'node_id = ?' : 'node_id IN (SELECT id FROM nodes WHERE heartbeat_at < ? AND id != ?)'
        } RETURNING *`,
        'node' in of ? [message, nowIso(), nodeId] : [message, nowIso(), of.deadBefore, nodeId],
      ),
  };
}
export type RunsRepo = ReturnType<typeof runsRepo>;
