import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { MAX_STOPPED_TAKERS, type SharedRunQueue } from '../server/runs/queue/sharedRunQueue.ts';
import { createDatabase, queryOnce, startPostgres, type TestPostgres } from './helpers/postgres.ts';
import { createWorkflow, runWorkflow, sessionLog, untilCompleted } from './helpers/runs.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';

/**
 * Issue 23: no poison pills in a cluster. A queued run that nodes took and then stopped while
 * starting (died, restarted) goes back to the queue once; when that has happened
 * MAX_STOPPED_TAKERS times it is failed, saying why, instead of taking down the next node. The
 * nodes' deaths are written into the store as a dead node leaves them: the run claimed by a node
 * whose heartbeat stopped, no session started.
 */
let postgres: TestPostgres;
let databaseUrl: string;
let server: TestServer;
beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await createDatabase(postgres.adminUrl);
  server = await startServer({ DATABASE_URL: databaseUrl, MAX_SESSIONS: '1' });
});
afterAll(async () => {
  await server?.close();
  await postgres?.stop();
});

/** Queue a run behind the one session the node may hold; its session id. */
async function queuedRun(workflowId: string): Promise<string> {
  const { body } = await runWorkflow(server, { workflow_id: workflowId });
  const [row] = await queryOnce<{ status: string }>(databaseUrl, 'SELECT status FROM runs WHERE session_id = $1', [
    body.session_id,
  ]);
  expect(row?.status).toBe('queued');
  return body.session_id;
}

/** What a node that took the run and died leaves in the store, `stops` times over. */
async function takenByDeadNode(sessionId: string, stops: number): Promise<void> {
  await queryOnce(
    databaseUrl,
    "INSERT INTO nodes (id, max_sessions, sessions, started_at, heartbeat_at) VALUES ('dead-node', 1, 1, 1, 1) ON CONFLICT (id) DO NOTHING",
  );
  // One statement, as a node's claim is: the server's own reaper may look at any moment, and must
  // never see the queue's row taken and the run's row not (or the reverse).
  await queryOnce(
    databaseUrl,
    `WITH taken AS (
       UPDATE queued_runs SET claimed_by = 'dead-node', stopped_takers = $2 WHERE session_id = $1 RETURNING run_id
     ) UPDATE runs SET node_id = 'dead-node' WHERE id IN (SELECT run_id FROM taken)`,
    [sessionId, stops],
  );
}

/**
 * The node's one place taken by a live session (so runs queue), and a workflow to run. The holder
 * is ended when the test finishes: a retry needs the place free again.
 */
async function nodeFullAndWorkflow() {
  const holder = CreateWorkflowSessionResponse.parse(
    await (await postJson(server, '/api/create_workflow_session', { workflow_name: 'holder' })).json(),
  );
  onTestFinished(async () => void (await server.api(`/api/sessions/${holder.session_id}`, { method: 'DELETE' })));
  const workflowId = await createWorkflow(server, {
    name: `poison-${randomUUID()}`,
    flow: { title: 'poison', steps: [{ type: 'navigate', url: 'about:blank' }] },
  });
  return { holder, workflowId };
}

describe('a queued run whose takers keep stopping', () => {
  it(`goes back to the queue until ${MAX_STOPPED_TAKERS} takers stopped, then fails saying why`, async () => {
    const { holder, workflowId } = await nodeFullAndWorkflow();
    const queue = server.app.runs.queue as SharedRunQueue;

    // One taker stopped: the run goes back, first in line.
    const once = await queuedRun(workflowId);
    await takenByDeadNode(once, 0);
    await queue.requeueOfDeadNodes(Date.now());
    expect(
      await queryOnce(
        databaseUrl,
        'SELECT claimed_by, stopped_takers, put_back FROM queued_runs WHERE session_id = $1',
        [once],
      ),
    ).toEqual([{ claimed_by: null, stopped_takers: 1, put_back: 1 }]);

    // Its second taker stopped too: failed, never handed to a third node.
    const twice = await queuedRun(workflowId);
    await takenByDeadNode(twice, MAX_STOPPED_TAKERS - 1);
    await queue.requeueOfDeadNodes(Date.now());
    const failed = await untilCompleted(server, twice, 30_000);
    expect(failed.status).toBe('failed');
    expect(failed.message).toBe(
      `The run did not start: ${MAX_STOPPED_TAKERS} nodes stopped while starting it, so it is not handed to another node (it may be what stopped them)`,
    );
    expect(await queryOnce(databaseUrl, 'SELECT run_id FROM queued_runs WHERE session_id = $1', [twice])).toEqual([]);
    expect((await sessionLog(server, twice)).filter((e) => e.event === 'RunError')).toHaveLength(1);

    // The first one still runs once the node has room.
    expect((await server.api(`/api/sessions/${holder.session_id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await untilCompleted(server, once, 60_000)).status).toBe('succeeded');
  });

  it('is not failed a second time when a reaper failed it first (its end was told once)', async () => {
    const { workflowId } = await nodeFullAndWorkflow();
    const reaped = await queuedRun(workflowId);
    await takenByDeadNode(reaped, MAX_STOPPED_TAKERS - 1);
    // What another node's reaper does to a dead node's unfinished runs (RunsRepo.failUnfinished), first.
    await queryOnce(databaseUrl, "UPDATE runs SET status = 'failed', message = 'reaped first' WHERE session_id = $1", [
      reaped,
    ]);
    await (server.app.runs.queue as SharedRunQueue).requeueOfDeadNodes(Date.now());
    expect(await queryOnce(databaseUrl, 'SELECT status, message FROM runs WHERE session_id = $1', [reaped])).toEqual([
      { status: 'failed', message: 'reaped first' },
    ]);
    expect(await queryOnce(databaseUrl, 'SELECT run_id FROM queued_runs WHERE session_id = $1', [reaped])).toEqual([]);
    expect((await sessionLog(server, reaped)).filter((e) => e.event === 'RunError')).toEqual([]);
  });
});
