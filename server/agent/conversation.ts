import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import {
  AskUserAnswer,
  CANCEL_PREFIX,
  QUEUED_MESSAGES_MAX,
  type AgentMessageRequest,
  type AgentState,
} from '../../contract/agent.ts';
import type { SessionEventInput } from '../../contract/sessionEvents.ts';
import { Conflict } from '../domain/errors.ts';
import type { Log } from '../log.ts';
import { reasonOf } from '../model/failure.ts';
import { ASK_USER, runTurn, toolAnswer, type TurnEnd } from './turn.ts';

/** How far one turn may go, and how the model is called. */
export interface TurnLimits {
  maxSteps: number;
  maxRetries: number;
  maxOutputTokens: number;
  /** MODEL_TIMEOUT_MS: said when the model went silent. */
  timeoutMs: number;
}

export interface ConversationDeps {
  sessionId: string;
  workflowId: string;
  model: LanguageModel;
  /** The standing instructions, asked before each turn (the stored credentials may have changed). */
  system(): Promise<string>;
  tools: ToolSet;
  limits: TurnLimits;
  emit(event: SessionEventInput): void;
  log: Log;
}

// Loaded when first used: it is about 350 ms and 25 MB the idle server does not need.
const ai = () => import('ai');

/** What an interrupted turn tells its log, and the model next time. */
const INTERRUPTED = 'Interrupted: the agent stopped where it was. Send a message to go on.';

/** An ask_user_answer sent as message text (Simplex's CLI sends it so), or undefined. */
function answerInText(text: string): AskUserAnswer | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const parsed = AskUserAnswer.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const answerText = (answers: AskUserAnswer['answers']) =>
  typeof answers === 'string' ? answers : Object.values(answers).join('\n');

/**
 * One editor session's agent: its messages in order, one turn at a time, the question it waits
 * on, and the conversation the model sees. A turn that fails or is interrupted ends with RunError
 * and leaves the session live; the next message starts the next turn.
 */
export class AgentConversation {
  private readonly queue: string[] = [];
  private readonly history: ModelMessage[] = [];
  private question: { toolCallId: string; question: string; options: string[] } | undefined;
  private abort: AbortController | undefined;
  private working = false;
  /** An answered question: the turn it held goes on before any queued message. */
  private resume = false;
  private ended = false;
  /** A turn under way has logged RunStarted and not yet its end (a question keeps it open). */
  private runOpen = false;
  private runStarted = 0;
  private steps = 0;

  constructor(private readonly deps: ConversationDeps) {}

  status(): AgentState['status'] {
    if (this.ended) return 'ended';
    if (this.question) return 'waiting_for_answer';
    return this.working || this.queue.length ? 'working' : 'idle';
  }

  state(): Pick<AgentState, 'status' | 'queued' | 'question'> {
    const q = this.question;
    return {
      status: this.status(),
      queued: [...this.queue],
      question: q ? { tool_use_id: q.toolCallId, question: q.question, options: q.options } : null,
    };
  }

  /** A message from message_url. Throws Conflict for a take-back of nothing or an answer to no question. */
  send(body: AgentMessageRequest): void {
    if (this.ended) throw new Conflict('The session has ended: its agent takes no more messages');
    if ('type' in body) return this.answer(body);
    const text = body.message;
    const inText = answerInText(text);
    if (inText) return this.answer(inText);
    if (text.startsWith(CANCEL_PREFIX)) {
      const target = text.slice(CANCEL_PREFIX.length).trim();
      const at = this.queue.indexOf(target);
      if (at < 0) throw new Conflict('No queued message has that text: it was taken up already, or never sent');
      this.queue.splice(at, 1);
      return;
    }
    // A message while the agent waits on its question is the answer, as in any chat.
    if (this.question)
      return this.answer({ type: 'ask_user_answer', tool_use_id: this.question.toolCallId, answers: text });
    if (this.queue.length >= QUEUED_MESSAGES_MAX)
      throw new Conflict(
        `${QUEUED_MESSAGES_MAX} messages already wait for the agent: send more once it has taken some up, or take one back`,
      );
    this.queue.push(text);
    void this.pump();
  }

  private answer(body: AskUserAnswer): void {
    const q = this.question;
    if (!q || q.toolCallId !== body.tool_use_id)
      throw new Conflict(
        q ? `The agent waits on question ${q.toolCallId}, not ${body.tool_use_id}` : 'The agent has asked nothing',
      );
    this.question = undefined;
    const text = answerText(body.answers);
    this.history.push(toolAnswer(q.toolCallId, ASK_USER, text));
    this.deps.emit({ event: 'NewMessage', content: text, content_type: 'message_boundary', agent: true });
    this.resume = true;
    void this.pump();
  }

  /** Stop the turn under way (or the wait on a question); the session and the queue stay. True when there was one. */
  interrupt(): boolean {
    if (this.abort) {
      this.abort.abort(new Error(INTERRUPTED));
      return true;
    }
    if (this.question) {
      this.history.push(
        toolAnswer(this.question.toolCallId, ASK_USER, '(The person interrupted instead of answering.)'),
      );
      this.question = undefined;
      this.closeRun({ failed: INTERRUPTED });
      this.deps.emit({ event: 'AgentRunning', content: 'false', agent: true });
      return true;
    }
    return false;
  }

  /** The session ended: stop, and close the turn's log entry so the session's end follows it. */
  end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.queue.length = 0;
    this.abort?.abort(new Error(`The session ended (${reason})`));
    if (this.question) {
      this.question = undefined;
      this.closeRun({ failed: `The session ended (${reason}) while the agent waited for an answer` });
    }
  }

  /**
   * Take up queued messages one turn at a time, and go on with a turn a question held once it is
   * answered (`resume`). One loop at a time: what arrives meanwhile is seen by the loop under way.
   */
  private async pump(): Promise<void> {
    if (this.working) return;
    this.working = true;
    try {
      while (!this.ended && !this.question) {
        if (this.resume) {
          this.resume = false;
          await this.turn();
          continue;
        }
        const text = this.queue.shift();
        if (text === undefined) break;
        this.history.push({ role: 'user', content: text });
        this.deps.emit({ event: 'NewMessage', content: text, content_type: 'message_boundary', agent: true });
        await this.turn();
      }
    } finally {
      this.working = false;
    }
  }

  private async turn(): Promise<void> {
    const { deps } = this;
    deps.emit({ event: 'AgentRunning', content: 'true', agent: true });
    if (!this.runOpen) {
      this.runOpen = true;
      this.runStarted = Date.now();
      deps.emit({ event: 'RunStarted', workflow_id: deps.workflowId, total_actions: null, agent: true });
    }
    const abort = (this.abort = new AbortController());
    try {
      const end = await runTurn({
        model: deps.model,
        system: await deps.system(),
        history: this.history,
        tools: deps.tools,
        ...deps.limits,
        signal: abort.signal,
        emit: deps.emit,
        nextStep: () => ++this.steps,
      });
      this.finished(end);
    } catch (err) {
      const failure = abort.signal.aborted ? undefined : await describeFailure(err, deps.limits.timeoutMs);
      const message = failure === undefined ? (abort.signal.reason as Error).message : `The model failed: ${failure}`;
      if (failure !== undefined) deps.log.warn({ session: deps.sessionId, err: failure }, 'agent turn failed');
      // The model is told next time, so it does not think its last step went through unnoticed.
      this.history.push({ role: 'user', content: `(${message})` });
      this.closeRun({ failed: message });
    } finally {
      this.abort = undefined;
      deps.emit({ event: 'AgentRunning', content: 'false', agent: true });
    }
  }

  private finished(end: TurnEnd): void {
    // The session ended as the turn wound down (too late to abort it): its log entry still closes.
    if (this.ended) return this.closeRun({ failed: 'The session ended' });
    if (end.kind === 'ask') {
      this.question = { toolCallId: end.toolCallId, question: end.question, options: end.options };
      this.deps.emit({
        event: 'AskUserQuestion',
        tool_use_id: end.toolCallId,
        questions: [
          {
            header: 'Question',
            question: end.question,
            options: end.options.map((label) => ({ label })),
            multiSelect: false,
          },
        ],
        content: end.question,
        agent: true,
      });
      return;
    }
    const message =
      end.kind === 'done'
        ? end.summary
        : end.kind === 'replied'
          ? end.text || 'The agent answered without text.'
          : `The agent used all ${this.deps.limits.maxSteps} steps of its turn; send a message to let it go on.`;
    this.closeRun({ message });
  }

  private closeRun(outcome: { message: string } | { failed: string }): void {
    if (!this.runOpen) return;
    this.runOpen = false;
    if ('message' in outcome)
      this.deps.emit({
        event: 'RunCompleted',
        message: outcome.message,
        outputs: {},
        metrics: { duration_ms: Date.now() - this.runStarted },
        agent: true,
      });
    else this.deps.emit({ event: 'RunError', message: outcome.failed, outputs: {}, agent: true });
  }
}

/** A model failure in words a person can act on: from status and error codes only (model/failure.ts), never the provider's text. */
async function describeFailure(err: unknown, timeoutMs: number): Promise<string> {
  const { RetryError } = await ai();
  const attempts = RetryError.isInstance(err) ? err.errors.length : 1;
  const last = RetryError.isInstance(err) ? err.lastError : err;
  return `${await reasonOf(last, timeoutMs)} after ${attempts === 1 ? '1 attempt' : `${attempts} attempts`}`;
}
