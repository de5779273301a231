import type { EndReason, SessionState } from '../../contract/sessions.ts';
import { nowIso, type Db } from './db.ts';

export interface SessionRow {
  id: string;
  workflow_id: string;
  state: SessionState;
  end_reason: EndReason | null;
  proxies: number;
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

export type NewSession = Omit<SessionRow, 'state' | 'end_reason' | 'ended_at'>;

export interface ProcessRow {
  tree_id: string;
  kind: 'xvfb' | 'chromium' | 'x11vnc';
  pid: number;
}

/** The sessions table and the pids of the browser trees. */
export function sessionsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO sessions (id, workflow_id, state, proxies, timeout_seconds, webhook_url, metadata, view_hash, control_hash, cdp_hash, created_at, expires_at)
     VALUES (@id, @workflow_id, 'starting', @proxies, @timeout_seconds, @webhook_url, @metadata, @view_hash, @control_hash, @cdp_hash, @created_at, @expires_at)`,
  );
  const byId = db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE id = ?');
  const setLive = db.prepare("UPDATE sessions SET state = 'live', expires_at = ? WHERE id = ? AND state = 'starting'");
  const setEnded = db.prepare(
    "UPDATE sessions SET state = 'ended', end_reason = ?, ended_at = ?, view_hash = NULL, control_hash = NULL, cdp_hash = NULL WHERE id = ? AND state != 'ended'",
  );
  const addPid = db.prepare('INSERT OR REPLACE INTO browser_processes (tree_id, kind, pid) VALUES (?, ?, ?)');
  const dropTree = db.prepare('DELETE FROM browser_processes WHERE tree_id = ?');
  return {
    insert: (row: NewSession) => insert.run(row),
    get: (id: string) => byId.get(id),
    markLive: (id: string, expiresAt: string) => setLive.run(expiresAt, id).changes > 0,
    /** Returns false when it had already ended (ending is idempotent). */
    markEnded: (id: string, reason: EndReason) => setEnded.run(reason, nowIso(), id).changes > 0,
    /** Sessions a previous process left starting or live: they are crashed now. */
    endOrphans: (): string[] => {
      const ids = db.prepare<[], { id: string }>("SELECT id FROM sessions WHERE state != 'ended'").all().map((r) => r.id);
      for (const id of ids) setEnded.run('crashed', nowIso(), id);
      return ids;
    },
    /** Newest first; `before` is the (created_at, id) of the previous page's last row. */
    list(opts: { state?: SessionRow['state']; limit: number; before?: { created_at: string; id: string } }): SessionRow[] {
      const where: string[] = [];
      const args: (string | number)[] = [];
      if (opts.state) {
        where.push('state = ?');
        args.push(opts.state);
      }
      if (opts.before) {
        where.push('(created_at < ? OR (created_at = ? AND id < ?))');
        args.push(opts.before.created_at, opts.before.created_at, opts.before.id);
      }
      const sql = `SELECT * FROM sessions ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ?`;
      return db.prepare<(string | number)[], SessionRow>(sql).all(...args, opts.limit);
    },
    /** A workflow's newest session that has not ended. */
    newestActiveOf: (workflowId: string) =>
      db.prepare<[string], SessionRow>("SELECT * FROM sessions WHERE workflow_id = ? AND state != 'ended' ORDER BY created_at DESC, id DESC LIMIT 1").get(workflowId),
    addPid: (treeId: string, kind: ProcessRow['kind'], pid: number) => addPid.run(treeId, kind, pid),
    dropTree: (treeId: string) => dropTree.run(treeId),
    allProcesses: () => db.prepare<[], ProcessRow>('SELECT * FROM browser_processes').all(),
  };
}
export type SessionsRepo = ReturnType<typeof sessionsRepo>;
