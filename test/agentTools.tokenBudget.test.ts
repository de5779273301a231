import { describe, expect, it } from 'vitest';
import { countTokens, pageOfLines } from '../server/agentTools/tokenBudget.ts';

describe('token budget of snapshot parts', () => {
  it('counts with the real o200k_base tokenizer, and a page that spells a special token is plain text', () => {
    // "hello world" is two tokens in o200k_base; a character estimate (length / 4) would say three.
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('before <|endoftext|> after')).toBeGreaterThan(5);
  });

  it('takes whole lines up to the budget and goes on where it stopped, to the last line', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `- link "Link number ${i}" [ref=abcdef-e${i}]`);
    const seen: string[] = [];
    for (let from = 0, parts = 0; from < lines.length; parts++) {
      const part = await pageOfLines(lines, from, 500);
      expect(countTokens(part.text)).toBeLessThanOrEqual(500);
      expect(part.to).toBeGreaterThan(from);
      seen.push(...part.text.split('\n'));
      from = part.to;
      expect(parts).toBeLessThan(200);
    }
    expect(seen).toEqual(lines);
  });

  it('cuts a single line longer than the budget so that every part makes progress', async () => {
    const lines = ['short', `- text: ${'word '.repeat(5000)}`, 'after'];
    const first = await pageOfLines(lines, 0, 100);
    expect(first.text).toBe('short');
    const second = await pageOfLines(lines, 1, 100);
    expect(second.to).toBe(2);
    expect(countTokens(second.text)).toBeLessThanOrEqual(100);
    expect(second.text.endsWith('…')).toBe(true);
    expect((await pageOfLines(lines, 2, 100)).text).toBe('after');
  });

  it('lets the event loop run while it counts a large page (issue 44: ten at once held healthz)', async () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `- row "Order ${i} of the catalogue" [ref=abcdef-e${i}]`);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      const part = await pageOfLines(lines, 0, 200_000);
      expect(part.to).toBeGreaterThan(1000);
    } finally {
      clearInterval(timer);
    }
    // A timer ran between slices: the count did not hold the loop from start to end.
    expect(ticks).toBeGreaterThan(0);
  });
});
