import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { AgentState, StartEditorSessionResponse } from '../../contract/agent.ts';
import type { FakeBehaviour, FakeModel, FakeRequest } from '../helpers/fakeModel.ts';
import { lastToolResult } from '../helpers/fakeModel.ts';
import { afterCase, check, FUZZ_API_KEY, healthy, type Service } from './harness.ts';
import { AGENT_BROWSER_TOOLS } from '../../server/agent/boundBrowserTools.ts';
import { ASK_USER, DONE } from '../../server/agent/turn.ts';

/**
 * Property 5: the browser agent (editor sessions). The agent's server has a model configured (the
 * fake of test/helpers/fakeModel.ts, a real HTTP server); each case starts an editor session on a
 * page of the hostile site, makes the model answer each request with the next of a sequence of
 * random behaviours drawn for the case (tool calls with valid, mutated or broken arguments,
 * unknown tools, several at once, ask_user, done, text, 5xx, cut connections, slow answers, a
 * hang up to the model timeout) and then `done`, and sends a random sequence of messages on
 * message_url (messages, cancels, answers with any id, garbage bodies and content types, bad
 * tokens), interrupts and agent-state reads, with small delays. Per request: an answer, never a
 * 5xx, the server alive, and a 200 agent state is AgentState. After the case the session closes,
 * its agent reads as ended (or gone) within 15 s, and the harness's checks run.
 */

type Json = unknown;

/** The browser tools the agent is offered and the two that end a turn. */
const TOOLS = [...AGENT_BROWSER_TOOLS, ASK_USER, DONE] as const;

/** In arguments, `$REF` becomes a ref of the latest snapshot the model was sent (or a made-up one), `$SITE` the hostile site. */
const REF = '$REF';
const SITE = '$SITE';

export interface AgentCall {
  name: string;
  /** JSON arguments, or a raw string sent as is (broken JSON). */
  args: Json;
  raw: boolean;
}

export type ModelMove =
  | { k: 'tools'; calls: AgentCall[]; text?: string }
  | { k: 'reply'; text: string }
  | { k: 'status'; status: number }
  | { k: 'cut'; after: number }
  /** Answer after a while (the turn may be interrupted or the session closed meanwhile). */
  | { k: 'slow'; ms: number; then: ModelMove }
  /** Never answer: the server gives up after MODEL_TIMEOUT_MS. */
  | { k: 'hang' };

export type AgentMessage =
  | { k: 'message'; text: string }
  | { k: 'cancel'; text: string }
  | { k: 'answer'; id: 'pending' | 'random'; randomId: string; answers: Json }
  | { k: 'raw'; body: string; contentType: string; auth: 'token' | 'key' | 'bad-token' | 'none' }
  | { k: 'interrupt'; body: 'this' | 'random' | 'garbage'; garbage: Json }
  | { k: 'state'; id: 'this' | 'random' }
  | { k: 'wait'; ms: number };

export interface AgentCase {
  path: string;
  testData: Record<string, string> | undefined;
  moves: ModelMove[];
  messages: AgentMessage[];
  /** Delay after each message, ms (cycled). */
  delays: number[];
  /** How long to let the agent work after the last message before closing the session. */
  settleMs: number;
}

const shortText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('Click go', 'Type {{user}} in the field', '{{missing}}', 'go', '\u0000', '   ', '<b>hi</b>'),
);

const refArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant(REF) },
  { weight: 1, arbitrary: fc.constantFrom('e1', 'e999', 'k3f9ab-e5', '', '../e1', 'aria-ref=e1') },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const target = { element: shortText, ref: refArb };

/** Arguments the tool's schema accepts (the refs may be stale or made up). */
const validArgs: Record<(typeof TOOLS)[number], fc.Arbitrary<Json>> = {
  browser_navigate: fc.record({
    url: fc.oneof(
      fc
        .constantFrom('/', '/alert', '/confirm', '/popups', '/closes', '/navigates', '/download', '/missing', '/timed')
        .map((p) => `${SITE}${p}`),
      fc.constantFrom('/slow', '/redirect', '/loop-on-load', '/beforeunload').map((p) => `${SITE}${p}`),
      fc.constantFrom('http://127.0.0.1:1/', 'file:///etc/passwd', 'javascript:alert(1)', 'about:blank', 'not a url'),
    ),
  }),
  browser_back: fc.constant({}),
  browser_snapshot: fc.oneof(fc.constant({}), fc.record({ interactive_only: fc.boolean() })),
  browser_click: fc.record(target),
  browser_hover: fc.record(target),
  browser_type: fc.record(
    { ...target, text: shortText, submit: fc.boolean() },
    { requiredKeys: ['element', 'ref', 'text'] },
  ),
  browser_select_option: fc.record({ ...target, values: fc.array(shortText, { minLength: 1, maxLength: 3 }) }),
  browser_fill_form: fc.record({
    fields: fc.array(fc.record({ ...target, value: fc.oneof(shortText, fc.constantFrom('true', 'false')) }), {
      minLength: 1,
      maxLength: 3,
    }),
  }),
  browser_press_key: fc.record({
    key: fc.constantFrom('Enter', 'Tab', 'Escape', 'a', 'ArrowDown', 'Control+a', 'F5', 'Alt+F4'),
  }),
  browser_wait_for: fc.oneof(
    fc.record({ time: fc.double({ min: 0, max: 1, noNaN: true }) }),
    fc.record({ text: fc.constantFrom('ready', 'go', 'after alert'), time: fc.constantFrom(0.2, 0.5) }),
  ),
  downloads_list: fc.constant({}),
  ask_user: fc.record(
    { question: shortText, options: fc.array(shortText, { maxLength: 4 }) },
    { requiredKeys: ['question'] },
  ),
  done: fc.record({ summary: shortText }),
  browser_find: fc.oneof(
    fc.record({ text: shortText }),
    fc.record({ regex: fc.constantFrom('go', '(a+)+$', '[', 'button "\\w+"', '.*') }),
  ),
  browser_console_messages: fc.record(
    { level: fc.constantFrom('error', 'warning', 'info', 'debug'), all: fc.boolean() },
    { requiredKeys: [] },
  ),
  browser_network_requests: fc.constant({}),
  browser_network_request: fc.record(
    {
      index: fc.integer({ min: 1, max: 50 }),
      part: fc.constantFrom('request-headers', 'request-body', 'response-headers', 'response-body'),
    },
    { requiredKeys: ['index'] },
  ),
  browser_tabs: fc.oneof(
    fc.record({ action: fc.constantFrom('list', 'new') }),
    fc.record({ action: fc.constantFrom('select', 'close'), index: fc.integer({ min: 0, max: 60 }) }),
    fc.record({ action: fc.constant('close') }),
  ),
  browser_close: fc.constant({}),
  browser_handle_dialog: fc.record({ accept: fc.boolean(), promptText: shortText }, { requiredKeys: ['accept'] }),
};

/** Keys a model might send, right or wrong; never `time` (browser_wait_for would wait up to a minute). */
const mutatedArgs: fc.Arbitrary<Json> = fc.oneof(
  fc.dictionary(
    fc.constantFrom(
      'element',
      'ref',
      'text',
      'text_gone',
      'url',
      'key',
      'values',
      'fields',
      'submit',
      'question',
      'options',
      'summary',
      'session_id',
      '__proto__',
      'constructor',
      'action',
      'index',
      'accept',
      'promptText',
    ),
    fc.oneof(fc.jsonValue({ maxDepth: 2 }), refArb),
    { maxKeys: 5 },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

const brokenJson = fc.oneof(
  fc.constantFrom('{', '{"ref":', '{"element": "go", "ref": "$REF"', 'null', '[]', '"str"', '{}}', ''),
  fc.string({ maxLength: 30 }),
);

const callArb: fc.Arbitrary<AgentCall> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .constantFrom(...TOOLS)
      .chain((name) => validArgs[name].map((args) => ({ name: name as string, args, raw: false }))),
  },
  {
    weight: 3,
    arbitrary: fc.record({ name: fc.constantFrom(...TOOLS), args: mutatedArgs, raw: fc.constant(false) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ name: fc.constantFrom<string>(...TOOLS), args: brokenJson, raw: fc.constant(true) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      name: fc.oneof(
        fc.constantFrom('session_create', 'browser_screenshot', 'run_workflow', 'Done', 'browser-click', ''),
        fc.string({ maxLength: 15 }),
      ),
      args: mutatedArgs,
      raw: fc.constant(false),
    }),
  },
);

const directMove: fc.Arbitrary<ModelMove> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      { k: fc.constant('tools' as const), calls: fc.array(callArb, { minLength: 1, maxLength: 3 }), text: shortText },
      { requiredKeys: ['k', 'calls'] },
    ),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('reply' as const), text: shortText }) },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('status' as const), status: fc.constantFrom(400, 401, 404, 429, 500, 503) }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cut' as const), after: fc.integer({ min: 0, max: 2 }) }) },
);

export const modelMoveArb: fc.Arbitrary<ModelMove> = fc.oneof(
  { weight: 12, arbitrary: directMove },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('slow' as const),
      ms: fc.integer({ min: 100, max: 1500 }),
      then: directMove,
    }),
  },
  { weight: 1, arbitrary: fc.constant({ k: 'hang' as const }) },
);

const messageArb: fc.Arbitrary<AgentMessage> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ k: fc.constant('message' as const), text: shortText }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancel' as const), text: shortText }) },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('answer' as const),
      id: fc.constantFrom('pending' as const, 'random' as const),
      randomId: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('call_1', 'toolu_1', 'x'.repeat(201))),
      answers: fc.oneof(
        shortText,
        fc.dictionary(fc.string({ maxLength: 3 }), shortText, { maxKeys: 3 }),
        fc.jsonValue({ maxDepth: 2 }),
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('raw' as const),
      body: fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null'),
        fc.constantFrom(
          '{"message":""}',
          '{"message":"SIMPLEX_CANCEL "}',
          '{"message":"{\\"type\\":\\"ask_user_answer\\",\\"tool_use_id\\":\\"call_1\\",\\"answers\\":\\"yes\\"}"}',
          '{"message":"hi","extra":1}',
          '{"type":"ask_user_answer"}',
          'message=hi',
          '{',
        ),
      ),
      contentType: fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        '',
        'application/json; charset=latin1',
      ),
      auth: fc.constantFrom('token' as const, 'key' as const, 'bad-token' as const, 'none' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('interrupt' as const),
      body: fc.constantFrom('this' as const, 'this' as const, 'random' as const, 'garbage' as const),
      garbage: fc.jsonValue({ maxDepth: 2 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ k: fc.constant('state' as const), id: fc.constantFrom('this' as const, 'random' as const) }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('wait' as const), ms: fc.integer({ min: 100, max: 1500 }) }) },
);

export const agentCaseArb: fc.Arbitrary<AgentCase> = fc.record({
  path: fc.constantFrom(
    '/',
    '/',
    '/alert',
    '/confirm',
    '/prompt',
    '/popups',
    '/navigates',
    '/timed',
    '/detach',
    '/download',
  ),
  testData: fc.option(fc.constantFrom<Record<string, string>>({ user: 'ada' }, { user: 'ada', pin: '1234' }), {
    nil: undefined,
  }),
  moves: fc.array(modelMoveArb, { minLength: 1, maxLength: 8 }),
  messages: fc.array(messageArb, { minLength: 1, maxLength: 6 }),
  delays: fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 4 }),
  settleMs: fc.integer({ min: 0, max: 3000 }),
});

export interface AgentWorld {
  /** The agent's server (started with the fake as its model). */
  svc: () => Promise<Service>;
  fake: FakeModel;
  site: string;
}

/** When the model's moves are used up, every request gets this: the turn ends. */
export const DONE_MOVE: FakeBehaviour = {
  kind: 'tools',
  calls: [{ name: 'done', args: { summary: 'fuzz: out of moves' } }],
};

const REF_IN_SNAPSHOT = /\[ref=([a-z0-9-]+)\]/gi;

/** `$REF` and `$SITE` in the arguments, made concrete from what the model was sent. */
function concrete(args: Json, refs: string[], site: string, pick: number): Json {
  const ref = refs.length ? refs[pick % refs.length]! : 'e1';
  if (typeof args === 'string') return args.replaceAll(REF, ref).replaceAll(SITE, site);
  if (Array.isArray(args)) return args.map((a) => concrete(a, refs, site, pick));
  if (args && typeof args === 'object') {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(args)) out[k] = concrete(v, refs, site, pick);
    return out;
  }
  return args;
}

/** The fake's behaviour for one move. */
export function behaviourOf(move: ModelMove, req: FakeRequest, site: string, n: number): FakeBehaviour {
  switch (move.k) {
    case 'tools': {
      const refs = [...(lastToolResult(req) ?? '').matchAll(REF_IN_SNAPSHOT)].map((m) => m[1]!);
      return {
        kind: 'tools',
        ...(move.text ? { text: move.text } : {}),
        calls: move.calls.map((c, i) => ({
          name: c.name,
          args: c.raw ? concrete(String(c.args), refs, site, n + i) : concrete(c.args, refs, site, n + i),
        })),
      };
    }
    case 'reply':
      return { kind: 'reply', text: move.text || '…' };
    case 'status':
      return { kind: 'status', status: move.status };
    case 'cut':
      return { kind: 'cut', text: ['partial ', 'answer ', 'cut'], after: move.after };
    case 'hang':
      return { kind: 'hang' };
    case 'slow':
      return {
        kind: 'respond',
        with: async (r) => {
          await new Promise((resolve) => setTimeout(resolve, move.ms));
          return behaviourOf(move.then, r, site, n);
        },
      };
  }
}

/** A request of the case answered: within the time, not a 5xx, the server still there. */
async function answered(svc: Service, what: string, res: Promise<Response>): Promise<{ status: number; text: string }> {
  const r = await res.catch((err: Error) => err);
  check(svc.alive, () => `after ${what}: ${svc.death()}`);
  check(!(r instanceof Error), () => `${what}: no answer (${(r as Error).message})`);
  const text = await r.text();
  if (process.env.FUZZ_DEBUG) console.log(`fuzz agent: ${what} -> ${r.status} ${text.slice(0, 120)}`);
  checkAgentAnswer(r.status, text, what);
  return { status: r.status, text };
}

/** Never a 5xx; the 503 that says no model is configured cannot happen (one is). Exported for test/fuzzChecks.test.ts. */
export function checkAgentAnswer(status: number, text: string, what: string): void {
  check(status < 500, () => `${what}: answered ${status}: ${text.slice(0, 500)}`);
}

/**
 * A case's bound, from the start of the session to its agent reading as ended: a hang guard only
 * (the case starts a browser, and a loaded host may take most of a minute over that alone).
 */
const CASE_MAX_MS = 180_000;

export async function runAgentCase(c: AgentCase, world: AgentWorld): Promise<void> {
  const svc = await world.svc();
  await healthy(svc);
  const { fake } = world;
  let next = 0;
  fake.reset();
  fake.fallback = {
    kind: 'respond',
    with: (req) => {
      const i = next++;
      const move = c.moves[i];
      return move ? behaviourOf(move, req, world.site, i) : DONE_MOVE;
    },
  };
  const t0 = Date.now();
  try {
    const start = await answered(
      svc,
      'start_editor_session',
      svc.api('/api/start_editor_session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `fuzz agent ${randomUUID().slice(0, 8)}`,
          url: `${world.site}${c.path}`,
          ...(c.testData ? { test_data: c.testData } : {}),
        }),
        timeoutMs: 60_000,
      }),
    );
    check(start.status === 200, () => `start_editor_session answered ${start.status}: ${start.text.slice(0, 500)}`);
    const editor = StartEditorSessionResponse.parse(JSON.parse(start.text));
    const sid = editor.session_id;
    const messageUrl = new URL(editor.message_url);
    const messagePath = messageUrl.pathname;
    const token = messageUrl.searchParams.get('token') ?? '';

    const state = async (id: string, what: string) => {
      const r = await answered(svc, what, svc.api(`/api/session/${id}/agent`));
      if (r.status !== 200) return undefined;
      const parsed = AgentState.safeParse(JSON.parse(r.text));
      check(parsed.success, () => `${what}: a 200 that is not AgentState: ${r.text.slice(0, 500)}`);
      return parsed.data;
    };
    const post = (body: string, contentType: string, auth: 'token' | 'key' | 'bad-token' | 'none') =>
      fetch(
        `${svc.url}${messagePath}${auth === 'token' ? `?token=${encodeURIComponent(token)}` : auth === 'bad-token' ? `?token=${encodeURIComponent(token.slice(0, -2) + 'xx')}` : ''}`,
        {
          method: 'POST',
          headers: {
            ...(contentType ? { 'content-type': contentType } : {}),
            ...(auth === 'key' ? { 'x-api-key': FUZZ_API_KEY } : {}),
          },
          body,
          signal: AbortSignal.timeout(30_000),
        },
      );
    const json = (v: Json) => JSON.stringify(v) ?? 'null';

    for (const [i, m] of c.messages.entries()) {
      const what = `message ${i + 1} (${m.k})`;
      switch (m.k) {
        case 'message':
          await answered(svc, what, post(json({ message: m.text }), 'application/json', 'token'));
          break;
        case 'cancel':
          await answered(svc, what, post(json({ message: `SIMPLEX_CANCEL ${m.text}` }), 'application/json', 'token'));
          break;
        case 'answer': {
          const pending = m.id === 'pending' ? (await state(sid, `${what}: state`))?.question?.tool_use_id : undefined;
          const body = { type: 'ask_user_answer', tool_use_id: pending ?? m.randomId, answers: m.answers };
          await answered(svc, what, post(json(body), 'application/json', 'token'));
          break;
        }
        case 'raw':
          await answered(svc, what, post(m.body, m.contentType, m.auth));
          break;
        case 'interrupt':
          await answered(
            svc,
            what,
            svc.postJson(
              '/api/interrupt',
              m.body === 'this' ? { session_id: sid } : m.body === 'random' ? { session_id: randomUUID() } : m.garbage,
            ),
          );
          break;
        case 'state':
          await state(m.id === 'this' ? sid : randomUUID(), what);
          break;
        case 'wait':
          await new Promise((r) => setTimeout(r, m.ms));
          break;
      }
      await new Promise((r) => setTimeout(r, c.delays[i % c.delays.length]!));
    }

    // Let the agent work a while (not a check: it may still be working when the session closes).
    const settleUntil = Date.now() + c.settleMs;
    while (Date.now() < settleUntil) {
      const s = await state(sid, 'a state read while settling');
      if (!s || s.status !== 'working') break;
      await new Promise((r) => setTimeout(r, 200));
    }

    const close = await answered(
      svc,
      'close_workflow_session',
      svc.postJson('/api/close_workflow_session', { session_id: sid }),
    );
    check(close.status === 200, () => `close_workflow_session answered ${close.status}: ${close.text.slice(0, 300)}`);
    const deadline = Date.now() + 15_000;
    for (;;) {
      const s = await state(sid, 'the state after closing');
      if (!s || s.status === 'ended') break;
      check(
        Date.now() < deadline,
        () => `the agent of the closed session ${sid} still reads as ${s.status} after 15 s`,
      );
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    // Whatever the model is asked after the case ends the turn at once.
    fake.fallback = DONE_MOVE;
  }
  if (process.env.FUZZ_DEBUG)
    console.log(`fuzz agent: case in ${Date.now() - t0} ms, ${next} model requests of ${c.moves.length} moves`);
  // A case is a few seconds on an idle host: its messages, at most 3 s of settling, a model timeout of 3 s, the close.
  check(Date.now() - t0 < CASE_MAX_MS, () => `the case took ${Date.now() - t0} ms (at most ${CASE_MAX_MS} ms)`);
  await afterCase(svc);
}
