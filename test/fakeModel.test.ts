import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  generateText,
  InvalidToolInputError,
  jsonSchema,
  stepCountIs,
  streamText,
  tool,
  type LanguageModel,
  type StepResult,
  type ToolSet,
} from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lastToolResult, startFakeModel, toolNames, type FakeModel } from './helpers/fakeModel.ts';

// The fake model scripting tool calls, proven with the AI SDK itself: the same providers the
// writer (and the browser agent) use, against the fake over real HTTP.

let fake: FakeModel;
beforeAll(async () => {
  fake = await startFakeModel();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

type Mode = 'stream' | 'generate';
const cases: { provider: string; mode: Mode; model: () => LanguageModel }[] = [
  {
    provider: 'openai-compatible',
    mode: 'stream',
    model: () =>
      createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl, apiKey: 'k', includeUsage: true }).chatModel(
        'fake-model',
      ),
  },
  {
    provider: 'openai-compatible',
    mode: 'generate',
    model: () => createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl, apiKey: 'k' }).chatModel('fake-model'),
  },
  {
    provider: 'openai (.chat)',
    mode: 'stream',
    model: () => createOpenAI({ baseURL: fake.baseUrl, apiKey: 'k' }).chat('fake-model'),
  },
  {
    provider: 'anthropic',
    mode: 'stream',
    model: () => createAnthropic({ baseURL: fake.baseUrl, apiKey: 'k' }).messages('claude-fake'),
  },
  {
    provider: 'anthropic',
    mode: 'generate',
    model: () => createAnthropic({ baseURL: fake.baseUrl, apiKey: 'k' }).messages('claude-fake'),
  },
];

/** Run the agent loop either way; the steps and final text are what both give back. */
async function run(mode: Mode, model: LanguageModel, tools: ToolSet) {
  const options = {
    model,
    tools,
    prompt: 'Open the page.',
    stopWhen: stepCountIs(5),
    maxRetries: 0,
    maxOutputTokens: 1000,
  };
  if (mode === 'generate') {
    const r = await generateText(options);
    return { text: r.text, steps: r.steps as StepResult<ToolSet>[], parts: [] as { type: string }[] };
  }
  const r = streamText(options);
  const parts: { type: string }[] = [];
  for await (const part of r.fullStream) parts.push(part);
  return { text: await r.text, steps: (await r.steps) as StepResult<ToolSet>[], parts };
}

describe.each(cases)('fake model tool calls: $provider, $mode', ({ mode, model }) => {
  it('calls tools with parsed args, shows their results to the next request, and ends with text', async () => {
    const clicked: unknown[] = [];
    const tools = {
      click: tool({
        description: 'Click an element',
        inputSchema: z.object({ selector: z.string(), times: z.number().optional() }),
        execute: async (input) => {
          clicked.push(input);
          return `clicked ${input.selector}`;
        },
      }),
      navigate: tool({
        description: 'Open a URL',
        inputSchema: jsonSchema<{ url: string }>({
          type: 'object',
          properties: { url: { type: 'string' } },
          required: ['url'],
        }),
        execute: async ({ url }) => `opened ${url}`,
      }),
    };
    const seen: (string | undefined)[] = [];
    fake.enqueue(
      {
        kind: 'tools',
        text: ['Let me ', 'look.'],
        calls: [
          { name: 'navigate', args: { url: 'https://example.test/' } },
          { name: 'click', args: { selector: '#go', times: 2 } },
        ],
      },
      {
        kind: 'respond',
        with: (req) => {
          seen.push(lastToolResult(req));
          return { kind: 'tools', calls: [{ id: 'mine', name: 'click', args: { selector: '.next' } }] };
        },
      },
      {
        kind: 'respond',
        with: async (req) => ({ kind: 'reply', text: ['Done: ', lastToolResult(req) ?? 'nothing'] }),
      },
    );

    const { text, steps } = await run(mode, model(), tools);

    expect(clicked).toEqual([{ selector: '#go', times: 2 }, { selector: '.next' }]);
    expect(text).toBe('Done: clicked .next');
    expect(steps).toHaveLength(3);
    expect(steps[0]!.text).toBe('Let me look.');
    expect(steps[0]!.finishReason).toBe('tool-calls');
    const ids = steps.flatMap((s) => s.toolCalls.map((c) => c.toolCallId));
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(ids[2]).toBe('mine');
    expect(steps[0]!.toolResults.map((r) => r.output)).toEqual(['opened https://example.test/', 'clicked #go']);

    expect(fake.requests).toHaveLength(3);
    expect(fake.requests.every((r) => r.stream === (mode === 'stream'))).toBe(true);
    expect(toolNames(fake.requests[0]!).sort()).toEqual(['click', 'navigate']);
    expect(lastToolResult(fake.requests[0]!)).toBeUndefined();
    // Both results went back; the last one is the click.
    expect(seen).toEqual(['clicked #go']);
  });

  it('turns broken JSON arguments into a tool-call error, not a crash', async () => {
    let executed = false;
    const tools = {
      click: tool({
        description: 'Click an element',
        inputSchema: z.object({ selector: z.string() }),
        execute: async () => {
          executed = true;
          return 'clicked';
        },
      }),
    };
    let errorSeen: string | undefined;
    fake.enqueue(
      { kind: 'tools', calls: [{ name: 'click', args: '{"selector": "#go"' }] },
      {
        kind: 'respond',
        with: (req) => {
          errorSeen = lastToolResult(req);
          return { kind: 'reply', text: 'Sorry.' };
        },
      },
    );

    const { text, steps, parts } = await run(mode, model(), tools);

    expect(executed).toBe(false);
    expect(text).toBe('Sorry.');
    const call = steps[0]!.content.find((p) => p.type === 'tool-call');
    expect(call).toMatchObject({ toolName: 'click', invalid: true });
    expect(InvalidToolInputError.isInstance((call as { error?: unknown }).error)).toBe(true);
    expect(steps[0]!.content.some((p) => p.type === 'tool-error')).toBe(true);
    if (mode === 'stream') expect(parts.some((p) => p.type === 'tool-error')).toBe(true);
    expect(errorSeen).toMatch(/invalid input/i);
  });
});

describe('fake model respond', () => {
  it('gives the request to the script, which may chain respond', async () => {
    fake.enqueue({
      kind: 'respond',
      with: (req) => ({ kind: 'respond', with: () => ({ kind: 'reply', text: `model ${req.body.model}` }) }),
    });
    const model = createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl, apiKey: 'k' }).chatModel('m1');
    const { text } = await generateText({ model, prompt: 'hi' });
    expect(text).toBe('model m1');
  });

  it('answers a throwing script with a 400 naming the error', async () => {
    fake.enqueue({
      kind: 'respond',
      with: () => {
        throw new Error('boom');
      },
    });
    const model = createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl, apiKey: 'k' }).chatModel('m1');
    await expect(generateText({ model, prompt: 'hi' })).rejects.toThrow(/boom/);
    expect(fake.requests).toHaveLength(1);
  });
});
