import type { LanguageModel, ModelMessage, StopCondition, ToolSet } from 'ai';
import type { SessionEventInput, SimplexTool } from '../../contract/sessionEvents.ts';

// Loaded when first used: it is about 350 ms and 25 MB the idle server does not need.
const ai = () => import('ai');

/** The tools that end a turn instead of acting: the agent asks the person, or says it is done. */
export const ASK_USER = 'ask_user';
export const DONE = 'done';

/** ask_user and done have no execute: calling one ends the model's loop, and the turn says which. */
const turnEndingTools = ({ jsonSchema, tool }: Awaited<ReturnType<typeof ai>>): ToolSet => ({
  [ASK_USER]: tool({
    description:
      'Ask the person a question when you need a decision or a fact you cannot find on the page (which account, a missing value). Stop and wait for the answer.',
    inputSchema: jsonSchema<{ question: string; options?: string[] }>({
      type: 'object',
      properties: {
        question: { type: 'string', minLength: 1, maxLength: 2000 },
        options: { type: 'array', items: { type: 'string', maxLength: 200 }, maxItems: 10 },
      },
      required: ['question'],
      additionalProperties: false,
    }),
  }),
  [DONE]: tool({
    description: 'Say the task is done (or cannot be done), with a one or two sentence summary of what you did.',
    inputSchema: jsonSchema<{ summary: string }>({
      type: 'object',
      properties: { summary: { type: 'string', minLength: 1, maxLength: 2000 } },
      required: ['summary'],
      additionalProperties: false,
    }),
  }),
});

/** How a turn ended. */
export type TurnEnd =
  | { kind: 'done'; summary: string }
  | { kind: 'ask'; toolCallId: string; question: string; options: string[] }
  /** The model answered in text without calling done (a reply, or a question in words). */
  | { kind: 'replied'; text: string }
  /** It used every step it was given. */
  | { kind: 'limit' };

export interface TurnOptions {
  model: LanguageModel;
  timeoutMs?: number;
  system: string;
  /** The conversation so far; the turn appends what the model said and the tools answered. */
  history: ModelMessage[];
  tools: ToolSet;
  maxSteps: number;
  maxRetries: number;
  maxOutputTokens: number;
  signal: AbortSignal;
  emit(event: SessionEventInput): void;
  /** The next tool call's number in the session, from 1. */
  nextStep(): number;
}

/** Streamed text is logged in pieces of about this size or age, not one event per token. */
const FLUSH_CHARS = 400;
const FLUSH_MS = 150;
const CONTENT_MAX = 2000;

const clip = (s: string) => (s.length > CONTENT_MAX ? `${s.slice(0, CONTENT_MAX - 1)}…` : s);
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 500);
const argsOf = (input: unknown): Record<string, unknown> =>
  input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { input };

/**
 * One turn of the agent: the model and its tools in a loop (AI SDK streamText) until it calls done
 * or ask_user, answers in words, uses its steps, fails or is aborted. What it says streams to the
 * session's log as RunContent; each tool call is a ToolCallStarted/ToolCallCompleted pair in
 * Simplex's shape. A failed or unknown tool call goes back to the model as an error to act on.
 * Throws on a model failure or abort (the caller logs RunError).
 */
export async function runTurn(opts: TurnOptions): Promise<TurnEnd> {
  const sdk = await ai();
  let text = '';
  let pending = '';
  let lastFlush = Date.now();
  const flush = () => {
    if (!pending) return;
    opts.emit({ event: 'RunContent', content: pending, content_type: 'text', agent: true });
    pending = '';
    lastFlush = Date.now();
  };
  const calls = new Map<string, { step: number; name: string; args: Record<string, unknown>; started: number }>();
  const toolOf = (id: string, content: string | null, failed: boolean | null): SimplexTool => {
    const call = calls.get(id)!;
    return {
      tool_call_id: id,
      tool_name: call.name,
      tool_args: call.args,
      content,
      tool_call_error: failed,
      role: 'tool',
      created_at: Math.floor(call.started / 1000),
    };
  };
  const completed = (id: string, ok: boolean, content: string) => {
    const call = calls.get(id);
    if (!call) return;
    opts.emit({
      event: 'ToolCallCompleted',
      step: call.step,
      action: call.name,
      result: ok ? { ok } : { ok, error: content },
      duration: Date.now() - call.started,
      tool_name: call.name,
      tool: toolOf(id, content, !ok),
      content,
      ...(ok ? {} : { error: content }),
      agent: true,
    });
  };

  let ending: TurnEnd | undefined;
  let failure: unknown;
  let completedSteps: ModelMessage[] = [];
  const result = sdk.streamText({
    model: opts.model,
    system: opts.system,
    messages: opts.history,
    tools: { ...opts.tools, ...turnEndingTools(sdk) },
    stopWhen: [sdk.stepCountIs(opts.maxSteps), calledTurnEnding],
    maxRetries: opts.maxRetries,
    maxOutputTokens: opts.maxOutputTokens,
    abortSignal: opts.signal,
    prepareStep: ({ messages }) => ({ messages: recentTurns(withOldPagesCut(errorsAsText(messages))) }),
    // What the completed steps said and did: kept in the history when a later step fails or is stopped.
    onStepFinish: (step) => {
      completedSteps = step.response.messages;
    },
    // The stream's error part ends the turn (RunError); the SDK's default would also print it.
    onError: () => undefined,
  });
  for await (const part of result.fullStream) {
    switch (part.type) {
      case 'text-delta':
        text += part.text;
        pending += part.text;
        if (pending.length >= FLUSH_CHARS || Date.now() - lastFlush >= FLUSH_MS) flush();
        break;
      case 'tool-call': {
        flush();
        const args = argsOf(part.input);
        if (!part.invalid && part.toolName === DONE) {
          ending ??= { kind: 'done', summary: String(args.summary ?? '') };
          break;
        }
        if (!part.invalid && part.toolName === ASK_USER) {
          const options = Array.isArray(args.options) ? args.options.map(String) : [];
          ending ??= { kind: 'ask', toolCallId: part.toolCallId, question: String(args.question ?? ''), options };
          break;
        }
        const step = opts.nextStep();
        calls.set(part.toolCallId, { step, name: part.toolName, args, started: Date.now() });
        opts.emit({
          event: 'ToolCallStarted',
          step,
          action: part.toolName,
          params: args,
          tool_name: part.toolName,
          tool: toolOf(part.toolCallId, null, null),
          agent: true,
        });
        break;
      }
      case 'tool-result':
        completed(
          part.toolCallId,
          true,
          clip(typeof part.output === 'string' ? part.output : JSON.stringify(part.output)),
        );
        break;
      case 'tool-error':
        completed(part.toolCallId, false, clip(messageOf(part.error)));
        break;
      case 'text-end':
      case 'finish-step':
        flush();
        break;
      case 'error':
        failure ??= part.error;
        break;
      case 'abort':
        failure ??= opts.signal.reason ?? new Error('The turn was interrupted');
        break;
    }
  }
  flush();
  if (failure !== undefined) {
    // The steps that finished did happen (the page changed, steps were recorded): the model must know.
    opts.history.push(...errorsAsText(completedSteps));
    throw failure;
  }
  const response = await result.response;
  opts.history.push(...errorsAsText(response.messages));
  answerOpenCalls(opts.history, ending?.kind === 'ask' ? ending.toolCallId : undefined);
  if (ending) return ending;
  if ((await result.finishReason) === 'tool-calls') return { kind: 'limit' };
  return { kind: 'replied', text: text.trim() };
}

/** The loop stops at a valid done or ask_user (an invalid one goes back to the model as an error, like any tool). */
const calledTurnEnding: StopCondition<ToolSet> = ({ steps }) =>
  steps
    .at(-1)
    ?.toolCalls.some((c) => (c.toolName === DONE || c.toolName === ASK_USER) && !('invalid' in c && c.invalid)) ??
  false;

/**
 * Every tool call needs its result in the history before the model is called again, or the
 * provider refuses the conversation from then on. done and ask_user have none of their own: done
 * is acknowledged, the question the turn waits on (`waiting`) is answered later by the person, and
 * any other one of the last step (a second question, a done beside a question) is answered as ignored.
 */
function answerOpenCalls(history: ModelMessage[], waiting: string | undefined): void {
  const answered = new Set<string>();
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role === 'tool') {
      for (const part of m.content) if (part.type === 'tool-result') answered.add(part.toolCallId);
      continue;
    }
    if (m.role !== 'assistant' || typeof m.content === 'string') return;
    for (const part of m.content) {
      if (part.type !== 'tool-call' || answered.has(part.toolCallId) || part.toolCallId === waiting) continue;
      const said = part.toolName === DONE ? 'Noted.' : 'Ignored: one done or question at a time.';
      history.push(toolAnswer(part.toolCallId, part.toolName, said));
    }
    return;
  }
}

/**
 * A tool that threw reaches the history as `error-json` holding the Error itself, which the
 * providers serialise as `{}`: the model would never read why its call failed. Said as text instead.
 */
export function errorsAsText(messages: ModelMessage[]): ModelMessage[] {
  return messages.map((m) => {
    if (m.role !== 'tool') return m;
    return {
      ...m,
      content: m.content.map((part) => {
        if (part.type !== 'tool-result' || part.output.type !== 'error-json') return part;
        const value = part.output.value as unknown;
        const text = value instanceof Error ? value.message : typeof value === 'string' ? value : JSON.stringify(value);
        return { ...part, output: { type: 'error-text' as const, value: text } };
      }),
    };
  });
}

/** A tool's answer as a message of the history: how an ask_user answer (or done's acknowledgement) goes back. */
export const toolAnswer = (toolCallId: string, toolName: string, value: string): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId, toolName, output: { type: 'text', value } }],
});

/** Tool answers kept whole: the latest pages the agent saw. Older ones are cut, or a long task would outgrow the context. */
const WHOLE_TOOL_ANSWERS = 3;
const CUT_TO = 300;

/** The messages with all but the latest few long tool answers (snapshots, mostly) cut short; the history itself is left as is. */
export function withOldPagesCut(messages: ModelMessage[]): ModelMessage[] {
  let seen = 0;
  return [...messages]
    .reverse()
    .map((m) => {
      if (m.role !== 'tool') return m;
      if (++seen <= WHOLE_TOOL_ANSWERS) return m;
      return {
        ...m,
        content: m.content.map((part) => {
          if (part.type !== 'tool-result' || part.output.type !== 'text' || part.output.value.length <= CUT_TO * 2)
            return part;
          const value = `${part.output.value.slice(0, CUT_TO)}\n… (an older page: left out; take a new snapshot)`;
          return { ...part, output: { type: 'text' as const, value } };
        }),
      };
    })
    .reverse();
}

/** Messages resent at most: a long chat keeps its latest turns, so it never outgrows the model's context. */
const MESSAGES_SENT_MAX = 80;

/**
 * The latest messages, from a message of the person's on (a turn's start, so no tool result is
 * parted from its call), when there are more than MESSAGES_SENT_MAX; all of them otherwise, or
 * when one turn alone is longer.
 */
export function recentTurns(messages: ModelMessage[]): ModelMessage[] {
  if (messages.length <= MESSAGES_SENT_MAX) return messages;
  const from = messages.findIndex((m, i) => m.role === 'user' && messages.length - i <= MESSAGES_SENT_MAX);
  return from > 0 ? messages.slice(from) : messages;
}
