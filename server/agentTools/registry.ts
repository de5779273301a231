import { z } from 'zod';
import type { McpCapability } from '../../contract/mcp.ts';
import { isDomainError } from '../domain/errors.ts';
import type { Log } from '../log.ts';

/**
 * The browser tools an AI agent calls, as plain typed functions: the MCP server
 * (server/http/mcpServer.ts) exposes them, and a built-in agent can call the very same ones. So
 * nothing here knows MCP: a tool takes its zod-parsed input and answers text and images.
 */

export type ToolContent =
  { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: 'image/png' | 'image/jpeg' };

export interface ToolOutcome {
  content: ToolContent[];
  /** What the session's log says of the call: a short sentence with no secret (no URL with a token, no typed text). */
  summary: string;
  /** The session the call acted on, when the input did not name it (session_create). */
  sessionId?: string;
}

export interface ToolResult {
  content: ToolContent[];
  /** The call failed: `content` says why, for the agent to read and act on. */
  isError: boolean;
}

/** A failure the agent is told as it is (its message is for the caller: never a secret). */
export class ToolError extends Error {}

/** Who a tool call is made for. */
export interface ToolCaller {
  /** The API key of the request (null: the service's own agent, or no key). */
  apiKeyId: string | null;
}

export interface AgentTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  input: S;
  /** The tool group it is in beyond the core (contract/mcp.ts MCP_CAPABILITIES): off unless asked for. */
  capability?: McpCapability;
  /**
   * `signal`: the caller's (an MCP request's, the agent's turn's), aborted when it gives up: a tool
   * that waits long (the model, a page) stops at it.
   */
  /** `caller`: who called (MCP: the request's API key), for tools whose work belongs to a key (session_create). */
  run(input: z.output<S>, signal: AbortSignal, caller?: ToolCaller): Promise<ToolOutcome>;
}

/** Declares a tool with its input type inferred from its schema. */
export const defineTool = <S extends z.ZodObject>(tool: AgentTool<S>): AgentTool => tool as unknown as AgentTool;

/** One tool call as the session's log records it. */
export interface ToolCallRecord {
  tool: string;
  ok: boolean;
  message: string;
  duration: number;
}

export interface RegistryDeps {
  /** Record the call in the session's event log; only called for a session this node holds live. */
  record(sessionId: string, call: ToolCallRecord): void;
  /** Whether the session is live on this node (a call naming another id is not logged anywhere). */
  isLive(sessionId: string): boolean;
  log: Log;
}

export interface ToolDescription {
  name: string;
  description: string;
  /** JSON Schema (draft 7) of the input, an object schema as MCP requires. */
  inputSchema: { type: 'object'; [key: string]: unknown };
}

const MESSAGE_MAX = 500;
const clip = (s: string) => (s.length > MESSAGE_MAX ? `${s.slice(0, MESSAGE_MAX - 1)}…` : s);
/** A library's error can quote the CDP URL the tools connected on; its token never reaches a caller or the log. */
export const redactTokens = (s: string) => s.replace(/token=[^&\s"'<>]+/g, 'token=[redacted]');

/** Schema issues as one sentence an agent can fix its call from: `url: url must be an http:// or https:// URL; …`. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`)
    .join('; ');
}

export class AgentToolRegistry {
  private readonly tools = new Map<string, AgentTool>();

  constructor(
    private readonly deps: RegistryDeps,
    tools: AgentTool[],
  ) {
    for (const t of tools) {
      if (this.tools.has(t.name)) throw new Error(`two agent tools are named ${t.name}`);
      this.tools.set(t.name, t);
    }
  }

  /** The core tools and those of the groups in `caps`. */
  list(caps: readonly McpCapability[] = []): ToolDescription[] {
    return [...this.tools.values()]
      .filter((t) => !t.capability || caps.includes(t.capability))
      .map((t) => ({
        name: t.name,
        description: t.description,
        // io 'input': what a caller may send (a default is optional to it). Draft 7, as the MCP SDK's
        // own servers emit: the draft every MCP client's validator reads.
        inputSchema: z.toJSONSchema(t.input, {
          io: 'input',
          unrepresentable: 'any',
          target: 'draft-7',
        }) as ToolDescription['inputSchema'],
      }));
  }

  /**
   * Call a tool by name with the caller's arguments, whatever they are: a bad name, arguments that
   * fail the schema, and any failure of the tool come back as an error result; nothing is thrown.
   * `record: false`: the caller logs the call itself (the built-in agent's ToolCallStarted/Completed).
   * `caps`: the tool groups beyond the core this caller turned on; a tool of another is refused.
   * `signal`: the caller's, handed to the tool (AgentTool.run).
   */
  async call(
    name: string,
    args: unknown,
    opts: { signal: AbortSignal; record?: boolean; caps?: readonly McpCapability[]; caller?: ToolCaller },
  ): Promise<ToolResult> {
    const tool = this.tools.get(name);
    if (!tool)
      return errorResult(`No tool is named ${JSON.stringify(clip(name))}: call tools/list for the tools there are`);
    if (tool.capability && !(opts.caps ?? []).includes(tool.capability))
      return errorResult(
        `${name} is in the "${tool.capability}" tool group, which this connection did not turn on: connect to /api/mcp?caps=${tool.capability}`,
      );
    const parsed = tool.input.safeParse(args ?? {});
    if (!parsed.success) return errorResult(`Invalid arguments for ${name}: ${describeIssues(parsed.error)}`);
    const input = parsed.data as { session_id?: string };
    const started = Date.now();
    let result: ToolResult;
    let record: { sessionId: string | undefined; ok: boolean; message: string };
    try {
      const outcome = await tool.run(parsed.data, opts.signal, opts.caller);
      result = { content: outcome.content, isError: false };
      record = { sessionId: outcome.sessionId ?? input.session_id, ok: true, message: outcome.summary };
    } catch (err) {
      const message = this.messageOf(name, err);
      result = errorResult(message);
      record = { sessionId: input.session_id, ok: false, message };
    }
    if (opts.record !== false && record.sessionId && this.deps.isLive(record.sessionId)) {
      this.deps.record(record.sessionId, {
        tool: name,
        ok: record.ok,
        message: clip(record.message),
        duration: Date.now() - started,
      });
    }
    return result;
  }

  /** A tool's or a domain's own message is the caller's; anything else is ours, logged, and said in general terms. */
  private messageOf(name: string, err: unknown): string {
    if (err instanceof ToolError || isDomainError(err)) return redactTokens(err.message);
    const line = redactTokens(err instanceof Error ? err.message.split('\n')[0]! : String(err));
    this.deps.log.error({ tool: name, message: line }, 'agent tool failed');
    return `${name} failed unexpectedly: ${clip(line)}`;
  }
}

const errorResult = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });
