import type { SessionEvent } from '../../../contract/sessionEvents.ts';

/**
 * The agent's conversation, read from the session's event log (history first, then live): what
 * the person said, what the agent wrote (its streamed pieces joined), each tool call folded to one
 * line, its questions, and its errors. A pure function of the log, so the page only renders it.
 */

export interface UserItem {
  kind: 'user';
  key: string;
  text: string;
}
export interface AgentTextItem {
  kind: 'agent';
  key: string;
  text: string;
  /** False while pieces may still arrive (the last thing the agent did, with its turn not over). */
  complete: boolean;
}
export interface ToolItem {
  kind: 'tool';
  key: string;
  name: string;
  /** The argument a person recognises the call by ('More information…', a URL), clipped. */
  target?: string;
  args: Record<string, unknown>;
  status: 'running' | 'ok' | 'error';
  /** What the tool answered, or why it failed. */
  result: string | null;
}
export interface QuestionItem {
  kind: 'question';
  key: string;
  toolUseId: string;
  text: string;
  questions: { question: string; options: string[] }[];
  /** A message (the answer) came after it, or the agent's turn ended. */
  answered: boolean;
}
export interface ErrorItem {
  kind: 'error';
  key: string;
  message: string;
}
export interface DoneItem {
  kind: 'done';
  key: string;
  message: string;
}
export type ChatItem = UserItem | AgentTextItem | ToolItem | QuestionItem | ErrorItem | DoneItem;

export interface ChatModel {
  items: ChatItem[];
  /** The last AgentRunning said the agent works (undefined: none seen yet). */
  running: boolean | undefined;
  /** The question the agent waits on, if any. */
  openQuestion: QuestionItem | undefined;
  ended: boolean;
}

const TARGET_KEYS = ['element', 'text', 'label', 'url', 'selector', 'value', 'key', 'question', 'summary'];
const clip = (s: string, n = 60) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The argument that names what a call acted on: the element's words, else the address, else any text. */
export function toolTarget(args: Record<string, unknown>): string | undefined {
  for (const k of TARGET_KEYS) {
    const v = args[k];
    if (typeof v === 'string' && v.trim()) return clip(v.trim());
  }
  const first = Object.values(args).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return first === undefined ? undefined : clip(first.trim());
}

const isAgent = (e: SessionEvent): boolean => 'agent' in e && e.agent === true;

export function chatModel(events: readonly SessionEvent[]): ChatModel {
  const items: ChatItem[] = [];
  const tools = new Map<string, ToolItem>();
  let running: boolean | undefined;
  let ended = false;
  const last = () => items.at(-1);
  const answerQuestions = () => {
    for (const it of items) if (it.kind === 'question') it.answered = true;
  };
  /** A turn's end (or the session's): a call it left without an answer never gets one. */
  const endTurn = (why: string) => {
    for (const t of tools.values())
      if (t.status === 'running') {
        t.status = 'error';
        t.result = why;
      }
  };
  const closeText = () => {
    const l = last();
    if (l?.kind === 'agent') l.complete = true;
  };

  for (const e of events) {
    switch (e.event) {
      case 'NewMessage':
        closeText();
        answerQuestions();
        items.push({ kind: 'user', key: `m${e.index}`, text: e.content });
        break;
      case 'RunContent': {
        if (!isAgent(e)) break;
        const l = last();
        if (l?.kind === 'agent' && !l.complete) l.text += e.content;
        else items.push({ kind: 'agent', key: `t${e.index}`, text: e.content, complete: false });
        break;
      }
      case 'ToolCallStarted': {
        if (!isAgent(e)) break;
        closeText();
        const item: ToolItem = {
          kind: 'tool',
          key: `c${e.index}`,
          name: e.tool.tool_name,
          target: toolTarget(e.tool.tool_args),
          args: e.tool.tool_args,
          status: 'running',
          result: null,
        };
        tools.set(e.tool.tool_call_id, item);
        items.push(item);
        break;
      }
      case 'ToolCallCompleted': {
        if (!isAgent(e)) break;
        closeText();
        const failed = e.tool.tool_call_error === true || e.result.ok === false;
        const result = failed ? (e.error ?? e.tool.content ?? e.content ?? 'failed') : (e.tool.content ?? e.content);
        const known = tools.get(e.tool.tool_call_id);
        if (known) {
          known.status = failed ? 'error' : 'ok';
          known.result = result;
          if (Object.keys(known.args).length === 0) known.args = e.tool.tool_args;
        } else {
          items.push({
            kind: 'tool',
            key: `c${e.index}`,
            name: e.tool.tool_name,
            target: toolTarget(e.tool.tool_args),
            args: e.tool.tool_args,
            status: failed ? 'error' : 'ok',
            result,
          });
        }
        break;
      }
      case 'AskUserQuestion':
        closeText();
        items.push({
          kind: 'question',
          key: `q${e.index}`,
          toolUseId: e.tool_use_id,
          text: e.content,
          questions: e.questions.map((q) => ({ question: q.question, options: q.options.map((o) => o.label) })),
          answered: false,
        });
        break;
      case 'RunError':
        if (!isAgent(e)) break;
        closeText();
        endTurn('Stopped with the turn');
        items.push({ kind: 'error', key: `e${e.index}`, message: e.message });
        break;
      case 'RunCompleted':
        if (!isAgent(e)) break;
        closeText();
        answerQuestions();
        endTurn('Stopped with the turn');
        // The done tool's summary, unless the agent's own text just said the same.
        if (e.message.trim() && !items.some((it) => it.kind === 'agent' && it.text.trim() === e.message.trim()))
          items.push({ kind: 'done', key: `d${e.index}`, message: e.message });
        break;
      case 'AgentRunning':
        running = e.content === 'true';
        if (!running) closeText();
        break;
      case 'SessionEnded':
        ended = true;
        running = false;
        closeText();
        endTurn('The session ended');
        break;
      default:
        break;
    }
  }
  const openQuestion = [...items]
    .reverse()
    .find((it): it is QuestionItem => it.kind === 'question' && !it.answered && !ended);
  return { items, running, openQuestion, ended };
}

/** How many events the agent's state depends on: when it changes, the page reads the state again. */
export function stateRevision(events: readonly SessionEvent[]): number {
  let n = 0;
  for (const e of events)
    if (
      e.event === 'AgentRunning' ||
      e.event === 'NewMessage' ||
      e.event === 'AskUserQuestion' ||
      e.event === 'StepRecorded' ||
      e.event === 'SessionEnded' ||
      ((e.event === 'RunCompleted' || e.event === 'RunError') && isAgent(e))
    )
      n++;
  return n;
}

/** Whether the log is an agent's (any event with the agent mark): an ended editor session has no agent state left to ask. */
export const hasAgentEvents = (events: readonly SessionEvent[]): boolean => events.some(isAgent);

/** The steps recorded so far, from StepRecorded events (by step number, the last word on each): for when the agent state is gone. */
export function recordedSteps(events: readonly SessionEvent[]): unknown[] {
  const byStep = new Map<number, unknown>();
  for (const e of events) if (e.event === 'StepRecorded') byStep.set(e.step, e.recorded);
  return [...byStep.entries()].sort(([a], [b]) => a - b).map(([, recorded]) => recorded);
}

/** The workflow the agent writes, as its turns' RunStarted name it. */
export function agentWorkflowId(events: readonly SessionEvent[]): string | undefined {
  for (const e of events) if (e.event === 'RunStarted' && isAgent(e)) return e.workflow_id;
  return undefined;
}
