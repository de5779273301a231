import type { SessionEventInput, SessionEventName } from '../../contract/sessionEvents.ts';

type Redact = (text: string) => string;
type FieldsOf<E extends SessionEventName> = Exclude<keyof Extract<SessionEventInput, { event: E }>, 'event'>;

/**
 * The fields of each event that may carry what a page or a person wrote, and so a credential's
 * value: URLs, console and error texts, dialog messages, file names, step parameters and results,
 * answers. A record over every event, so a new one needs its line here. Left out: what the service
 * itself says or chose (ids, enums, counts, levels, methods, its own reasons).
 */
const REDACTED: { [E in SessionEventName]: readonly FieldsOf<E>[] } = {
  SessionStarted: [],
  RunQueued: [],
  RunStarting: [],
  RunStarted: [],
  ToolCallStarted: ['params'],
  ToolCallCompleted: ['result', 'content', 'error'],
  RunContent: ['outputs', 'content'],
  Dialog: ['message'],
  FlowPaused: ['message', 'prompt'],
  FlowResumed: ['answer'],
  RunCompleted: ['message', 'outputs', 'content'],
  RunError: ['message', 'outputs', 'content', 'error'],
  NewMessage: ['content'],
  AgentRunning: [],
  AskUserQuestion: ['questions', 'content'],
  StepRecorded: ['recorded'],
  RecorderStep: ['recorded'],
  StepHealed: ['old_selectors', 'new_selectors'],
  Navigated: ['url'],
  ConsoleMessage: ['text'],
  PageError: ['text'],
  NetworkRequest: ['url', 'failed'],
  Download: ['filename', 'reason'],
  ClientConnected: [],
  ClientDisconnected: [],
  AgentToolCall: ['message'],
  ProfileSaved: [],
  NodeDraining: [],
  SessionEnded: [],
};

/** Every string in a JSON value through `redact` (a record's keys stay: they are names the flow chose). */
function redactDeep(value: unknown, redact: Redact): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, redact)]));
  return value;
}

/**
 * The event with credential values hidden (server/credentials/redact.ts's rule) in every field that may
 * carry one. Done once as the event is recorded, so the store, the live stream, the pages, the
 * logs_url and the dashboard all hold the redacted text only.
 */
export function redactEvent(input: SessionEventInput, redact: Redact): SessionEventInput {
  const fields: readonly string[] = REDACTED[input.event];
  if (!fields.length) return input;
  const out: Record<string, unknown> = { ...input };
  for (const field of fields) if (out[field] !== undefined) out[field] = redactDeep(out[field], redact);
  // Same event, same fields: only strings inside them changed.
  return out as SessionEventInput;
}
