import type { ToolSet } from 'ai';
import type { JSONSchema7 } from 'json-schema';
import type { Locator, Page } from 'playwright-core';
import type { AgentTools } from '../agentTools/index.ts';
import type { ToolResult } from '../agentTools/registry.ts';
import { fillPlaceholders, type PlaceholderSources } from './placeholders.ts';

/**
 * The browser tools the built-in agent may call: the MCP server's own (server/agentTools), less
 * what an agent working in one session has no business with (making, closing or listing sessions,
 * running workflows, handing off) and the screenshot (it reads snapshots). Each is bound to the
 * agent's session, so `session_id` is left out of what the model sees.
 */
export const AGENT_BROWSER_TOOLS = [
  'browser_navigate',
  'browser_back',
  'browser_snapshot',
  'browser_click',
  'browser_hover',
  'browser_type',
  'browser_select_option',
  'browser_fill_form',
  'browser_press_key',
  'browser_wait_for',
  'downloads_list',
  'browser_find',
  'browser_console_messages',
  'browser_network_requests',
  'browser_network_request',
  'browser_tabs',
  'browser_close',
  'browser_handle_dialog',
] as const;

/** Offered only when the server allows it (AGENT_ALLOW_EVALUATE): the model's own JavaScript in the page. */
const AGENT_EVALUATE_TOOL = 'browser_evaluate';

// Loaded when first used: it is about 350 ms and 25 MB the idle server does not need.
const ai = () => import('ai');

/** Records a successful call as workflow steps (server/agent/stepRecorder.ts). */
export interface StepRecording {
  record<T extends { isError: boolean }>(
    page: Page,
    tool: string,
    args: Record<string, unknown>,
    locatorOf: (ref: string) => Locator,
    call: () => Promise<T>,
    lineOf?: (ref: string) => string | undefined,
  ): Promise<T>;
}

export interface BoundBrowserToolsOptions {
  sessionId: string;
  tools: Pick<AgentTools, 'registry' | 'page' | 'locate' | 'lineOf'>;
  /** AGENT_ALLOW_EVALUATE: browser_evaluate is offered too. */
  allowEvaluate?: boolean;
  placeholders: PlaceholderSources;
  /** Hide credential values in what goes back to the model (a field that shows what was typed). */
  redact: (text: string) => string;
  /** Absent: nothing is recorded (an act step inside a run). */
  recorder?: StepRecording;
}

/** A failed tool call: its message goes back to the model as the call's error, for it to act on. */
export class ToolCallFailed extends Error {}

const textOf = (result: ToolResult) =>
  result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

/** The JSON Schema of a registry tool without its session_id (the agent's session is implied). */
function withoutSessionId(schema: Record<string, unknown>): JSONSchema7 {
  const properties = { ...(schema.properties as Record<string, unknown>) };
  delete properties.session_id;
  const required = ((schema.required as string[] | undefined) ?? []).filter((r) => r !== 'session_id');
  return { ...(schema as JSONSchema7), properties: properties as JSONSchema7['properties'], required };
}

/**
 * The model may name an element by `target` (the tools' current name) rather than `ref`: given
 * as `ref`, the step recorder and the placeholders (which read `ref`) see it too.
 */
function refsAsRef(args: Record<string, unknown>): Record<string, unknown> {
  const one = (a: Record<string, unknown>) => {
    const { target, ...rest } = a;
    return typeof target === 'string' && rest.ref === undefined ? { ...rest, ref: target } : a;
  };
  const out = one(args);
  return Array.isArray(out.fields)
    ? { ...out, fields: out.fields.map((f) => (f && typeof f === 'object' ? one(f as Record<string, unknown>) : f)) }
    : out;
}

/** Text the agent types, with its placeholders filled for the field's document and the page around it. */
async function filledArgs(
  opts: BoundBrowserToolsOptions,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const typed =
    name === 'browser_type' && typeof args.text === 'string'
      ? [{ ref: args.ref, text: args.text }]
      : name === 'browser_fill_form' && Array.isArray(args.fields)
        ? (args.fields as { ref: unknown; value: unknown }[]).map((f) => ({ ref: f.ref, text: f.value }))
        : [];
  if (!typed.some((t) => typeof t.text === 'string' && t.text.includes('{{'))) return args;
  const page = await opts.tools.page(opts.sessionId);
  const fill = async (ref: unknown, text: unknown) => {
    if (typeof text !== 'string' || typeof ref !== 'string' || !text.includes('{{')) return text;
    const documentUrl = await opts.tools
      .locate(opts.sessionId, page, ref)
      .evaluate(() => document.URL, undefined, { timeout: 5_000 });
    return fillPlaceholders(text, opts.placeholders, [documentUrl, page.url()]);
  };
  if (name === 'browser_type') return { ...args, text: await fill(args.ref, args.text) };
  const fields = args.fields as Record<string, unknown>[];
  return { ...args, fields: await Promise.all(fields.map(async (f) => ({ ...f, value: await fill(f.ref, f.value) }))) };
}

/** The agent's browser tools as AI SDK tools: the registry's, bound to the session, filled, recorded and redacted. */
export async function boundBrowserTools(opts: BoundBrowserToolsOptions): Promise<ToolSet> {
  const { jsonSchema, tool } = await ai();
  const caps = opts.allowEvaluate ? (['evaluate'] as const) : [];
  const described = new Map(opts.tools.registry.list(caps).map((t) => [t.name, t]));
  const set: ToolSet = {};
  for (const name of [...AGENT_BROWSER_TOOLS, ...(opts.allowEvaluate ? [AGENT_EVALUATE_TOOL] : [])]) {
    const description = described.get(name);
    if (!description) continue;
    set[name] = tool({
      description: description.description,
      inputSchema: jsonSchema<Record<string, unknown>>(withoutSessionId(description.inputSchema)),
      execute: async (given: Record<string, unknown>, { abortSignal }) => {
        const input = refsAsRef(given);
        const args = { ...input, session_id: opts.sessionId };
        let result: ToolResult;
        try {
          abortSignal?.throwIfAborted();
          const filled = await filledArgs(opts, name, args);
          // An interrupt does not wait for the page: the tool is handed the turn's signal (a model call
          // stops at it; a browser call has its own timeout), and the turn stops now.
          const signal = abortSignal ?? NEVER_ABORTED;
          const call = () =>
            untilAborted(opts.tools.registry.call(name, filled, { record: false, caps, signal }), signal);
          if (opts.recorder) {
            const page = await opts.tools.page(opts.sessionId);
            // The recorder keeps the arguments as the model gave them: placeholders, never values.
            result = await opts.recorder.record(
              page,
              name,
              input,
              (ref) => opts.tools.locate(opts.sessionId, page, ref),
              call,
              (ref) => opts.tools.lineOf(opts.sessionId, ref),
            );
          } else result = await call();
        } catch (err) {
          throw new ToolCallFailed(opts.redact(err instanceof Error ? err.message : String(err)));
        }
        const text = opts.redact(textOf(result));
        if (result.isError) throw new ToolCallFailed(text);
        return text;
      },
    });
  }
  return set;
}

/** The signal of a call made outside any turn that can be interrupted. */
const NEVER_ABORTED = new AbortController().signal;

/** The promise, or a rejection as soon as the signal aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ToolCallFailed('Interrupted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
