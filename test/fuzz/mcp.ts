import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { agentToolInputs } from '../../contract/agentTools.ts';
import { afterCase, check, healthy, type Service } from './harness.ts';
import { rawRequest } from './rawHttp.ts';

/**
 * Property 4: /api/mcp with arbitrary JSON-RPC. Each case sends a few requests with the key as
 * Bearer: initialize, tools/list and tools/call with every tool name and random, mutated or valid
 * arguments (sessions made on the way are real), batches, unknown methods, and bodies that are no
 * JSON-RPC at all. Per response: an answer within 60 s, never a 5xx, and the server alive; after
 * the case the harness's checks (healthy, no process left, a next session starts).
 */

const TOOLS = Object.keys(agentToolInputs);

type Json = unknown;

export type McpMessage =
  | { k: 'call'; tool: string; args: Json; sessionArg: 'none' | 'random' | 'made'; id: Json }
  | { k: 'method'; method: string; params: Json; id: Json }
  | { k: 'raw'; text: string };

const idArb: fc.Arbitrary<Json> = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 8 }),
  fc.constant(null),
  fc.constant({}),
  fc.double(),
);

const messageArb: fc.Arbitrary<McpMessage> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      k: fc.constant('call' as const),
      tool: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...TOOLS) },
        { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
      ),
      args: fc.oneof(
        fc.dictionary(
          fc.constantFrom(
            'session_id',
            'url',
            'ref',
            'element',
            'text',
            'max_tokens',
            'cursor',
            'schema',
            'key',
            'message',
            'workflow_id',
            'variables',
            'profile',
            '__proto__',
            // playwright-mcp 0.0.83's names (issue 36)
            'target',
            'doubleClick',
            'button',
            'modifiers',
            'slowly',
            'textGone',
            'fullPage',
            'fields',
            'paths',
            'function',
            'startTarget',
            'endTarget',
            'data',
            'regex',
            'media',
            'colorScheme',
            'reducedMotion',
            'forcedColors',
            'filename',
            'width',
            'code',
            'level',
            'all',
            'index',
            'part',
            'action',
            'accept',
            'promptText',
            'depth',
          ),
          fc.jsonValue({ maxDepth: 3 }),
        ),
        fc.jsonValue({ maxDepth: 2 }),
      ),
      sessionArg: fc.constantFrom('none' as const, 'random' as const, 'made' as const),
      id: idArb,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('method' as const),
      method: fc.constantFrom(
        'initialize',
        'tools/list',
        'tools/call',
        'ping',
        'resources/list',
        'prompts/get',
        'notifications/initialized',
        'logging/setLevel',
        'no/such',
        '',
      ),
      params: fc.jsonValue({ maxDepth: 3 }),
      id: idArb,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('raw' as const),
      text: fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.constantFrom(
          '{',
          '[]',
          '[{}]',
          'null',
          '{"jsonrpc":"2.0"}',
          '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
        ),
      ),
    }),
  },
);

export interface McpCase {
  messages: McpMessage[];
  batch: boolean;
  accept: string;
  /** Turn the tool groups beyond the core on (/api/mcp?caps=pdf,evaluate), so their tools are called for real. */
  caps: boolean;
}

export const mcpCaseArb: fc.Arbitrary<McpCase> = fc.record({
  messages: fc.array(messageArb, { minLength: 1, maxLength: 5 }),
  batch: fc.boolean(),
  accept: fc.constantFrom('application/json, text/event-stream', 'application/json', '*/*', ''),
  caps: fc.boolean(),
});

/** One JSON-RPC request as the case says, with the session a session_create made earlier in the case where asked. */
function encode(m: McpMessage, made: string | undefined): Json {
  if (m.k === 'raw') return undefined;
  if (m.k === 'method') return { jsonrpc: '2.0', id: m.id, method: m.method, params: m.params };
  const args =
    m.args && typeof m.args === 'object' && !Array.isArray(m.args) ? { ...(m.args as Record<string, Json>) } : m.args;
  if (args && typeof args === 'object' && !Array.isArray(args) && m.sessionArg !== 'none')
    (args as Record<string, Json>).session_id = m.sessionArg === 'made' && made ? made : randomUUID();
  return { jsonrpc: '2.0', id: m.id, method: 'tools/call', params: { name: m.tool, arguments: args } };
}

export async function runMcpCase(c: McpCase, svc0: Service, apiKey: string): Promise<void> {
  const svc = await svc0.up();
  await healthy(svc);
  const port = Number(new URL(svc.url).port);
  const send = async (body: string, what: string) => {
    const headers = [
      `Authorization: Bearer ${apiKey}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      ...(c.accept ? [`Accept: ${c.accept}`] : []),
    ];
    const { response, timedOut, error } = await rawRequest(
      port,
      { method: 'POST', target: c.caps ? '/api/mcp?caps=pdf,evaluate' : '/api/mcp', headers, body: Buffer.from(body) },
      { timeoutMs: 60_000 },
    );
    check(svc.alive, () => `after ${what}: ${svc.death()}`);
    check(!timedOut, `${what}: no answer within 60 s`);
    check(response, `${what}: no answer (${error ?? 'connection closed'})`);
    if (process.env.FUZZ_DEBUG) console.log(`fuzz mcp: ${what} -> ${response.status}`);
    check(
      response.status < 500,
      `${what}: answered ${response.status}: ${response.body.toString('utf8').slice(0, 500)}`,
    );
    return response.body.toString('utf8');
  };
  // A session of this case's own, for calls that name the one "made".
  const created = await send(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'tools/call',
      params: { name: 'session_create', arguments: { workflow_name: 'fuzz mcp' } },
    }),
    'session_create',
  );
  const made = /"session_id\\?":\s*\\?"([0-9a-f-]{36})/.exec(created)?.[1];
  const bodies = c.messages.map((m) => (m.k === 'raw' ? m.text : JSON.stringify(encode(m, made))));
  if (c.batch && bodies.length > 1) await send(`[${bodies.join(',')}]`, `a batch of ${bodies.length}`);
  else for (const [i, body] of bodies.entries()) await send(body, `message ${i + 1}: ${body.slice(0, 150)}`);
  await afterCase(svc);
}
