import { createRequire } from 'node:module';
import { slices } from '../domain/slices.ts';

type Tokenizer = typeof import('gpt-tokenizer/encoding/o200k_base');
let tokenizer: Tokenizer | undefined;
// Loaded when first used: it is about 700 ms and 65 MB the idle server does not need; required, as countTokens is sync.
const o200k = () => (tokenizer ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as Tokenizer);

/**
 * Tokens of a text as a model counts them. gpt-tokenizer's o200k_base is the real BPE of OpenAI's
 * current models (GPT-4o, o-series), pure JavaScript with no download at run time; other vendors'
 * tokenizers (Claude's is not published) come out within a few per cent of it on this kind of text,
 * so a page cut to N o200k tokens fits an N-token tool-result limit in practice. Text that spells a
 * special token (`<|endoftext|>`, which a page can hold) counts as the plain text it is: the
 * library's default would throw on it.
 */
export function countTokens(text: string): number {
  return o200k().encode(text, { disallowedSpecial: new Set() }).length;
}

/** What one page of lines holds: lines [from, to) of the whole, and whether the last was cut to fit. */
export interface LinePage {
  from: number;
  to: number;
  text: string;
}

/**
 * As many whole lines from `from` on as fit `budget` tokens. A line alone over the budget is cut
 * (by characters, halving until it fits) so that every page makes progress. Line tokens are
 * summed with one for each newline: BPE does not merge across a newline, so the sum bounds the
 * joined text's count, which is checked again at the end. Counted in slices (domain/slices.ts):
 * a 100,000-token page is tens of milliseconds of BPE, which ten calls at once held the loop for.
 */
export async function pageOfLines(lines: readonly string[], from: number, budget: number): Promise<LinePage> {
  const clock = slices();
  const taken: string[] = [];
  let used = 0;
  let to = from;
  for (; to < lines.length; to++) {
    await clock.breathe();
    const cost = countTokens(lines[to]!) + 1;
    if (used + cost > budget) break;
    taken.push(lines[to]!);
    used += cost;
  }
  if (!taken.length && from < lines.length) {
    // No token is longer than 16 characters in practice: what is past that many per token cannot fit.
    let line = lines[from]!.slice(0, budget * 16);
    while (line.length > 1 && countTokens(`${line}…`) + 1 > budget) {
      await clock.breathe();
      line = line.slice(0, Math.floor(line.length / 2));
    }
    taken.push(`${line}…`);
    to = from + 1;
  }
  let text = taken.join('\n');
  // The sum bounds the joined count in practice; this keeps the promise if a tokenizer ever merges across lines.
  while (taken.length > 1 && (await countTokensSliced(taken, clock)) > budget) {
    taken.pop();
    to--;
    text = taken.join('\n');
  }
  return { from, to, text };
}

/**
 * The tokens of `lines` joined by newlines, counted in pieces of whole lines (about 20,000
 * characters) between breaths, with one for each newline between pieces. BPE works within the
 * pre-tokenizer's pieces, which a newline ends, so cutting there does not make the count smaller:
 * this bounds the joined text's count from above, which is what the budget check needs.
 */
async function countTokensSliced(lines: readonly string[], clock: ReturnType<typeof slices>): Promise<number> {
  let total = 0;
  let piece: string[] = [];
  let chars = 0;
  for (const line of lines) {
    piece.push(line);
    chars += line.length + 1;
    if (chars > 20_000) {
      total += countTokens(piece.join('\n')) + 1;
      piece = [];
      chars = 0;
      await clock.breathe();
    }
  }
  return total + (piece.length ? countTokens(piece.join('\n')) : 0);
}
