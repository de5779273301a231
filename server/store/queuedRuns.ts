import { nowIso, type Sql } from './db.ts';

/** runs.node_id of a run in the shared queue that no node has taken: whichever node is asked answers for it. */
export const UNCLAIMED = '';

export interface QueuedRunRow {
  run_id: string;
  session_id: string;
  /** JSON of the run as RunService prepared it, without its folder. */
  prepared: string;
  view_hash: string;
  control_hash: string;
  cdp_hash: string;
  claimed_by: string | null;
  seq: number;
  put_back: number;
  /** Nodes that stopped while they held it, starting it. */
  stopped_takers: number;
  created_at: string;
}

export interface QueuedFile {
  name: string;
  data: Buffer;
}

/**
 * The shared run queue's material (Postgres): the runs row says `queued`; this holds what the node
 * that takes the run needs to start it. Every change of hands is one conditional statement, so two
 * nodes never both take a run.
 */
export function queuedRunsRepo(sql: Sql, nodeId: string) {
  const unclaim = async (tx: Sql, runIds: string[]) => {
    for (const id of runIds)
      await tx.run('UPDATE runs SET node_id = ? WHERE id = ? AND status = ?', [UNCLAIMED, id, 'queued']);
    return runIds;
  };
  /** A run this node holds, out of the queue with its files; false when it does not hold it. */
  const dropClaimed = async (tx: Sql, runId: string) => {
    await tx.run(
      'DELETE FROM queued_run_files WHERE run_id = ? AND EXISTS (SELECT 1 FROM queued_runs WHERE run_id = ? AND claimed_by = ?)',
      [runId, runId, nodeId],
    );
    return (await tx.run('DELETE FROM queued_runs WHERE run_id = ? AND claimed_by = ?', [runId, nodeId])) > 0;
  };
  return {
    insert: (
      row: Omit<QueuedRunRow, 'claimed_by' | 'seq' | 'put_back' | 'stopped_takers' | 'created_at'>,
      files: QueuedFile[],
    ) =>
      sql.tx(async (tx) => {
        await tx.run(
          'INSERT INTO queued_runs (run_id, session_id, prepared, view_hash, control_hash, cdp_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          [row.run_id, row.session_id, row.prepared, row.view_hash, row.control_hash, row.cdp_hash, nowIso()],
        );
        for (const f of files)
          await tx.run('INSERT INTO queued_run_files (run_id, name, data) VALUES (?, ?, ?)', [
            row.run_id,
            f.name,
            f.data,
          ]);
      }),
    /** How many wait, counted under a lock held to the end of the transaction, so that nodes queueing at once keep to the limit together. */
    async countLocked(): Promise<number> {
      await sql.get('SELECT pg_advisory_xact_lock(7415012)');
      return (await sql.get<{ n: number }>('SELECT count(*) AS n FROM queued_runs'))!.n;
    },
    bySession: (sessionId: string) =>
      sql.get<QueuedRunRow>('SELECT * FROM queued_runs WHERE session_id = ?', [sessionId]),
    /**
     * 1 starts next; a run whose browser is starting counts as first. Null when it is not queued.
     * The order is the one nodes take runs in: put-back runs first, then as they came (pg-boss hands
     * out jobs by priority, then age; each job is written with its run).
     */
    async position(sessionId: string): Promise<number | null> {
      const row = await sql.get<{ claimed_by: string | null; ahead: number }>(
        `SELECT q.claimed_by, (SELECT count(*) FROM queued_runs o WHERE o.claimed_by IS NULL
           AND (o.put_back > q.put_back OR (o.put_back = q.put_back AND o.seq < q.seq))) AS ahead
         FROM queued_runs q WHERE q.session_id = ?`,
        [sessionId],
      );
      if (!row) return null;
      return row.claimed_by === null ? row.ahead + 1 : 1;
    },
    /** Take the run for this node (and the runs row with it); undefined when another node has it or it left the queue. */
    claim: (runId: string) =>
      sql.tx(async (tx) => {
        const row = await tx.get<QueuedRunRow>(
          'UPDATE queued_runs SET claimed_by = ? WHERE run_id = ? AND claimed_by IS NULL RETURNING *',
          [nodeId, runId],
        );
        if (!row) return undefined;
        await tx.run('UPDATE runs SET node_id = ? WHERE id = ?', [nodeId, runId]);
        const files = await tx.all<QueuedFile>('SELECT name, data FROM queued_run_files WHERE run_id = ?', [runId]);
        return { row, files };
      }),
    /** Give a claimed run back to the queue (this node could not start it after all). */
    release: (runId: string) =>
      sql.tx(async (tx) => {
        await tx.run('UPDATE queued_runs SET claimed_by = NULL, put_back = 1 WHERE run_id = ? AND claimed_by = ?', [
          runId,
          nodeId,
        ]);
        await unclaim(tx, [runId]);
      }),
    /** Its browser is live (or it failed): the run leaves the queue, if this node still holds it. */
    remove: (runId: string) => sql.tx((tx) => dropClaimed(tx, runId)),
    /**
     * close_session on a run no node has taken yet: out of the queue, and the run is this node's
     * to fail (so that a crash before its failure is written leaves it to this node's restart).
     * Undefined when it is not waiting.
     */
    withdraw: (sessionId: string) =>
      sql.tx(async (tx) => {
        const row = await tx.get<QueuedRunRow>(
          'DELETE FROM queued_runs WHERE session_id = ? AND claimed_by IS NULL RETURNING *',
          [sessionId],
        );
        if (!row) return undefined;
        await tx.run('DELETE FROM queued_run_files WHERE run_id = ?', [row.run_id]);
        await tx.run('UPDATE runs SET node_id = ? WHERE id = ?', [nodeId, row.run_id]);
        return row;
      }),
    /**
     * Runs that a node took but whose browser never got a session row (the node stopped in between)
     * go back to the queue: this node's after a restart, or a dead node's. Returns their run ids.
     */
    requeueClaimed: (of: { node: 'self' } | { deadBefore: number }, maxStoppedTakers: number) =>
      sql.tx(async (tx) => {
        const held = `${'node' in of ? 'claimed_by = ?' : 'claimed_by IN (SELECT id FROM nodes WHERE heartbeat_at < ? AND id != ?)'}
           AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = queued_runs.session_id)`;
        const params = 'node' in of ? [nodeId] : [of.deadBefore, nodeId];
        // Taken by this many nodes that each stopped while starting it: it may be what stops them.
        // This node takes the run's row too, in the same transaction: while it said the dead node,
        // a reaper failing the dead node's runs (failUnfinished) would fail it a second time, and
        // one that did so first has told its end already (then it only leaves the queue).
        const poisoned: QueuedRunRow[] = [];
        for (const row of await tx.all<QueuedRunRow>(
          `UPDATE queued_runs SET claimed_by = ?, stopped_takers = stopped_takers + 1 WHERE ${held} AND stopped_takers + 1 >= ? RETURNING *`,
          [nodeId, ...params, maxStoppedTakers],
        )) {
          if (await tx.run("UPDATE runs SET node_id = ? WHERE id = ? AND status = 'queued'", [nodeId, row.run_id]))
            poisoned.push(row);
          else await dropClaimed(tx, row.run_id);
        }
        const rows = await tx.all<{ run_id: string }>(
          `UPDATE queued_runs SET claimed_by = NULL, put_back = 1, stopped_takers = stopped_takers + 1 WHERE ${held} RETURNING run_id`,
          params,
        );
        return {
          requeued: await unclaim(
            tx,
            rows.map((r) => r.run_id),
          ),
          poisoned,
        };
      }),
    /** Material of runs that are no longer queued (failed with a node that died while starting them). */
    dropSettled: () =>
      sql.tx(async (tx) => {
        await tx.run("DELETE FROM queued_run_files WHERE run_id NOT IN (SELECT id FROM runs WHERE status = 'queued')");
        await tx.run("DELETE FROM queued_runs WHERE run_id NOT IN (SELECT id FROM runs WHERE status = 'queued')");
      }),
  };
}
export type QueuedRunsRepo = ReturnType<typeof queuedRunsRepo>;
