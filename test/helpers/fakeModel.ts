import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server that plays a writing model for the tests: OpenAI chat completions
 * (POST …/chat/completions, plain and `stream: true`) and Anthropic messages (POST …/messages,
 * plain and streaming). Each test scripts what the next requests get with `enqueue`; when the
 * queue is empty every request gets `fallback`. Every request is recorded in `requests`.
 * Tool calls are scripted with `{ kind: 'tools' }`; `{ kind: 'respond' }` decides per request from
 * what was sent (see `lastToolResult` and `toolNames`).
 */

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
}

export type FakeBehaviour =
  /** Answer with this text; an array is sent as one stream chunk per element (joined when not streaming). */
  | {
      kind: 'reply';
      text: string | string[];
      /** stop → finish_reason stop / stop_reason end_turn; length → length / max_tokens. */
      finish?: 'stop' | 'length';
      usage?: FakeUsage;
      /** Streaming only: after the first chunk, wait for this before sending the rest. */
      gate?: Promise<void>;
      /** Streaming only: wait this long after each chunk (so a person, or an e2e test, sees it stream). */
      chunkDelayMs?: number;
    }
  /** Answer with this HTTP status and the provider's error body (`retry-after-ms: 0`, so retries are immediate). */
  | { kind: 'status'; status: number }
  /** Never answer (until the client gives up or the fake closes). */
  | { kind: 'hang' }
  /** Streaming: send the first `after` chunks, then cut the connection. Not streaming: cut at once. */
  | {
      kind: 'cut';
      text: string[];
      after: number;
      /** after the first chunk, wait for this before going on */ gate?: Promise<void>;
    }
  /**
   * Call tools: OpenAI `tool_calls` (finish_reason tool_calls), Anthropic `tool_use` blocks
   * (stop_reason tool_use), plain or streamed; streamed arguments are split in two chunks.
   */
  | {
      kind: 'tools';
      calls: FakeToolCall[];
      /** Assistant text before the calls; an array is one stream chunk per element. */
      text?: string | string[];
      usage?: FakeUsage;
    }
  /** Decide from the request itself (e.g. its last tool result); may return another `respond`. */
  | { kind: 'respond'; with: (req: FakeRequest) => FakeBehaviour | Promise<FakeBehaviour> };

export interface FakeToolCall {
  /** Defaults to a unique `call_<n>` (OpenAI) or `toolu_<n>` (Anthropic). */
  id?: string;
  name: string;
  /**
   * Sent JSON-encoded; a string is sent as is (so a test can send broken JSON). Anthropic's plain
   * (non-streamed) answer carries the input as JSON, so there a string arrives as a JSON string.
   */
  args: unknown;
}

export interface FakeRequest {
  protocol: 'openai' | 'anthropic';
  path: string;
  headers: http.IncomingHttpHeaders;
  // The decoded request body as the provider SDK sent it; tests read fields off it freely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  stream: boolean;
  /** Settles when the client's connection for this request closes (e.g. the server cancelled the call). */
  closed: Promise<void>;
}

export interface FakeModel {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Base URL for MODEL_BASE_URL (both protocols live under /v1). */
  baseUrl: string;
  requests: FakeRequest[];
  fallback: FakeBehaviour;
  enqueue(...behaviours: FakeBehaviour[]): void;
  /** Forget recorded requests and queued behaviours. */
  reset(): void;
  /** Settles once `n` requests have been received since the last reset. */
  received(n: number): Promise<void>;
  /** Writer environment for startServer(), pointing at this fake. */
  env(provider?: 'openai-compatible' | 'openai' | 'anthropic', extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

const DEFAULT_REPLY: FakeBehaviour = {
  kind: 'reply',
  text: ['The quick brown fox ', 'jumps over ', 'the lazy dog.'],
  usage: { input_tokens: 12, output_tokens: 9 },
};

const sse = (res: http.ServerResponse, data: unknown, event?: string) =>
  res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function errorBody(protocol: FakeRequest['protocol'], status: number) {
  return protocol === 'openai'
    ? { error: { message: `fake upstream error ${status}`, type: 'server_error', param: null, code: null } }
    : {
        type: 'error',
        error: { type: status === 529 ? 'overloaded_error' : 'api_error', message: `fake upstream error ${status}` },
      };
}

function respondError(protocol: FakeRequest['protocol'], message: string) {
  return protocol === 'openai'
    ? { error: { message, type: 'invalid_request_error', param: null, code: null } }
    : { type: 'error', error: { type: 'invalid_request_error', message } };
}

/** What every OpenAI answer of the fake starts with, and its usage in OpenAI's names. */
function openaiFrame(req: FakeRequest, usage: FakeUsage) {
  return {
    base: { id: 'chatcmpl-fake', created: Math.floor(Date.now() / 1000), model: String(req.body?.model) },
    openaiUsage: {
      prompt_tokens: usage.input_tokens,
      completion_tokens: usage.output_tokens,
      total_tokens: usage.input_tokens + usage.output_tokens,
    },
  };
}

/** The fixed fields of an Anthropic message from the fake. */
const anthropicMessage = (req: FakeRequest) => ({
  id: 'msg_fake',
  type: 'message',
  role: 'assistant',
  model: String(req.body?.model),
  stop_sequence: null,
});

type AnthropicEvent = (type: string, data: object) => void;

/** Open an Anthropic stream (headers, message_start); the writer of its events. */
function startAnthropicStream(
  res: http.ServerResponse,
  message: ReturnType<typeof anthropicMessage>,
  usage: FakeUsage,
): AnthropicEvent {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const event: AnthropicEvent = (type, data) => sse(res, { type, ...data }, type);
  event('message_start', {
    message: {
      ...message,
      content: [],
      stop_reason: null,
      usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
    },
  });
  return event;
}

/** Close it: the stop reason and usage (message_delta), then message_stop. */
function endAnthropicStream(res: http.ServerResponse, event: AnthropicEvent, stopReason: string, usage: FakeUsage) {
  event('message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  event('message_stop', {});
  res.end();
}

/** OpenAI chat completions, plain or streamed. */
async function openaiReply(
  req: FakeRequest,
  res: http.ServerResponse,
  b: Extract<FakeBehaviour, { kind: 'reply' | 'cut' }>,
) {
  const chunks = typeof b.text === 'string' ? [b.text] : b.text;
  const usage = b.kind === 'reply' && b.usage ? b.usage : { input_tokens: 1, output_tokens: chunks.length };
  const finish = b.kind === 'reply' && b.finish === 'length' ? 'length' : 'stop';
  const { base, openaiUsage } = openaiFrame(req, usage);
  if (!req.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: chunks.join('') }, finish_reason: finish }],
        usage: openaiUsage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (choices: unknown[], extra: object = {}) =>
    sse(res, { ...base, object: 'chat.completion.chunk', choices, ...extra });
  chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
  await sendChunks(res, b, (text) => chunk([{ index: 0, delta: { content: text }, finish_reason: null }]));
  if (res.destroyed) return;
  chunk([{ index: 0, delta: {}, finish_reason: finish }]);
  if (req.body?.stream_options?.include_usage) chunk([], { usage: openaiUsage });
  sse(res, '[DONE]');
  res.end();
}

/** Anthropic messages, plain or streamed. */
async function anthropicReply(
  req: FakeRequest,
  res: http.ServerResponse,
  b: Extract<FakeBehaviour, { kind: 'reply' | 'cut' }>,
) {
  const chunks = typeof b.text === 'string' ? [b.text] : b.text;
  const usage = b.kind === 'reply' && b.usage ? b.usage : { input_tokens: 1, output_tokens: chunks.length };
  const stopReason = b.kind === 'reply' && b.finish === 'length' ? 'max_tokens' : 'end_turn';
  const message = anthropicMessage(req);
  if (!req.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...message,
        content: [{ type: 'text', text: chunks.join('') }],
        stop_reason: stopReason,
        usage,
      }),
    );
    return;
  }
  const event = startAnthropicStream(res, message, usage);
  event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  await sendChunks(res, b, (text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }));
  if (res.destroyed) return;
  event('content_block_stop', { index: 0 });
  endAnthropicStream(res, event, stopReason, usage);
}

type ToolsBehaviour = Extract<FakeBehaviour, { kind: 'tools' }>;
type ResolvedCall = { id: string; name: string; json: string };

const encodeArgs = (args: unknown) => (typeof args === 'string' ? args : JSON.stringify(args ?? {}));
/** Split in two so the client's streaming parser has to join the pieces. */
const halves = (json: string) =>
  json.length < 2 ? [json] : [json.slice(0, Math.floor(json.length / 2)), json.slice(Math.floor(json.length / 2))];

/** OpenAI chat completions answering with tool calls, plain or streamed. */
function openaiTools(req: FakeRequest, res: http.ServerResponse, b: ToolsBehaviour, calls: ResolvedCall[]) {
  const texts = b.text === undefined ? [] : typeof b.text === 'string' ? [b.text] : b.text;
  const usage = b.usage ?? { input_tokens: 1, output_tokens: texts.length + calls.length };
  const { base, openaiUsage } = openaiFrame(req, usage);
  if (!req.stream) {
    const message = {
      role: 'assistant',
      content: texts.length > 0 ? texts.join('') : null,
      tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.json } })),
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: 'tool_calls' }],
        usage: openaiUsage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (choices: unknown[], extra: object = {}) =>
    sse(res, { ...base, object: 'chat.completion.chunk', choices, ...extra });
  const delta = (d: object) => chunk([{ index: 0, delta: d, finish_reason: null }]);
  delta({ role: 'assistant', content: '' });
  for (const text of texts) delta({ content: text });
  for (const [index, c] of calls.entries()) {
    const [first = '', ...rest] = halves(c.json);
    delta({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: first } }] });
    for (const part of rest) delta({ tool_calls: [{ index, function: { arguments: part } }] });
  }
  chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]);
  if (req.body?.stream_options?.include_usage) chunk([], { usage: openaiUsage });
  sse(res, '[DONE]');
  res.end();
}

/** Anthropic messages answering with tool_use blocks, plain or streamed. */
function anthropicTools(req: FakeRequest, res: http.ServerResponse, b: ToolsBehaviour, calls: ResolvedCall[]) {
  const texts = b.text === undefined ? [] : typeof b.text === 'string' ? [b.text] : b.text;
  const usage = b.usage ?? { input_tokens: 1, output_tokens: texts.length + calls.length };
  const message = anthropicMessage(req);
  if (!req.stream) {
    const input = (json: string) => {
      try {
        return JSON.parse(json) as unknown;
      } catch {
        return json;
      }
    };
    const content = [
      ...(texts.length > 0 ? [{ type: 'text', text: texts.join('') }] : []),
      ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: input(c.json) })),
    ];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...message, content, stop_reason: 'tool_use', usage }));
    return;
  }
  const event = startAnthropicStream(res, message, usage);
  let index = 0;
  if (texts.length > 0) {
    event('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const text of texts) event('content_block_delta', { index, delta: { type: 'text_delta', text } });
    event('content_block_stop', { index });
    index++;
  }
  for (const c of calls) {
    event('content_block_start', { index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } });
    for (const part of halves(c.json))
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } });
    event('content_block_stop', { index });
    index++;
  }
  endAnthropicStream(res, event, 'tool_use', usage);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Message = { role?: string; content?: any };
const textOf = (content: unknown): string | undefined =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content
          .filter((p: { type?: string; text?: unknown }) => p?.type === 'text' && typeof p.text === 'string')
          .map((p: { text: string }) => p.text)
          .join('')
      : undefined;

/**
 * The text of the most recent tool result in the request: OpenAI, the last `role: 'tool'` message;
 * Anthropic, the last `tool_result` block of the last user message that has one. Undefined when none.
 */
export function lastToolResult(req: FakeRequest): string | undefined {
  const messages: Message[] = Array.isArray(req.body?.messages) ? req.body.messages : [];
  for (const m of [...messages].reverse()) {
    if (req.protocol === 'openai' && m.role === 'tool') return textOf(m.content);
    if (req.protocol === 'anthropic' && m.role === 'user' && Array.isArray(m.content)) {
      const results = (m.content as { type?: string; content?: unknown }[]).filter((b) => b?.type === 'tool_result');
      if (results.length > 0) return textOf(results[results.length - 1]!.content) ?? '';
    }
  }
  return undefined;
}

/** Names of the tools offered in the request (OpenAI `tools[].function.name`, Anthropic `tools[].name`). */
export function toolNames(req: FakeRequest): string[] {
  const tools: { name?: unknown; function?: { name?: unknown } }[] = Array.isArray(req.body?.tools)
    ? req.body.tools
    : [];
  return tools
    .map((t) => (req.protocol === 'openai' ? t?.function?.name : t?.name))
    .filter((n): n is string => typeof n === 'string');
}

/** Send the text chunks, honouring a gate; a cut waits until the chunks before it have left. */
async function sendChunks(
  res: http.ServerResponse,
  b: Extract<FakeBehaviour, { kind: 'reply' | 'cut' }>,
  send: (text: string) => void,
) {
  const chunks = typeof b.text === 'string' ? [b.text] : b.text;
  const flushed = () => new Promise<void>((resolve) => res.write('', () => resolve()));
  for (const [i, text] of chunks.entries()) {
    if (b.kind === 'cut' && i === b.after) break;
    send(text);
    if (i === 0 && b.gate) await b.gate;
    if (b.kind === 'reply' && b.chunkDelayMs) await new Promise((r) => setTimeout(r, b.chunkDelayMs));
    if (res.destroyed) return;
  }
  if (b.kind === 'cut') {
    await flushed();
    res.destroy();
  }
}

/** The one fake model of the whole suite (unit, API and e2e); `port` 0 (the default) picks a free one. */
export async function startFakeModel(opts: { port?: number; fallback?: FakeBehaviour } = {}): Promise<FakeModel> {
  const queue: FakeBehaviour[] = [];
  const requests: FakeRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const fake = { fallback: opts.fallback ?? DEFAULT_REPLY } as FakeModel;
  let toolCallCount = 0;

  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const protocol = path.endsWith('/chat/completions')
      ? 'openai'
      : path.endsWith('/messages')
        ? 'anthropic'
        : undefined;
    if (req.method !== 'POST' || !protocol) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
    const record: FakeRequest = {
      protocol,
      path,
      headers: req.headers,
      body,
      stream: (body as { stream?: boolean }).stream === true,
      closed,
    };
    requests.push(record);
    for (const w of waiters.filter((w) => requests.length >= w.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
    let b = queue.shift() ?? fake.fallback;
    try {
      while (b.kind === 'respond') b = await b.with(record);
    } catch (err) {
      // 400: the client gives up at once (no retries) and the test sees why.
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify(respondError(protocol, `fake respond() threw: ${String(err)}`)));
      return;
    }
    switch (b.kind) {
      case 'hang':
        return; // the socket stays open until the client aborts or close() cuts it
      case 'status':
        res.writeHead(b.status, { 'content-type': 'application/json', 'retry-after-ms': '0' });
        res.end(JSON.stringify(errorBody(protocol, b.status)));
        return;
      case 'cut':
      case 'reply':
        if (b.kind === 'cut' && !record.stream) res.destroy();
        else await (protocol === 'openai' ? openaiReply : anthropicReply)(record, res, b);
        return;
      case 'tools': {
        const calls = b.calls.map((c) => ({
          id: c.id ?? `${protocol === 'openai' ? 'call' : 'toolu'}_${++toolCallCount}`,
          name: c.name,
          json: encodeArgs(c.args),
        }));
        (protocol === 'openai' ? openaiTools : anthropicTools)(record, res, b, calls);
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...behaviours: FakeBehaviour[]) => void queue.push(...behaviours),
    received: (n: number) =>
      requests.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    reset: () => {
      queue.length = 0;
      requests.length = 0;
    },
    env: (
      provider: 'openai-compatible' | 'openai' | 'anthropic' = 'openai-compatible',
      extra: Record<string, string> = {},
    ) => ({
      MODEL_PROVIDER: provider,
      MODEL_BASE_URL: `http://127.0.0.1:${port}/v1`,
      MODEL_NAME: provider === 'anthropic' ? 'claude-fake' : 'fake-model',
      MODEL_API_KEY: 'sk-fake-writer-key',
      ...extra,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
