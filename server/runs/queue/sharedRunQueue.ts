import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import { z } from 'zod';
import { ErrorCode } from '../../../contract/errors.ts';
import type { RunWorkflowResponse } from '../../../contract/runs.ts';
import { Flow } from '../../../contract/steps.ts';
import { SessionIsolation } from '../../../contract/sessions.ts';
import { grants, hashColumns, hashesFromColumns, mintTokens } from '../../sessions/tokens.ts';
import type { Capability, LiveSession } from '../../sessions/types.ts';
import { AtCapacity, Conflict, Unavailable } from '../../domain/errors.ts';
import type { Sql, SqlValue } from '../../store/sql.ts';
import { jsonColumn } from '../../store/jsonColumn.ts';
import { runsRepo } from '../../store/runs.ts';
import { queuedRunsRepo, UNCLAIMED, type QueuedFile, type QueuedRunRow } from '../../store/queuedRuns.ts';
import { sessionOf, type PreparedRun } from '../preparedRun.ts';
import { ProfileUse } from '../../../contract/profileUse.ts';
import {
  queuedMessage,
  RETRY_AFTER_SECONDS,
  type RunQueue,
  type RunQueueDeps,
  type RunQueueFolders,
  type RunQueueHost,
} from './runQueue.ts';

// Loaded only for this queue (Postgres): it is about 170 ms and 17 MB a SQLite server does not need.
const pgBoss = () => import('pg-boss');

/** The pg-boss queue every node takes runs from. */
const QUEUE = 'browserdesk-runs';
/** A node with room asks for the next run this often, and at once when one of its sessions ends. */
const POLL_MS = 1000;
/** Seconds before pg-boss hands a job out again whose taker went silent before claiming it (the claim is one statement away). */
const JOB_EXPIRE_SECONDS = 30;
/** A run put back after its taker could not start it goes ahead of runs that never were taken. */
const PUT_BACK_PRIORITY = 1;
/**
 * A run whose takers stopped this many times while starting it is failed instead of handed on:
 * nothing in a run should end a node, but if one does, it must not end the cluster node by node.
 */
export const MAX_STOPPED_TAKERS = 2;

/** What a job carries: only the run's id; the run itself is in queued_runs. */
const JobData = z.object({ run_id: z.uuid() });
/** A run as queued_runs keeps it: PreparedRun without its id and folder, which are the taker's. */
const StoredRun = z.object({
  workflowId: z.string(),
  flow: Flow,
  /** The run's variables; rows queued before they were kept apart have them filled into the flow already: none. */
  variables: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  credentials: z.array(z.string()),
  totalActions: z.number().int().min(0),
  metadata: z.string().optional(),
  webhookUrl: z.string().optional(),
  /** Whether the run asked for self-healing; rows queued before it was kept have none: false. */
  heal: z.boolean().default(false),
  profile: ProfileUse.optional(),
  /** run_workflow's isolation and the key the run came with; rows queued before they were kept have neither (the server's default, no key). */
  isolation: SessionIsolation.optional(),
  apiKeyId: z.string().nullable().optional(),
});
const preparedColumn = jsonColumn('queued_runs.prepared', StoredRun);

/**
 * The queue on Postgres, shared by every node: a run that finds no browser is written to the store
 * with its uploads, and a pg-boss job announces it. Any node with room fetches the next job, claims
 * the run in one statement and starts its session under the id and tokens already answered. A run
 * is never lost with a node: waiting runs belong to no node, a node that stops leaves them waiting,
 * and a run claimed by a node that died before its browser started goes back into the queue.
 */
export class SharedRunQueue implements RunQueue {
  readonly shared = true;
  private readonly repo;
  private readonly boss: Promise<PgBoss>;
  private closed = false;
  /** Set by take(): runs are taken only once this node's leftovers are settled. */
  private taking = false;
  private pumping: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private offEnded: (() => void) | undefined;
  /** Claimed runs whose session this node is starting, by session id: settled once started or failed. */
  private readonly starting = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: RunQueueDeps,
    private readonly host: RunQueueHost,
    private readonly folders: RunQueueFolders,
    connectionString: string,
  ) {
    this.repo = queuedRunsRepo(deps.db, deps.config.nodeId);
    // Its own small pool; no cron (schedule), its maintenance (expiring jobs whose taker died) kept on.
    this.boss = pgBoss().then(({ default: PgBoss }) => {
      const boss = new PgBoss({
        connectionString,
        max: 2,
        schedule: false,
        supervise: true,
        maintenanceIntervalSeconds: JOB_EXPIRE_SECONDS,
      });
      boss.on('error', (err) => deps.log.warn({ err }, 'run queue (pg-boss)'));
      return boss;
    });
  }

  async start(): Promise<void> {
    const boss = await this.boss;
    await boss.start();
    if (!(await boss.getQueue(QUEUE)))
      await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: 3, expireInSeconds: JOB_EXPIRE_SECONDS });
    await this.requeue({ node: 'self' });
  }

  take(): void {
    this.taking = true;
    this.timer = setInterval(() => this.pump(), POLL_MS).unref();
    this.offEnded = this.deps.bus.on('session.ended', () => this.pump());
    this.pump();
  }

  /** What waits stays in the store for the other nodes; the runs this node took and is starting go on. */
  stopTaking(): void {
    this.taking = false;
    clearInterval(this.timer);
    this.offEnded?.();
  }

  /** Nothing more: this queue pumps on each session.ended of the bus and every POLL_MS (take()). */
  sessionEnded(): void {}

  holding(): number {
    return this.starting.size;
  }

  async enqueue(run: PreparedRun): Promise<RunWorkflowResponse> {
    const { MAX_SESSIONS, MAX_QUEUED_RUNS } = this.deps.config;
    const sessionId = randomUUID();
    const { tokens, hashes } = mintTokens();
    let position = 0;
    let message = '';
    try {
      const files = readFiles(run.filesDir);
      // The run, its uploads and its job in one transaction: a job never names a missing run, and a
      // queued run always has its job.
      await this.deps.db.tx(async (tx) => {
        const queued = queuedRunsRepo(tx, this.deps.config.nodeId);
        if ((await queued.countLocked()) >= MAX_QUEUED_RUNS) {
          throw new AtCapacity(
            `Every node is running its ${MAX_SESSIONS} sessions and ${MAX_QUEUED_RUNS} runs are already waiting; retry later`,
            RETRY_AFTER_SECONDS,
          );
        }
        await queued.insert(
          {
            run_id: run.runId,
            session_id: sessionId,
            prepared: preparedColumn.write(storedOf(run)),
            ...hashColumns(hashes),
          },
          files,
        );
        position = (await queued.position(sessionId))!;
        message = queuedMessage(position, `every node is running its ${MAX_SESSIONS} sessions`);
        await this.host.recordQueued(run, { sessionId, position, message, owner: UNCLAIMED }, tx);
        await sendJob(await this.boss, tx, run.runId);
      });
    } finally {
      // In the store now (or refused): the node that takes the run writes them to its own disk.
      this.folders.remove(run);
    }
    this.deps.bus.emit('run.queued', { session_id: sessionId, workflow_id: run.workflowId, position });
    this.pump();
    return {
      succeeded: true,
      message,
      session_id: sessionId,
      vnc_url: this.deps.urls.vnc(sessionId, tokens.control),
      logs_url: this.deps.urls.logs(sessionId),
    };
  }

  position(sessionId: string): Promise<number | null> {
    return this.repo.position(sessionId);
  }

  async waiting(sessionId: string, token: string | undefined, capability: Capability): Promise<number | null> {
    const row = await this.repo.bySession(sessionId);
    return grants(row && hashesFromColumns(row), token, capability) ? this.repo.position(sessionId) : null;
  }

  async leave(sessionId: string): Promise<boolean> {
    const row = await this.repo.withdraw(sessionId);
    if (row) {
      await this.host.failUnstarted(
        this.runOf(row),
        sessionId,
        new Conflict('The session was ended while it waited for a browser'),
      );
      return true;
    }
    // Taken meanwhile. By this node: once its start settles the session is ended like any other.
    const starting = this.starting.get(sessionId);
    if (starting) {
      await starting;
      return false;
    }
    const claimed = await this.repo.bySession(sessionId);
    if (claimed?.claimed_by)
      throw new Conflict('The run is starting its browser on another node this moment; close the session again');
    return false;
  }

  requeueOfDeadNodes(deadBefore: number): Promise<void> {
    return this.requeue({ deadBefore });
  }

  forgetFinished(): Promise<void> {
    return this.repo.dropSettled();
  }

  /** Claimed runs that never got a session go back, each with a new job in the same transaction. */
  private async requeue(of: { node: 'self' } | { deadBefore: number }): Promise<void> {
    const { requeued, poisoned } = await this.deps.db.tx(async (tx) => {
      const back = await queuedRunsRepo(tx, this.deps.config.nodeId).requeueClaimed(of, MAX_STOPPED_TAKERS);
      for (const run_id of back.requeued) await sendJob(await this.boss, tx, run_id, PUT_BACK_PRIORITY);
      return back;
    });
    if (requeued.length)
      this.deps.log.info(`${requeued.length} queued run(s) a stopped node had taken went back into the queue`);
    for (const row of poisoned) {
      this.deps.log.error(
        { session_id: row.session_id },
        'a queued run whose takers stopped while starting it is failed, not handed on',
      );
      const why = new Error(
        `${row.stopped_takers} nodes stopped while starting it, so it is not handed to another node (it may be what stopped them)`,
      );
      await this.failTaken(row, why).catch((err: unknown) =>
        this.deps.log.warn({ err, session_id: row.session_id }, 'a poisoned queued run could not be failed'),
      );
    }
  }

  /** A run this node holds that will not start: removed from the queue and failed, said why. */
  private async failTaken(row: QueuedRunRow, why: Error): Promise<void> {
    let run: PreparedRun;
    try {
      run = this.runOf(row);
    } catch (err) {
      return this.failUnreadable(row, err);
    }
    await this.repo.remove(row.run_id);
    await this.host.failUnstarted(run, row.session_id, why);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.offEnded?.();
    await this.pumping;
    await (await this.boss).stop({ graceful: false, wait: true });
  }

  /** Take runs while this node has room; one loop at a time, run again if asked meanwhile. */
  private pump(): void {
    if (this.closed || !this.taking) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.takeWhileRoom()
      .catch((err: unknown) => this.deps.log.warn({ err }, 'taking a queued run failed'))
      .finally(() => {
        this.pumping = null;
        if (this.again) {
          this.again = false;
          this.pump();
        }
      });
  }

  private async takeWhileRoom(): Promise<void> {
    while (!this.closed && this.taking && this.deps.sessions.active < this.deps.config.MAX_SESSIONS) {
      const boss = await this.boss;
      const [job] = await boss.fetch<unknown>(QUEUE, { batchSize: 1 });
      if (!job) return;
      const data = JobData.safeParse(job.data);
      if (!data.success) this.deps.log.warn({ job: job.id }, 'a run queue job without a run id was dropped');
      // The claim and the job's completion in one transaction: a run is never claimed with its job
      // still out (another node would fetch it again), nor its job done with the run unclaimed.
      const claimed = await this.deps.db.tx(async (tx) => {
        const taken = data.success
          ? await queuedRunsRepo(tx, this.deps.config.nodeId).claim(data.data.run_id)
          : undefined;
        await boss.complete(QUEUE, job.id, {}, { db: inside(tx) });
        return taken;
      });
      if (claimed) this.startClaimed(claimed.row, claimed.files);
    }
  }

  /** Start the claimed run's session now (so it counts against this node's room), then the run in it. */
  private startClaimed(row: QueuedRunRow, files: QueuedFile[]): void {
    let run: PreparedRun;
    try {
      run = this.runOf(row);
    } catch (err) {
      // Written by a node that reads runs differently (a rolling upgrade): failed, said why, never passed around.
      void this.failUnreadable(row, err).catch((failure: unknown) =>
        this.deps.log.warn(
          { err: failure, session_id: row.session_id },
          'an unreadable queued run could not be failed',
        ),
      );
      return;
    }
    let created: Promise<LiveSession>;
    try {
      // Before the session: a failure here leaves no browser behind. A folder a previous try of
      // this node left (it stopped after writing) is replaced.
      this.folders.remove(run);
      writeFiles(run.filesDir, files);
      this.deps.bus.emit('run.starting', { session_id: row.session_id, phase: 'browser' });
      created = this.deps.sessions.createReserved(sessionOf(run), {
        id: row.session_id,
        hashes: hashesFromColumns(row),
      });
    } catch (err) {
      created = Promise.reject(err as Error);
    }
    const started = (async () => {
      let session: LiveSession;
      try {
        session = await created;
      } catch (err) {
        await this.failClaimed(row, run, err);
        return;
      }
      try {
        await this.repo.remove(row.run_id);
        await this.host.begin(run, session, this.controlUrl(session));
      } catch (err) {
        // Live, but the run cannot go on (the store failed): its session ends and the run fails.
        await this.deps.sessions.end(session.id, 'stopped');
        await this.host.failUnstarted(run, row.session_id, err);
      }
    })()
      .catch((err: unknown) =>
        this.deps.log.warn({ err, session_id: row.session_id }, 'a queued run could not be started or failed'),
      )
      .finally(() => this.starting.delete(row.session_id));
    this.starting.set(row.session_id, started);
  }

  /** The claimed run did not start: back into the queue when it was only a lack of room, else failed. */
  private async failClaimed(row: QueuedRunRow, run: PreparedRun, err: unknown): Promise<void> {
    this.folders.remove(run);
    // No room after all (another request took it), or closing before its session began: nothing started.
    const shuttingDown = err instanceof Unavailable && err.reason === ErrorCode.shuttingDown;
    // The session manager closes before this queue does (its preClose): take no more runs.
    if (shuttingDown) this.closed = true;
    if (err instanceof AtCapacity || shuttingDown) {
      await this.deps.db.tx(async (tx) => {
        await queuedRunsRepo(tx, this.deps.config.nodeId).release(row.run_id);
        await sendJob(await this.boss, tx, row.run_id, PUT_BACK_PRIORITY);
      });
      this.pump();
      return;
    }
    await this.repo.remove(row.run_id);
    await this.host.failUnstarted(run, row.session_id, err);
  }

  private async failUnreadable(row: QueuedRunRow, err: unknown): Promise<void> {
    this.deps.log.error({ err, session_id: row.session_id }, 'a queued run could not be read');
    await this.repo.remove(row.run_id);
    const runRow = await runsRepo(this.deps.db, this.deps.config.nodeId).getBySession(row.session_id);
    if (!runRow) return;
    const run: PreparedRun = {
      runId: runRow.id,
      workflowId: runRow.workflow_id,
      flow: { title: '', steps: [] },
      variables: {},
      credentials: [],
      totalActions: runRow.total_actions,
      filesDir: this.folders.of(runRow.id),
      metadata: runRow.metadata ?? undefined,
      webhookUrl: runRow.webhook_url ?? undefined,
      heal: false,
    };
    await this.host.failUnstarted(
      run,
      row.session_id,
      new Error('this node could not read the queued run (written by another version?)'),
    );
  }

  private runOf(row: QueuedRunRow): PreparedRun {
    const stored = preparedColumn.read(row.prepared);
    return { ...stored, runId: row.run_id, filesDir: this.folders.of(row.run_id) };
  }

  /** The pause webhook's live view: a fresh control token of the live session (the one answered at queue time is kept only hashed). */
  private controlUrl(session: LiveSession): string {
    const tokens = this.deps.sessions.issueTokens(session.id);
    return tokens ? this.deps.urls.vnc(session.id, tokens.control) : '';
  }
}

/** A job for the run, in the transaction that writes it; pg-boss answers null when it wrote none (no queue), which must not commit. */
async function sendJob(boss: PgBoss, tx: Sql, runId: string, priority = 0): Promise<void> {
  const id = await boss.send(QUEUE, { run_id: runId }, { priority, db: inside(tx) });
  if (!id) throw new Error('the run queue did not take the job');
}

/** pg-boss statements inside one of the store's transactions (they use $n placeholders, which the seam passes through). */
const inside = (tx: Sql): PgBoss.Db => ({
  executeSql: async (text, values) => ({ rows: await tx.all(text, values as SqlValue[]) }),
});

const storedOf = (run: PreparedRun): z.infer<typeof StoredRun> => ({
  workflowId: run.workflowId,
  flow: run.flow,
  variables: run.variables,
  credentials: run.credentials,
  totalActions: run.totalActions,
  metadata: run.metadata,
  webhookUrl: run.webhookUrl,
  heal: run.heal,
  profile: run.profile,
  isolation: run.isolation,
  apiKeyId: run.apiKeyId,
});

/** The run's uploads, as the upload route left them (one file per name, nothing else). */
function readFiles(dir: string): QueuedFile[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((name) => ({ name, data: fs.readFileSync(path.join(dir, name)) }));
}

/** The uploads onto this node's disk; a name that is not a plain file name (the store is not trusted with paths) is refused. */
function writeFiles(dir: string, files: QueuedFile[]): void {
  if (!files.length) return;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const f of files) {
    if (path.basename(f.name) !== f.name || f.name === '.' || f.name === '..' || f.name.includes('\0'))
      throw new Error(`a queued upload has a bad file name: ${JSON.stringify(f.name)}`);
    fs.writeFileSync(path.join(dir, f.name), f.data, { mode: 0o600, flag: 'wx' });
  }
}
