import type { EndReason, SessionIsolation, SessionSortField, SessionState } from '../../contract/sessions.ts';
import { nowIso, type Sql } from './db.ts';
import { durationMs, listClauses, type ListQuery } from './listQuery.ts';

export interface SessionRow {
  id: string;
  workflow_id: string;
  state: SessionState;
  end_reason: EndReason | null;
  proxies: number;
  isolation: SessionIsolation;
  timeout_seconds: number;
  webhook_url: string | null;
  metadata: string | null;
  view_hash: string | null;
  control_hash: string | null;
  cdp_hash: string | null;
  created_at: string;
  expires_at: string;
  ended_at: string | null;
}

/** A session with its workflow's name (null once the workflow is deleted: its sessions stay). */
export type NamedSessionRow = SessionRow & { workflow_name: string | null };

const NAMED = 'SELECT s.*, w.name AS workflow_name FROM sessions s LEFT JOIN workflows w ON w.id = s.workflow_id';

/** What the session.ended of a crashed session is told with. */
export type CrashedSession = Pick<SessionRow, 'id' | 'workflow_id' | 'webhook_url' | 'metadata'>;

export type NewSession = Omit<SessionRow, 'state' | 'end_reason' | 'ended_at'>;

export interface ProcessRow {
  tree_id: string;
  kind: 'xvfb' | 'chromium' | 'x11vnc';
  pid: number;
}

const SESSION_COLUMNS = [
  'id',
  'workflow_id',
  'proxies',
  'isolation',
  'timeout_seconds',
  'webhook_url',
  'metadata',
  'view_hash',
  'control_hash',
  'cdp_hash',
  'created_at',
  'expires_at',
] as const;

/** The sessions table and the pids of the browser trees; what a node writes is marked as its own (`nodeId`). */
export function sessionsRepo(sql: Sql, nodeId: string) {
  return {
    insert: (row: NewSession) =>
      sql.run(
        `INSERT INTO sessions (state, node_id, ${SESSION_COLUMNS.join(', ')}) VALUES ('starting', ?, ${SESSION_COLUMNS.map(() => '?').join(', ')})`,
        [nodeId, ...SESSION_COLUMNS.map((c) => row[c])],
      ),
    get: (id: string) => sql.get<NamedSessionRow>(`${NAMED} WHERE s.id = ?`, [id]),
    markLive: async (id: string, expiresAt: string) =>
      (await sql.run("UPDATE sessions SET state = 'live', expires_at = ? WHERE id = ? AND state = 'starting'", [
        expiresAt,
        id,
      ])) > 0,
    /** A live session's new timeout and end; false when it is no longer live. */
    setTimeout: async (id: string, timeoutSeconds: number, expiresAt: string) =>
      (await sql.run("UPDATE sessions SET timeout_seconds = ?, expires_at = ? WHERE id = ? AND state = 'live'", [
        timeoutSeconds,
        expiresAt,
        id,
      ])) > 0,
    /** Returns false when it had already ended (ending is idempotent). */
    markEnded: async (id: string, reason: EndReason) =>
      (await sql.run(
        "UPDATE sessions SET state = 'ended', end_reason = ?, ended_at = ?, view_hash = NULL, control_hash = NULL, cdp_hash = NULL WHERE id = ? AND state != 'ended'",
        [reason, nowIso(), id],
      )) > 0,
    /**
     * End as crashed every session not ended of the nodes `of` selects, and return them: this
     * node's after a restart (a previous process left them), or those of nodes silent since
     * `deadBefore`. One statement: when several nodes reap at once, each session is ended, and
     * told, by one.
     */
    endCrashed: (of: { node: 'self' } | { deadBefore: number }) =>
      sql.all<CrashedSession>(
        `UPDATE sessions SET state = 'ended', end_reason = 'crashed', ended_at = ?, view_hash = NULL, control_hash = NULL, cdp_hash = NULL
         WHERE state != 'ended' AND ${'node' in of ? 'node_id = ?' : 'node_id IN (SELECT id FROM nodes WHERE heartbeat_at < ? AND id != ?)'}
         RETURNING id, workflow_id, webhook_url, metadata`,
        'node' in of ? [nowIso(), nodeId] : [nowIso(), of.deadBefore, nodeId],
      ),
    /** A page in the order asked, of one state or all, searched and within a start-time range. */
    list(opts: ListQuery<SessionSortField> & { state?: SessionRow['state'] }) {
      const page = listClauses(
        {
          id: 's.id',
          createdAt: 's.created_at',
          prefixSearched: 's.id',
          searched: ['w.name', 's.metadata'],
          sortBy: {
            created_at: 's.created_at',
            workflow_name: 'lower(w.name)',
            state: 's.state',
            end_reason: 's.end_reason',
            duration: { number: durationMs(sql, 's.created_at', 's.ended_at') },
          },
        },
        opts,
        { 's.state': opts.state },
      );
      return sql.all<NamedSessionRow & { sort_value: string | number | null }>(
        `SELECT s.*, w.name AS workflow_name, ${page.sortValue} AS sort_value FROM sessions s LEFT JOIN workflows w ON w.id = s.workflow_id
         ${page.where} ${page.orderBy} LIMIT ?`,
        [...page.args, opts.limit],
      );
    },
    /** A workflow's newest session that has not ended. */
    newestActiveOf: (workflowId: string) =>
      sql.get<SessionRow>(
        "SELECT * FROM sessions WHERE workflow_id = ? AND state != 'ended' ORDER BY created_at DESC, id DESC LIMIT 1",
        [workflowId],
      ),
    addPid: (treeId: string, kind: ProcessRow['kind'], pid: number) =>
      sql.run(
        'INSERT INTO browser_processes (tree_id, kind, pid, node_id) VALUES (?, ?, ?, ?) ON CONFLICT (tree_id, kind) DO UPDATE SET pid = excluded.pid',
        [treeId, kind, pid, nodeId],
      ),
    dropTree: (treeId: string) => sql.run('DELETE FROM browser_processes WHERE tree_id = ?', [treeId]),
    /** The recorded processes of nodes silent since `deadBefore` (they may be on this host: the markers tell). */
    processesOfDeadNodes: (deadBefore: number) =>
      sql.all<ProcessRow>(
        'SELECT tree_id, kind, pid FROM browser_processes WHERE node_id IN (SELECT id FROM nodes WHERE heartbeat_at < ? AND id != ?)',
        [deadBefore, nodeId],
      ),
    /** This node's recorded processes (pids mean nothing on another host). */
    allProcesses: () =>
      sql.all<ProcessRow>('SELECT tree_id, kind, pid FROM browser_processes WHERE node_id = ?', [nodeId]),
  };
}
export type SessionsRepo = ReturnType<typeof sessionsRepo>;
