import {
  lastToolResult,
  startFakeModel,
  toolNames,
  type FakeBehaviour,
  type FakeModel,
  type FakeRequest,
} from '../../test/helpers/fakeModel.ts';

/** What the e2e writer's model answers, word by word, slowly enough to be seen streaming. */
export const FAKE_TEXT =
  'The harbour woke slowly that morning. Gulls argued over the nets while the first boats slid out past the breakwater, ' +
  'their engines low and patient. By noon the fog had lifted and the whole town smelled of salt and bread.';

const WORDS = FAKE_TEXT.split(' ');

/**
 * The wait after each word: the 40 words take some ten seconds, so a test sees the write under way
 * (and stops it part way) however long a loaded host takes to look.
 */
export const CHUNK_DELAY_MS = 250;

const PROSE: FakeBehaviour = {
  kind: 'reply',
  text: WORDS.map((w, i) => (i ? ` ${w}` : w)),
  chunkDelayMs: CHUNK_DELAY_MS,
  usage: { input_tokens: 12, output_tokens: WORDS.length },
};

/** What the e2e agent says before it looks at the page. */
export const AGENT_LOOK_TEXT = 'Let me look at the page.';
/** The agent's question when the person's message contains the word "ask", and its options. */
export const AGENT_QUESTION = 'Which one?';
export const AGENT_OPTIONS = ['First', 'Second'];

interface ToolCallOut {
  id?: string;
  type?: string;
  function?: { name?: string };
}
interface Msg {
  role?: string;
  content?: unknown;
  tool_calls?: ToolCallOut[];
  tool_call_id?: string;
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('')
      : '';

/** The name of the tool call a tool message answers (OpenAI: the assistant's tool_calls, matched by id). */
function calledName(messages: Msg[], toolMessage: Msg): string | undefined {
  for (const m of messages) {
    for (const c of m.tool_calls ?? []) if (c.id === toolMessage.tool_call_id) return c.function?.name;
  }
  return undefined;
}

/** The first link of a snapshot (`link "…" [ref=XXXX-eN]`), as a model would pick it. */
function firstLink(snapshot: string): { element: string; ref: string } | undefined {
  for (const line of snapshot.split('\n')) {
    const name = /\blink "([^"]*)"/.exec(line)?.[1];
    const ref = /\[ref=([a-z0-9]+-[a-z0-9]+)\]/.exec(line)?.[1];
    if (name !== undefined && ref) return { element: name, ref };
  }
  return undefined;
}

const done = (summary: string): FakeBehaviour => ({ kind: 'tools', calls: [{ name: 'done', args: { summary } }] });

/**
 * The e2e agent: a small deterministic script over what the request holds (OpenAI-compatible, as the
 * e2e server is set up). A person's message → look (browser_snapshot), or ask_user when it contains
 * the word "ask"; a snapshot with a link and no click yet in the conversation → click the first link;
 * after a click → done; after an answer → done with the answer.
 */
export function agentScript(req: FakeRequest): FakeBehaviour {
  const messages: Msg[] = Array.isArray(req.body?.messages) ? req.body.messages : [];
  const last = messages.at(-1);
  if (last?.role === 'user') {
    if (/\bask\b/i.test(textOf(last.content))) {
      return {
        kind: 'tools',
        calls: [{ name: 'ask_user', args: { question: AGENT_QUESTION, options: AGENT_OPTIONS } }],
      };
    }
    return { kind: 'tools', text: AGENT_LOOK_TEXT, calls: [{ name: 'browser_snapshot', args: {} }] };
  }
  const answered = last?.role === 'tool' ? calledName(messages, last) : undefined;
  const result = lastToolResult(req) ?? '';
  if (answered === 'ask_user') return done(`You chose ${result}.`);
  if (answered === 'browser_click') return done('Clicked the link.');
  const clicked = messages.some((m) => m.tool_calls?.some((c) => c.function?.name === 'browser_click'));
  const link = answered === 'browser_snapshot' && !clicked ? firstLink(result) : undefined;
  if (link) return { kind: 'tools', calls: [{ name: 'browser_click', args: link }] };
  return done('Looked at the page.');
}

/** Agent requests offer these tools; the writer's offer none. */
const isAgent = (req: FakeRequest) => {
  const names = toolNames(req);
  return names.includes('done') && names.includes('browser_snapshot');
};

/**
 * The suite's one fake model (test/helpers/fakeModel.ts) on `port`: the writer's requests get FAKE_TEXT,
 * streamed; the agent's (they offer tools) get `agentScript`'s tool calls.
 */
export function startWriterModel(port: number): Promise<FakeModel> {
  return startFakeModel({
    port,
    fallback: { kind: 'respond', with: (req) => (isAgent(req) ? agentScript(req) : PROSE) },
  });
}
