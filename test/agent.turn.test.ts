import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { errorsAsText, recentTurns, withOldPagesCut } from '../server/agent/turn.ts';

/** What the agent's loop resends to the model, without a model: pure functions over the history. */
const call = (id: string): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'browser_snapshot', input: {} }],
});
const result = (id: string, value: string): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: 'browser_snapshot', output: { type: 'text', value } }],
});
const textOf = (m: ModelMessage) =>
  m.role === 'tool' && m.content[0]!.type === 'tool-result' && m.content[0]!.output.type === 'text'
    ? m.content[0]!.output.value
    : '';

describe("the agent's history as resent", () => {
  it('says a thrown tool error in words, not as the {} a provider would make of an Error', () => {
    const failed: ModelMessage = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'browser_type',
          output: { type: 'error-json', value: new Error('The credential "BANK" may only be typed into x') as never },
        },
      ],
    };
    const [out] = errorsAsText([failed]);
    expect(out).toMatchObject({ content: [{ output: { type: 'error-text', value: expect.stringMatching(/BANK/) } }] });
    expect(JSON.stringify(out)).not.toContain('{}');
  });

  it('cuts all but the latest few long page snapshots, and leaves the history itself alone', () => {
    const page = 'x'.repeat(5000);
    const history = [1, 2, 3, 4, 5].flatMap((n) => [call(`c${n}`), result(`c${n}`, page)]);
    const sent = withOldPagesCut(history);
    expect(sent.filter((m) => m.role === 'tool').map((m) => textOf(m).length < 1000)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(history.every((m) => m.role !== 'tool' || textOf(m).length === 5000)).toBe(true);
  });

  it('resends the latest turns of a long chat from a message of the person, never parting a result from its call', () => {
    const turn = (n: number): ModelMessage[] => [
      { role: 'user', content: `message ${n}` },
      ...[1, 2, 3].flatMap((k) => [call(`c${n}-${k}`), result(`c${n}-${k}`, 'ok')]),
    ];
    const short = [0, 1, 2].flatMap(turn);
    expect(recentTurns(short)).toBe(short);
    const long = Array.from({ length: 40 }, (_, n) => turn(n)).flat();
    const sent = recentTurns(long);
    expect(sent.length).toBeLessThanOrEqual(80);
    expect(sent[0]).toMatchObject({ role: 'user' });
    expect(sent.at(-1)).toBe(long.at(-1));
  });
});
