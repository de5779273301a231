import type {
  AgentMessageRequest,
  AgentState,
  StartEditorSessionRequest,
  StartEditorSessionResponse,
} from '../../contract/agent.ts';
import { CreateWorkflowSessionRequest } from '../../contract/sessions.ts';
import type { SessionEventInput } from '../../contract/sessionEvents.ts';
import type { InterruptResponse } from '../../contract/runControl.ts';
import type { Step } from '../../contract/steps.ts';
import type { Variable } from '../../contract/variables.ts';
import { WorkflowInput } from '../../contract/workflows.ts';
import type { AgentTools } from '../agentTools/index.ts';
import type { CredentialsService } from '../credentials/service.ts';
import { Conflict, NotFound, Unavailable } from '../domain/errors.ts';
import { ErrorCode } from '../../contract/errors.ts';
import type { Log } from '../log.ts';
import { redactor } from '../credentials/redact.ts';
import type { RunService } from '../runs/runService.ts';
import type { PublicUrls } from '../sessions/publicUrls.ts';
import type { SessionRecords } from '../sessions/sessionRecords.ts';
import type { EndReason, SessionManager } from '../sessions/types.ts';
import type { WorkflowService } from '../workflows/workflowService.ts';
import type { ModelChoice } from '../model/chooseModel.ts';
import type { Model } from '../model/model.ts';
import { AgentConversation } from './conversation.ts';
import { storedPlaceholders } from './placeholders.ts';
import { systemPrompt } from './prompt.ts';
import { boundBrowserTools } from './boundBrowserTools.ts';
import { runTurn } from './turn.ts';
import { StepRecorder } from './stepRecorder.ts';

export interface EditorSessionsDeps {
  /** AGENT_ALLOW_EVALUATE: the agent is offered browser_evaluate. */
  allowEvaluate?: boolean;
  records: Pick<SessionRecords, 'create' | 'close'>;
  sessions: Pick<SessionManager, 'get'>;
  workflows: Pick<WorkflowService, 'create' | 'get' | 'update' | 'delete'>;
  tools: AgentTools;
  credentials: Pick<CredentialsService, 'list' | 'revealForRun'>;
  events: { append(sessionId: string, event: SessionEventInput): void };
  urls: PublicUrls;
  /** The server's one model (MODEL_*); its limits hold for every turn. */
  model: Model;
  /** A session without an agent may have a run to interrupt instead. */
  runs: Pick<RunService, 'isRunning' | 'interrupt'>;
  log: Log;
}

/** How many tool calls one turn of the agent may make before it stops and says so. */
const AGENT_STEPS_PER_TURN = 30;

/** One editor session: its agent, what it recorded, and the workflow that is saved from it. */
interface Editor {
  workflowId: string;
  /** The workflow's steps: the start URL's navigate, then what the agent did. */
  steps(): Step[];
  conversation: AgentConversation;
  recorder: StepRecorder;
  /** Saves of the workflow, one after another, so a later step never loses to an earlier save. */
  saving: Promise<void>;
  model: string;
}

/** How many names "X (2)", "X (3)", … are tried before giving up. */
const NAME_TRIES = 50;

const variableOf = (name: string, value: string | number | boolean): Variable => ({
  name,
  type: typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string',
  required: false,
  default: value,
});

/**
 * Simplex's editor sessions: a workflow, a live session on a URL and an agent in it, which a person
 * talks to through message_url. Each browser step the agent takes is recorded and the workflow is
 * saved with it as it goes, so it replays without a model. Editors live on the node that holds their
 * session (the routes are forwarded there) and end with it.
 */
export class EditorSessions {
  private readonly editors = new Map<string, Editor>();

  constructor(private readonly deps: EditorSessionsDeps) {}

  /** An editor ends with its session (services.ts subscribes this to the session lifecycle). */
  sessionEnded(id: string, reason: EndReason): void {
    this.editors.get(id)?.conversation.end(reason);
    this.editors.delete(id);
  }

  async start(request: StartEditorSessionRequest, apiKeyId: string | null = null): Promise<StartEditorSessionResponse> {
    const choice = this.deps.model.choice;
    if (!choice.configured)
      throw new Unavailable(ErrorCode.notConfigured, `The agent needs a model. ${choice.message}`);
    const testData = request.test_data ?? {};
    const workflow = await this.newWorkflow(request.name, request.url, testData);
    let started: Awaited<ReturnType<SessionRecords['create']>>;
    try {
      started = await this.deps.records.create(
        CreateWorkflowSessionRequest.parse({
          workflow_name: workflow.name,
          start_url: request.url,
          ...(request.metadata !== undefined ? { metadata: request.metadata } : {}),
          ...(request.profile ? { profile: request.profile } : {}),
          ...(request.isolation ? { isolation: request.isolation } : {}),
        }),
        apiKeyId,
      );
    } catch (err) {
      await this.deps.workflows.delete(workflow.id).catch(() => undefined);
      throw err;
    }
    const { sessionId, tokens } = started;
    const editor = await this.editorFor(sessionId, workflow.id, request.url, testData, choice);
    // A session that died as it started has already had its end hook: no agent is kept for it.
    if (this.deps.sessions.get(sessionId)?.state === 'live') this.editors.set(sessionId, editor);
    const urls = this.deps.urls.session(sessionId, tokens);
    return {
      succeeded: true,
      workflow_id: workflow.id,
      session_id: sessionId,
      vnc_url: urls.vnc_url!,
      livestream_url: urls.livestream_url!,
      connect_url: urls.connect_url!,
      logs_url: this.deps.urls.logs(sessionId),
      message_url: this.deps.urls.message(sessionId),
      filesystem_url: null,
    };
  }

  /** A new workflow of that name, or of the first free "name (N)": an editor session never overwrites one. */
  private async newWorkflow(name: string, startUrl: string, testData: Record<string, string | number | boolean>) {
    for (let n = 1; n <= NAME_TRIES; n++) {
      const suffix = n === 1 ? '' : ` (${n})`;
      const candidate = `${name.slice(0, 200 - suffix.length)}${suffix}`;
      try {
        return await this.deps.workflows.create(
          WorkflowInput.parse({
            name: candidate,
            flow: { title: candidate, steps: [{ type: 'navigate', url: startUrl }] },
            variables: Object.entries(testData).map(([k, v]) => variableOf(k, v)),
          }),
        );
      } catch (err) {
        if (!(err instanceof Conflict)) throw err;
      }
    }
    throw new Conflict(`Workflows "${name}" to "${name} (${NAME_TRIES})" all exist: pick another name`, [
      { path: 'name', message: 'taken' },
    ]);
  }

  private async editorFor(
    sessionId: string,
    workflowId: string,
    startUrl: string,
    testData: Record<string, string | number | boolean>,
    choice: Extract<ModelChoice, { configured: true }>,
  ): Promise<Editor> {
    const { deps } = this;
    const emit = (event: SessionEventInput) => deps.events.append(sessionId, event);
    const recorder = new StepRecorder();
    const known = new Map<string, string>();
    const placeholders = storedPlaceholders(deps.credentials, testData, known);
    const conversation = new AgentConversation({
      sessionId,
      workflowId,
      model: await choice.model(),
      system: async () =>
        systemPrompt({
          startUrl,
          testData,
          credentialNames: (await deps.credentials.list()).map((c) => c.name),
          inRun: false,
        }),
      tools: await boundBrowserTools({
        sessionId,
        tools: deps.tools,
        allowEvaluate: deps.allowEvaluate === true,
        placeholders,
        // Every value typed so far is hidden in what the model reads back (a text field shows it).
        redact: (text) => redactor(known)(text),
        recorder,
      }),
      limits: { maxSteps: AGENT_STEPS_PER_TURN, ...deps.model.limits },
      emit,
      log: deps.log,
    });
    // The session opened on the start URL before the agent did anything: a replay must go there first.
    const start: Step = { type: 'navigate', url: startUrl };
    const editor: Editor = {
      workflowId,
      steps: () => [start, ...recorder.steps()],
      conversation,
      recorder,
      saving: Promise.resolve(),
      model: choice.label,
    };
    recorder.onStep((step, index) => {
      emit({ event: 'StepRecorded', step: index + 2, recorded: step as Record<string, unknown>, agent: true });
      editor.saving = editor.saving.then(() => this.save(editor, sessionId));
    });
    return editor;
  }

  /** Save the recorded steps as the workflow's flow (whatever else a person changed in it meanwhile stays). */
  private async save(editor: Editor, sessionId: string): Promise<void> {
    try {
      const { name, flow, variables, metadata, structured_output } = await this.deps.workflows.get(editor.workflowId);
      await this.deps.workflows.update(
        editor.workflowId,
        WorkflowInput.parse({ name, variables, metadata, structured_output, flow: { ...flow, steps: editor.steps() } }),
      );
    } catch (err) {
      // Deleted meanwhile, or a step the contract refuses: the agent goes on; the log says why.
      this.deps.log.warn(
        { session: sessionId, workflow: editor.workflowId, err: (err as Error).message },
        'editor session could not save its workflow',
      );
    }
  }

  private editor(sessionId: string): Editor {
    const editor = this.editors.get(sessionId);
    if (!editor) throw new NotFound({ message: 'This session has no agent: start one with start_editor_session' });
    return editor;
  }

  /** Whether the session has an agent on this node. */
  has(sessionId: string): boolean {
    return this.editors.has(sessionId);
  }

  message(sessionId: string, body: AgentMessageRequest): void {
    this.editor(sessionId).conversation.send(body);
  }

  state(sessionId: string): AgentState {
    const editor = this.editor(sessionId);
    return {
      session_id: sessionId,
      workflow_id: editor.workflowId,
      ...editor.conversation.state(),
      steps: editor.steps(),
      model: editor.model,
    };
  }

  /**
   * /interrupt and /editor_interrupt: the agent's turn when the session has an agent (and no run
   * under way), else the session's run (which fails, saying so); the session stays live either way.
   */
  async interrupt(sessionId: string): Promise<InterruptResponse> {
    const editor = this.editors.get(sessionId);
    if (editor && !this.deps.runs.isRunning(sessionId))
      return {
        succeeded: true,
        message: editor.conversation.interrupt()
          ? "The agent's turn was stopped where it was; the session stays live and the agent takes the next message"
          : 'The agent was not working: nothing to stop',
        session_id: sessionId,
      };
    await this.deps.runs.interrupt(sessionId);
    return {
      succeeded: true,
      message: 'The run was stopped; the session stays live until it is closed or times out',
      session_id: sessionId,
    };
  }

  /**
   * A run's act step (RunAi.act): the agent, bounded to `maxSteps` tool calls, doing `instruction`
   * in the run's session with nobody to ask. Its calls are logged as AgentToolCall events (the
   * run's own steps keep ToolCallStarted/Completed). Resolves to its summary; rejects saying why not.
   */
  async act(
    sessionId: string,
    instruction: string,
    maxSteps: number,
    signal: AbortSignal,
    secrets: ReadonlyMap<string, string> = new Map(),
  ): Promise<string> {
    const { deps } = this;
    const choice = deps.model.choice;
    if (!choice.configured) throw new Error(choice.message);
    // What the run typed before this step shows in fields the agent reads: hidden like its own.
    const known = new Map<string, string>(secrets);
    const end = await runTurn({
      model: await choice.model(),
      system: systemPrompt({
        startUrl: 'the page the run is on',
        testData: {},
        credentialNames: (await deps.credentials.list()).map((c) => c.name),
        inRun: true,
      }),
      history: [{ role: 'user', content: instruction }],
      tools: await boundBrowserTools({
        sessionId,
        tools: deps.tools,
        allowEvaluate: deps.allowEvaluate === true,
        placeholders: storedPlaceholders(deps.credentials, {}, known),
        redact: (text) => redactor(known)(text),
      }),
      maxSteps,
      maxRetries: deps.model.limits.maxRetries,
      maxOutputTokens: deps.model.limits.maxOutputTokens,
      signal,
      nextStep: () => 0,
      emit: (event) => {
        if (event.event !== 'ToolCallCompleted') return;
        deps.events.append(sessionId, {
          event: 'AgentToolCall',
          tool: event.action,
          ok: event.result.ok,
          message: (event.content ?? '').slice(0, 500),
          duration: event.duration,
        });
      },
    });
    if (end.kind === 'done') return end.summary;
    if (end.kind === 'replied') return end.text || 'The agent finished without a summary';
    if (end.kind === 'ask')
      throw new Error(
        `the agent asked "${end.question.slice(0, 200)}", and a run has nobody to answer: say in the instruction what to choose`,
      );
    throw new Error(`the agent did not finish within ${maxSteps} tool calls`);
  }

  /** Server close: every agent stops (their sessions end right after). */
  close(): void {
    for (const editor of this.editors.values()) editor.conversation.end('server shutting down');
    this.editors.clear();
  }
}
