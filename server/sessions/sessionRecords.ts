import type { z } from 'zod';
import type { Issue } from '../../contract/errors.ts';
import type { ActiveSessionStatus } from '../../contract/runControl.ts';
import type {
  CreateWorkflowSessionRequest,
  Session,
  SessionClients,
  SessionIsolation,
  SessionSortField,
  SessionState,
} from '../../contract/sessions.ts';
import type { Config } from '../config.ts';
import { Conflict, Invalid, NotFound } from '../domain/errors.ts';
import { searchOf, sortedPageOf, type Page, type SortedPageRequest } from '../domain/pages.ts';
import type { RunsRepo } from '../store/runs.ts';
import type { NamedSessionRow, SessionsRepo } from '../store/sessions.ts';
import { webhookUrlIssue } from '../webhooks/destination.ts';
import type { PauseState, RunStatus } from '../../contract/runs.ts';
import type { WorkflowService } from '../workflows/workflowService.ts';
import { proxiesIssue } from './refusals.ts';
import type { SessionManager, SessionTokens } from './types.ts';

/** What a run under way is doing: the runs (server/runs, a layer above) answer it. */
export interface RunActivity {
  isRunning(sessionId: string): boolean;
  pauseOf(sessionId: string): PauseState | null;
  /** Take the session's queued run out of the queue; resolves once its failure is recorded, false when none waits. */
  leaveQueue(sessionId: string): Promise<boolean>;
}

export interface SessionRecordsOptions {
  config: Pick<Config, 'PROXY_URL' | 'WEBHOOK_ALLOW_PRIVATE'>;
  sessions: SessionsRepo;
  runs: RunsRepo;
  manager: SessionManager;
  workflows: WorkflowService;
  activity: RunActivity;
  /** Who is connected to this node's live sessions now. */
  clients?: { of(sessionId: string): SessionClients };
}

/** A workflow's newest live session, as active_session tells it. */
export interface ActiveSession {
  id: string;
  controlToken: string;
  status: ActiveSessionStatus;
}

/**
 * Sessions as the API shows them: the records (live or ended) with their workflow's name, and the
 * calls that act on one by id. The browsers themselves are the session manager's. A queued run's
 * session has a run record before it has a session record, so "known" means either.
 * Throws NotFound for an unknown session or workflow, Conflict when a session is not live.
 */
export class SessionRecords {
  constructor(private readonly opts: SessionRecordsOptions) {}

  private toSession(row: NamedSessionRow, run: RunStatus | null): Session {
    return {
      id: row.id,
      workflow_id: row.workflow_id,
      // Deleted workflows keep their sessions: null then.
      workflow_name: row.workflow_name,
      state: row.state,
      end_reason: row.end_reason,
      proxies: row.proxies === 1,
      isolation: row.isolation,
      timeout: row.timeout_seconds,
      webhook_url: row.webhook_url,
      metadata: row.metadata,
      created_at: row.created_at,
      expires_at: row.expires_at,
      ended_at: row.ended_at,
      run: run ? { status: run } : null,
    };
  }

  private async row(id: string): Promise<NamedSessionRow> {
    const row = await this.opts.sessions.get(id);
    if (!row) throw new NotFound('Session');
    return row;
  }

  /** In the order asked, of one state or all, searched and within a time range; the runs in them read in one query for the page. */
  async list(request: SortedPageRequest<SessionSortField> & { state?: SessionState }): Promise<Page<Session>> {
    let runs = new Map<string, RunStatus>();
    return sortedPageOf(
      request,
      async (limit, before) => {
        const rows = await this.opts.sessions.list({
          ...searchOf(request),
          state: request.state,
          sort: request.sort,
          order: request.order,
          limit,
          before,
        });
        runs = new Map(
          (await this.opts.runs.statusesOfSessions(rows.map((r) => r.id))).map((r) => [r.session_id, r.status]),
        );
        return rows;
      },
      (row) => this.toSession(row, runs.get(row.id) ?? null),
    );
  }

  /** One session; a live one held here says who is connected to it now (`clients`). */
  async get(id: string): Promise<Session> {
    const row = await this.row(id);
    const session = this.toSession(row, (await this.opts.runs.getBySession(id))?.status ?? null);
    const held = session.state !== 'ended' && this.opts.manager.get(id) !== undefined;
    return { ...session, clients: held && this.opts.clients ? this.opts.clients.of(id) : null };
  }

  /** A live session's new timeout (from when it went live); the record with its new end. */
  async retime(id: string, timeoutSeconds: number): Promise<Session> {
    await this.assertExists(id);
    await this.opts.manager.retime(id, timeoutSeconds);
    return this.get(id);
  }

  /**
   * create_workflow_session. A refused create leaves nothing: what can be checked without a
   * browser is checked first (422, then 429 over MAX_SESSIONS), and a workflow this request created
   * goes again when its session does not start (the manager checks the limit again: another request
   * may take the last slot in between).
   */
  async create(
    request: z.output<typeof CreateWorkflowSessionRequest>,
    apiKeyId: string | null = null,
  ): Promise<{ sessionId: string; workflowId: string; isolation: SessionIsolation; tokens: SessionTokens }> {
    await this.admit(request, apiKeyId);
    const workflow = await this.opts.workflows.ensureByName(request.workflow_name);
    try {
      const { session, tokens } = await this.opts.manager.create({
        workflowId: workflow.id,
        timeoutSeconds: request.timeout,
        proxies: request.proxies,
        storageState: request.session_data,
        webhookUrl: request.webhook_url,
        metadata: request.metadata,
        presentation: request.presentation,
        startUrl: request.start_url,
        userAgent: request.user_agent,
        profile: request.profile,
        isolation: request.isolation,
        apiKeyId,
      });
      return { sessionId: session.id, workflowId: workflow.id, isolation: session.isolation, tokens };
    } catch (err) {
      if (workflow.created) await this.opts.workflows.deleteIfUnused(workflow.id);
      throw err;
    }
  }

  private async admit(
    request: { proxies: boolean; webhook_url?: string; isolation?: SessionIsolation },
    apiKeyId: string | null,
  ): Promise<void> {
    const { config } = this.opts;
    const issues: Issue[] = [];
    const proxies = proxiesIssue(request.proxies, config.PROXY_URL);
    if (proxies) issues.push(proxies);
    const webhook = request.webhook_url
      ? await webhookUrlIssue(request.webhook_url, config.WEBHOOK_ALLOW_PRIVATE)
      : null;
    if (webhook) issues.push(webhook);
    if (issues.length) throw new Invalid(issues);
    this.opts.manager.assertRoom({ isolation: request.isolation, apiKeyId });
  }

  /** Fresh capability tokens for a live session's views. */
  async views(id: string): Promise<SessionTokens> {
    await this.assertExists(id);
    const tokens = this.opts.manager.issueTokens(id);
    if (!tokens) throw new Conflict('The session is not live: an ended session has no live view');
    return tokens;
  }

  /** End the session (stopped); the record as it ended. */
  async end(id: string): Promise<Session> {
    await this.assertExists(id);
    await this.opts.manager.end(id, 'stopped');
    return this.get(id);
  }

  /** close_session: a queued run's session has no record yet; closing it takes the run out of the queue. */
  async close(id: string): Promise<void> {
    if (await this.opts.activity.leaveQueue(id)) return;
    if (!(await this.opts.sessions.get(id))) throw new NotFound('Session');
    await this.opts.manager.end(id, 'stopped');
  }

  /** NotFound unless the session has a record. */
  async assertExists(id: string): Promise<void> {
    await this.row(id);
  }

  /** NotFound unless a session or a run has this id (a queued run's session has no record yet). */
  async assertKnown(id: string): Promise<void> {
    if (!(await this.opts.sessions.get(id)) && !(await this.opts.runs.getBySession(id))) throw new NotFound('Session');
  }

  /** Whether a known session is a workflow run's. */
  async isRunSession(id: string): Promise<boolean> {
    await this.assertKnown(id);
    return (await this.opts.runs.getBySession(id)) !== undefined;
  }

  /** The known session has ended and no run in it is under way or waiting: its log is complete. */
  async isOver(id: string): Promise<boolean> {
    await this.assertKnown(id);
    const run = await this.opts.runs.getBySession(id);
    const row = await this.opts.sessions.get(id);
    return (row ? row.state === 'ended' : true) && !this.opts.activity.isRunning(id) && run?.status !== 'queued';
  }

  /**
   * The workflow's newest live session with a control token for it; `{ elsewhere }` when another
   * node of the cluster holds it (only that node can mint its tokens); undefined when it has none.
   */
  async activeOf(workflowId: string): Promise<ActiveSession | { elsewhere: string } | undefined> {
    await this.opts.workflows.get(workflowId);
    const row = await this.opts.sessions.newestActiveOf(workflowId);
    if (!row) return undefined;
    if (!this.opts.manager.get(row.id)) return { elsewhere: row.id };
    const tokens = this.opts.manager.issueTokens(row.id);
    if (!tokens) return undefined;
    const { activity } = this.opts;
    return {
      id: row.id,
      controlToken: tokens.control,
      status: activity.pauseOf(row.id) ? 'paused' : activity.isRunning(row.id) ? 'running' : 'live',
    };
  }

  /** The JPEG of the page when the session's run finished, if it kept one. */
  async finalScreenshot(id: string): Promise<Buffer | undefined> {
    return (await this.opts.runs.getBySession(id))?.screenshot ?? undefined;
  }
}
