import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBody, WriteStreamEvent, WritesPage } from '../contract/index.ts';
import { startFakeModel, type FakeModel } from './helpers/fakeModel.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { sseBlocks } from './helpers/sse.ts';

let fake: FakeModel;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeModel();
  server = await startServer(fake.env('openai-compatible', { MODEL_MAX_RETRIES: '1' }));
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

interface SseEvent {
  event: string;
  data: WriteStreamEvent;
}

/** Read server-sent events one at a time as they arrive; each data line must be a WriteStreamEvent. */
async function* events(res: Response): AsyncGenerator<SseEvent> {
  for await (const e of sseBlocks(res))
    if (e.data !== undefined) yield { event: e.event, data: WriteStreamEvent.parse(JSON.parse(e.data)) };
}

async function collect(res: Response): Promise<SseEvent[]> {
  const all: SseEvent[] = [];
  for await (const e of events(res)) all.push(e);
  return all;
}

const stream = (s: TestServer, prompt: unknown) => postJson(s, '/api/write/stream', { prompt });

async function listAll(s: TestServer) {
  return WritesPage.parse(await (await s.api('/api/writes?limit=100')).json()).items;
}

describe('POST /api/write/stream', () => {
  it('sends delta events as the model produces text, then one done event', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fake.enqueue({
      kind: 'reply',
      text: ['Morning ', 'light on ', 'the hills.'],
      gate,
      usage: { input_tokens: 11, output_tokens: 6 },
    });
    const res = await stream(server, 'A line about morning.');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);

    const it = events(res);
    // The model is still held at its first chunk, so this delta can only have been relayed live.
    const first = await it.next();
    expect(first.value).toEqual({ event: 'delta', data: { type: 'delta', text: 'Morning ' } });
    release();
    const rest: SseEvent[] = [];
    for await (const e of it) rest.push(e);

    expect(rest.map((e) => e.event)).toEqual(['delta', 'delta', 'done']);
    expect(rest.slice(0, 2).map((e) => e.data)).toEqual([
      { type: 'delta', text: 'light on ' },
      { type: 'delta', text: 'the hills.' },
    ]);
    expect(rest[2]!.data).toEqual({
      type: 'done',
      response: {
        succeeded: true,
        text: 'Morning light on the hills.',
        word_count: 5,
        error: null,
        usage: { input_tokens: 11, output_tokens: 6 },
      },
    });
    expect(fake.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('ends with a done event carrying exactly the body POST /write answers for the same reply', async () => {
    const reply = {
      kind: 'reply' as const,
      text: ['Two ', 'roads ', 'diverged.'],
      usage: { input_tokens: 9, output_tokens: 3 },
    };
    fake.enqueue(reply, reply);
    const whole = await (await postJson(server, '/api/write', { prompt: 'roads' })).json();
    const all = await collect(await stream(server, 'roads'));
    const done = all.at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data).toEqual({ type: 'done', response: whole });
    expect(
      all
        .filter((e) => e.data.type === 'delta')
        .map((e) => (e.data as { text: string }).text)
        .join(''),
    ).toBe(whole.text);
  });

  it('marks a stream cut at the output limit as generation limit reached, and keeps it', async () => {
    fake.enqueue({
      kind: 'reply',
      text: ['Once upon ', 'a time'],
      finish: 'length',
      usage: { input_tokens: 4, output_tokens: 2 },
    });
    const done = (await collect(await stream(server, 'a tale'))).at(-1)!;
    expect(done.data).toEqual({
      type: 'done',
      response: {
        succeeded: true,
        text: 'Once upon a time',
        word_count: 4,
        error: 'generation limit reached',
        usage: { input_tokens: 4, output_tokens: 2 },
      },
    });
    expect((await listAll(server))[0]).toMatchObject({
      prompt: 'a tale',
      text: 'Once upon a time',
      finish_reason: 'length',
    });
  });

  it('streams from Anthropic messages too (text_delta events, max_tokens)', async () => {
    const s = await startServer(fake.env('anthropic'));
    try {
      fake.enqueue({
        kind: 'reply',
        text: ['Salt ', 'and ', 'wind'],
        finish: 'length',
        usage: { input_tokens: 7, output_tokens: 3 },
      });
      const all = await collect(await stream(s, 'sea'));
      expect(all.map((e) => e.event)).toEqual(['delta', 'delta', 'delta', 'done']);
      expect(all.at(-1)!.data).toEqual({
        type: 'done',
        response: {
          succeeded: true,
          text: 'Salt and wind',
          word_count: 3,
          error: 'generation limit reached',
          usage: { input_tokens: 7, output_tokens: 3 },
        },
      });
      expect(fake.requests[0]).toMatchObject({ protocol: 'anthropic', stream: true });
    } finally {
      await s.close();
    }
  });

  it('turns a model failure mid-stream into an error event and keeps nothing', async () => {
    const before = await listAll(server);
    fake.enqueue({ kind: 'cut', text: ['The first ', 'words ', 'and then'], after: 2 });
    const all = await collect(await stream(server, 'doomed'));
    expect(all.slice(0, 2).map((e) => e.data)).toEqual([
      { type: 'delta', text: 'The first ' },
      { type: 'delta', text: 'words ' },
    ]);
    const last = all.at(-1)!;
    expect(last.event).toBe('error');
    expect(last.data).toMatchObject({ type: 'error', status: 502, error: 'model_failed' });
    // Said in words, not as the HTTP status of an answer that had started fine.
    const message = (last.data as { message: string }).message;
    expect(message).toMatch(/stopped answering partway through/);
    expect(message).not.toMatch(/HTTP 200/);
    expect(all.some((e) => e.event === 'done')).toBe(false);
    expect(await listAll(server)).toEqual(before);
  });

  it('reports a model that fails after retries before any text as an error event', async () => {
    fake.enqueue({ kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    const all = await collect(await stream(server, 'nothing comes'));
    expect(all).toHaveLength(1);
    expect(all[0]!.data).toEqual({
      type: 'error',
      status: 502,
      error: 'model_failed',
      message: expect.stringMatching(/HTTP 500.*2 attempts/),
    });
    expect(fake.requests).toHaveLength(2);
  });

  it('cancels the model call when the reader goes away, and keeps nothing', async () => {
    const before = await listAll(server);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fake.enqueue({ kind: 'reply', text: ['Never ', 'finished'], gate });
    const reader = new AbortController();
    const res = await server.api('/api/write/stream', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'walk away' }),
      signal: reader.signal,
    });
    const it = events(res);
    expect((await it.next()).value?.data).toEqual({ type: 'delta', text: 'Never ' });
    reader.abort();
    await expect(it.next()).rejects.toThrow();
    await fake.requests[0]!.closed; // the server hung up on the model
    release();
    expect(await listAll(server)).toEqual(before);
  });

  it('answers errors found before streaming as plain JSON: 401, 422, 503', async () => {
    const noKey = await fetch(`${server.url}/api/write/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"prompt":"x"}',
    });
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('content-type')).toMatch(/^application\/json/);

    const blank = await stream(server, '   ');
    expect(blank.status).toBe(422);
    expect(ErrorBody.parse(await blank.json()).issues?.[0]?.path).toBe('prompt');

    const s = await startServer();
    try {
      const res = await stream(s, 'hello');
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(ErrorBody.parse(await res.json())).toMatchObject({
        error: 'not_configured',
        message: expect.stringContaining('MODEL_NAME'),
      });
    } finally {
      await s.close();
    }
    expect(fake.requests).toHaveLength(0);
  });
});
