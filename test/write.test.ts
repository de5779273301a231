import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBody, WriteResponse, WritesPage } from '../contract/index.ts';
import { startFakeModel, type FakeModel } from './helpers/fakeModel.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';

let fake: FakeModel;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeModel();
  server = await startServer(fake.env('openai-compatible', { MODEL_MAX_RETRIES: '1', MODEL_MAX_OUTPUT_TOKENS: '321' }));
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

async function write(s: TestServer, prompt: unknown) {
  const res = await postJson(s, '/api/write', { prompt });
  return { status: res.status, body: (await res.json()) as unknown };
}

async function listAll(s: TestServer) {
  const res = await s.api('/api/writes?limit=100');
  expect(res.status).toBe(200);
  return WritesPage.parse(await res.json()).items;
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

describe('POST /api/write on an OpenAI-compatible model', () => {
  it('answers 200 with the text, its word count, error null and the model’s own usage', async () => {
    fake.enqueue({
      kind: 'reply',
      text: 'Rain fell on the quiet town.',
      usage: { input_tokens: 57, output_tokens: 8 },
    });
    const { status, body } = await write(server, 'Write one sentence about rain.');
    expect(status).toBe(200);
    expect(WriteResponse.parse(body)).toEqual({
      succeeded: true,
      text: 'Rain fell on the quiet town.',
      word_count: 6,
      error: null,
      usage: { input_tokens: 57, output_tokens: 8 },
    });
  });

  it('sends the prompt as the user message, with the model, output limit and key from MODEL_*', async () => {
    await write(server, 'Notes: sea, salt, wind. 50 words.');
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-fake-writer-key');
    expect(req.body.model).toBe('fake-model');
    expect(req.body.max_tokens).toBe(321);
    expect(req.body.messages.at(-1)).toEqual({ role: 'user', content: 'Notes: sea, salt, wind. 50 words.' });
  });

  it('counts words of scripts without spaces (Chinese, Japanese, Thai) with Intl.Segmenter', async () => {
    const cases: [string, number][] = [
      ['我喜欢学习中文', 4],
      ['สวัสดีครับ ผมชื่อสมชาย', 5],
      ['Hello, world! It’s 2024.', 4],
    ];
    for (const [text, words] of cases) {
      fake.enqueue({ kind: 'reply', text });
      const { body } = await write(server, 'count me');
      expect(body).toMatchObject({ text, word_count: words });
    }
  });

  it('turns finish_reason length into a 200 with the text so far and "generation limit reached"', async () => {
    fake.enqueue({
      kind: 'reply',
      text: 'It was the best of times, it was the',
      finish: 'length',
      usage: { input_tokens: 5, output_tokens: 10 },
    });
    const { status, body } = await write(server, 'Write a long novel.');
    expect(status).toBe(200);
    expect(body).toEqual({
      succeeded: true,
      text: 'It was the best of times, it was the',
      word_count: 9,
      error: 'generation limit reached',
      usage: { input_tokens: 5, output_tokens: 10 },
    });
    expect((await listAll(server))[0]).toMatchObject({
      text: 'It was the best of times, it was the',
      error: 'generation limit reached',
      finish_reason: 'length',
    });
  });

  it('retries a 5xx and answers 200 when the retry succeeds', async () => {
    fake.enqueue({ kind: 'status', status: 503 }, { kind: 'reply', text: 'Second time lucky.' });
    const { status, body } = await write(server, 'try again');
    expect(status).toBe(200);
    expect(body).toMatchObject({ text: 'Second time lucky.' });
    expect(fake.requests).toHaveLength(2);
  });
});

describe('POST /api/write statuses', () => {
  it('401 without a key or with a wrong one, and the model is never called', async () => {
    const missing = await fetch(`${server.url}/api/write`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"prompt":"hi"}',
    });
    expect(missing.status).toBe(401);
    expect(ErrorBody.parse(await missing.json()).error).toBe('unauthorized');
    const wrong = await postJson(
      server,
      '/api/write',
      { prompt: 'hi' },
      { 'x-api-key': 'bd_wrong_key_wrong_key_wrong_key' },
    );
    expect(wrong.status).toBe(401);
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    ['empty', ''],
    ['blank', ' \n\t\u3000 '],
    ['8001 code points', 'a'.repeat(8001)],
    ['8001 emoji', '😀'.repeat(8001)],
  ])('422 for a %s prompt, with an issue on prompt', async (_name, prompt) => {
    const { status, body } = await write(server, prompt);
    expect(status).toBe(422);
    const err = ErrorBody.parse(body);
    expect(err.error).toBe('invalid_request');
    expect(err.issues?.map((i) => i.path)).toEqual(['prompt']);
    expect(fake.requests).toHaveLength(0);
  });

  it('422 when prompt is missing or not a string', async () => {
    for (const body of [{}, { prompt: 42 }]) {
      const res = await postJson(server, '/api/write', body);
      expect(res.status).toBe(422);
      expect(ErrorBody.parse(await res.json()).issues?.[0]?.path).toBe('prompt');
    }
  });

  it('accepts exactly 8000 characters even as 16000 UTF-16 units (8000 emoji)', async () => {
    const prompt = '😀'.repeat(8000);
    expect(prompt.length).toBe(16000);
    const { status } = await write(server, prompt);
    expect(status).toBe(200);
    expect(fake.requests[0]!.body.messages.at(-1).content).toBe(prompt);
  });

  it('502 when the model keeps answering 5xx, after the configured retries, and keeps nothing', async () => {
    const before = await listAll(server);
    fake.enqueue({ kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    const { status, body } = await write(server, 'fail please');
    expect(status).toBe(502);
    const err = ErrorBody.parse(body);
    expect(err.error).toBe('model_failed');
    expect(err.message).toMatch(/HTTP 500.*2 attempts/);
    expect(fake.requests).toHaveLength(2); // one call and MODEL_MAX_RETRIES=1 retry
    expect(await listAll(server)).toEqual(before);
  });

  it('502 when the model cannot be reached (connection refused)', async () => {
    const port = await closedPort();
    const s = await startServer({
      MODEL_BASE_URL: `http://127.0.0.1:${port}/v1`,
      MODEL_NAME: 'm',
      MODEL_MAX_RETRIES: '1',
    });
    try {
      const { status, body } = await write(s, 'anyone there?');
      expect(status).toBe(502);
      expect(ErrorBody.parse(body)).toEqual({
        error: 'model_failed',
        message: expect.stringMatching(/connection refused.*2 attempts/),
      });
      expect(await listAll(s)).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('502 when the model hangs past MODEL_TIMEOUT_MS on every attempt', async () => {
    const s = await startServer(fake.env('openai-compatible', { MODEL_TIMEOUT_MS: '300', MODEL_MAX_RETRIES: '1' }));
    try {
      fake.enqueue({ kind: 'hang' }, { kind: 'hang' });
      const { status, body } = await write(s, 'hello?');
      expect(status).toBe(502);
      expect(ErrorBody.parse(body).message).toMatch(/no answer within 300 ms.*2 attempts/);
      expect(fake.requests).toHaveLength(2);
      await Promise.all(fake.requests.map((r) => r.closed)); // the server gave up on both calls
      expect(await listAll(s)).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('503 naming the variables to set when no model is configured', async () => {
    const s = await startServer();
    try {
      const { status, body } = await write(s, 'hello');
      expect(status).toBe(503);
      const err = ErrorBody.parse(body);
      expect(err.error).toBe('not_configured');
      for (const name of ['MODEL_PROVIDER', 'MODEL_BASE_URL', 'MODEL_NAME', 'MODEL_API_KEY'])
        expect(err.message).toContain(name);
    } finally {
      await s.close();
    }
  });

  it('503 naming what is missing for a provider that needs a key (set by its older WRITER_* names)', async () => {
    const s = await startServer({ WRITER_PROVIDER: 'anthropic', WRITER_MODEL: 'claude-x' });
    try {
      const { status, body } = await write(s, 'hello');
      expect(status).toBe(503);
      expect(ErrorBody.parse(body).message).toMatch(/MODEL_PROVIDER=anthropic: set MODEL_API_KEY\./);
    } finally {
      await s.close();
    }
  });
});

describe('shutdown', () => {
  it('closing the server cancels model calls under way: /write answers 503, a stream ends with an error event', async () => {
    const s = await startServer(fake.env());
    fake.enqueue({ kind: 'hang' }, { kind: 'hang' });
    const plain = postJson(s, '/api/write', { prompt: 'slow' });
    const streamed = postJson(s, '/api/write/stream', { prompt: 'slow' });
    await fake.received(2);
    await s.close();
    const res = await plain;
    expect(res.status).toBe(503);
    expect(ErrorBody.parse(await res.json()).error).toBe('shutting_down');
    expect(await (await streamed).text()).toContain('"type":"error","status":503,"error":"shutting_down"');
    await Promise.all(fake.requests.map((r) => r.closed));
  });
});

describe('other providers', () => {
  it('speaks Anthropic messages: x-api-key, end_turn, max_tokens as the limit, usage', async () => {
    const s = await startServer(fake.env('anthropic'));
    try {
      fake.enqueue(
        { kind: 'reply', text: 'Waves break.', usage: { input_tokens: 20, output_tokens: 4 } },
        { kind: 'reply', text: 'Waves break and', finish: 'length', usage: { input_tokens: 20, output_tokens: 3 } },
      );
      expect(await write(s, 'sea')).toEqual({
        status: 200,
        body: {
          succeeded: true,
          text: 'Waves break.',
          word_count: 2,
          error: null,
          usage: { input_tokens: 20, output_tokens: 4 },
        },
      });
      expect(await write(s, 'sea')).toEqual({
        status: 200,
        body: {
          succeeded: true,
          text: 'Waves break and',
          word_count: 3,
          error: 'generation limit reached',
          usage: { input_tokens: 20, output_tokens: 3 },
        },
      });
      const req = fake.requests[0]!;
      expect(req.path).toBe('/v1/messages');
      expect(req.headers['x-api-key']).toBe('sk-fake-writer-key');
      expect(req.body).toMatchObject({ model: 'claude-fake', max_tokens: 4096 });
      expect(JSON.stringify(req.body.messages)).toContain('sea');
      expect((await listAll(s)).map((w) => w.model)).toEqual(['anthropic:claude-fake', 'anthropic:claude-fake']);
    } finally {
      await s.close();
    }
  });

  it('uses Chat Completions for MODEL_PROVIDER=openai with a custom base URL', async () => {
    const s = await startServer(fake.env('openai'));
    try {
      fake.enqueue({ kind: 'reply', text: 'Hi there.', usage: { input_tokens: 3, output_tokens: 2 } });
      expect((await write(s, 'greet')).body).toMatchObject({
        text: 'Hi there.',
        usage: { input_tokens: 3, output_tokens: 2 },
      });
      expect(fake.requests[0]).toMatchObject({ protocol: 'openai', path: '/v1/chat/completions' });
      expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-fake-writer-key');
    } finally {
      await s.close();
    }
  });
});

describe('GET /api/writes', () => {
  it('lists writes newest first with the whole record, paginated by an opaque cursor', async () => {
    const s = await startServer(fake.env());
    try {
      for (let i = 1; i <= 5; i++) {
        fake.enqueue({ kind: 'reply', text: `Text number ${i}.`, usage: { input_tokens: i, output_tokens: 3 } });
        expect((await write(s, `prompt ${i}`)).status).toBe(200);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await s.api(`/api/writes?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status).toBe(200);
        const page = WritesPage.parse(await res.json());
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.items.map((w) => w.prompt));
        cursor = page.next_cursor;
        pages++;
      } while (cursor);
      expect(seen).toEqual(['prompt 5', 'prompt 4', 'prompt 3', 'prompt 2', 'prompt 1']);
      expect(pages).toBe(3);

      const [newest] = await listAll(s);
      expect(newest).toMatchObject({
        prompt: 'prompt 5',
        text: 'Text number 5.',
        word_count: 3,
        error: null,
        usage: { input_tokens: 5, output_tokens: 3 },
        finish_reason: 'stop',
        model: 'openai-compatible:fake-model',
      });
      expect(newest!.duration_ms).toBeGreaterThanOrEqual(0);
    } finally {
      await s.close();
    }
  });

  it('422 for a cursor it did not hand out and for a limit out of range', async () => {
    for (const query of ['cursor=bm9wZQ', 'limit=0', 'limit=101', 'limit=two']) {
      const res = await server.api(`/api/writes?${query}`);
      expect(res.status).toBe(422);
      expect(ErrorBody.parse(await res.json()).error).toBe('invalid_request');
    }
  });
});
