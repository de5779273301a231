import { agentToolInputs } from '../../contract/agentTools.ts';
import { Conflict } from '../domain/errors.ts';
import type { ConsoleLevel, Header, NetworkEntry, NetworkLog } from '../network/networkLog.ts';
import type { ToolKit } from './kit.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';

/** Lines one answer lists at most (the newest), and characters it holds at most. */
const MAX_LINES = 200;
const MAX_ANSWER = 20_000;
const MAX_URL_IN_LIST = 300;

const SEVERITY: Record<ConsoleLevel, number> = { error: 0, warning: 1, info: 2, debug: 3 };

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The newest lines that fit MAX_ANSWER, oldest first, and a first line saying what was left out. */
function bounded(lines: string[], leftBefore: number): string {
  const kept: string[] = [];
  let size = 0;
  for (let i = lines.length - 1; i >= 0 && kept.length < MAX_LINES; i--) {
    size += lines[i]!.length + 1;
    if (size > MAX_ANSWER) break;
    kept.unshift(lines[i]!);
  }
  const left = leftBefore + lines.length - kept.length;
  return [...(left ? [`(${left} earlier not shown)`] : []), ...kept].join('\n');
}

function outcomeOf(e: NetworkEntry): string {
  if (e.failure) return `failed: ${e.failure}`;
  if (e.status === undefined) return 'pending';
  return `[${e.status}] ${e.statusText ?? ''}`.trimEnd();
}

const headerLines = (headers: Header[] | undefined, redact: (s: string) => string) =>
  headers?.length ? headers.map((h) => `${h.name}: ${redact(h.value)}`).join('\n') : '(none)';

function bodyText(body: NetworkEntry['requestBody'] | NetworkEntry['responseBody'], redact: (s: string) => string) {
  if (!body) return '(no body kept)';
  if ('skipped' in body) return `(${body.size} bytes, not kept: ${body.skipped})`;
  const shown = cut(redact(body.text), MAX_ANSWER);
  const whole = !body.truncated && shown.length === body.text.length;
  return whole ? shown : `${shown}\n(cut: the body is ${body.size} bytes)`;
}

/** The answer of browser_network_request: one part, or the overview of the request. */
function describeRequest(e: NetworkEntry, part: string | undefined, redact: (s: string) => string): string {
  switch (part) {
    case 'request-headers':
      return headerLines(e.requestHeaders, redact);
    case 'response-headers':
      return headerLines(e.responseHeaders, redact);
    case 'request-body':
      return bodyText(e.requestBody, redact);
    case 'response-body':
      return e.failure ? `(no response: ${e.failure})` : bodyText(e.responseBody, redact);
  }
  return [
    `[${e.index}] ${e.method} ${cut(redact(e.url), 2000)} => ${outcomeOf(e)}`,
    `Type: ${e.resourceType}${e.mimeType ? `, ${e.mimeType}` : ''}; started ${new Date(e.startedAt).toISOString()}; ${e.duration ?? '?'} ms; ${e.transferSize ?? '?'} bytes transferred, body ${e.bodySize ?? 0} bytes${e.fromCache ? ' (from cache)' : ''}`,
    ...(e.redirectURL ? [`Redirected to ${cut(redact(e.redirectURL), 2000)}`] : []),
    '',
    'Request headers:',
    headerLines(e.requestHeaders, redact),
    '',
    'Response headers:',
    headerLines(e.responseHeaders, redact),
    '',
    'Bodies: part "request-body" or "response-body"',
  ].join('\n');
}

/** browser_console_messages, browser_network_requests and browser_network_request: the session's record, read. */
export function networkTools(kit: ToolKit): AgentTool[] {
  /** The live session's record and what hides stored credentials in it; an ended one's requests are in its HAR. */
  const recordOf = async (sessionId: string): Promise<{ log: NetworkLog; redact: (text: string) => string }> => {
    const log = kit.deps.networks.get(sessionId);
    if (log) return { log, redact: await kit.deps.networks.redact() };
    // Unknown: NotFound, as every tool says it.
    await kit.deps.records.get(sessionId);
    if (kit.deps.sessions.get(sessionId))
      throw new Conflict(`Session ${sessionId} is not live: it is starting or ending`);
    throw new Conflict(
      `Session ${sessionId} is not live on this server: its requests are in its HAR (GET /api/sessions/${sessionId}/har) once it has ended`,
    );
  };

  return [
    defineTool({
      name: 'browser_console_messages',
      description:
        "The page's console messages and uncaught errors, oldest first: those since the last navigation (all: every one of the session). level: the least severe to answer (error, warning, info (default), debug).",
      input: agentToolInputs.browser_console_messages,
      async run({ session_id, level, all }) {
        const { log, redact } = await recordOf(session_id);
        const most = SEVERITY[level ?? 'info'];
        const messages = log.consoleMessages(all ?? false).filter((m) => SEVERITY[m.level] <= most);
        const lines = messages.map((m) => redact(`[${m.level.toUpperCase()}] ${m.text}${m.url ? ` @ ${m.url}` : ''}`));
        return {
          content: [{ type: 'text', text: lines.length ? bounded(lines, 0) : 'No console messages' }],
          summary: `Read ${messages.length} console messages`,
        };
      },
    }),
    defineTool({
      name: 'browser_network_requests',
      description:
        "Every request of the session's tabs and workers, oldest first, each with its index: `[index] METHOD url => [status]` or the failure. browser_network_request {index} tells one in full (headers, bodies).",
      input: agentToolInputs.browser_network_requests,
      async run({ session_id }) {
        const { log, redact } = await recordOf(session_id);
        const entries = log.list();
        const lines = entries.map(
          (e) =>
            `[${e.index}] ${e.method} ${cut(redact(e.url), MAX_URL_IN_LIST)} => ${outcomeOf(e)} (${e.resourceType}${e.duration !== undefined ? `, ${e.duration} ms` : ''})`,
        );
        const text = lines.length ? bounded(lines, log.dropped) : 'No requests yet';
        return { content: [{ type: 'text', text }], summary: `Listed ${entries.length} requests` };
      },
    }),
    defineTool({
      name: 'browser_network_request',
      description:
        'One request of browser_network_requests by its index: its line, timing, sizes and both sets of headers; part: only "request-headers", "request-body", "response-headers" or "response-body" (text bodies, cut; credentials hidden).',
      input: agentToolInputs.browser_network_request,
      async run({ session_id, index, part }) {
        const { log, redact } = await recordOf(session_id);
        const entry = log.byIndex(index);
        if (!entry) {
          throw new ToolError(
            index > log.lastIndex
              ? `No request has index ${index}: the session has made ${log.lastIndex} (browser_network_requests lists them)`
              : `Request ${index} is no longer kept: the record keeps the newest within its size (see the HAR once the session ends)`,
          );
        }
        const text = cut(describeRequest(entry, part, redact), MAX_ANSWER + 200);
        return {
          content: [{ type: 'text', text }],
          summary: `Read request ${index}${part ? ` (${part})` : ''}`,
        };
      },
    }),
  ];
}
