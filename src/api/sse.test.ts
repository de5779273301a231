import { describe, expect, it } from 'vitest';
import { readSse } from './sse.ts';

/** A fetch Response whose body arrives in the given pieces. */
function streamed(pieces: string[]): Response {
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of pieces) c.enqueue(enc.encode(p));
      c.close();
    },
  });
  return new Response(body);
}

async function all(res: Response) {
  const out: { event?: string; data: string }[] = [];
  for await (const e of readSse(res)) out.push(e);
  return out;
}

describe('readSse', () => {
  it('joins events split across chunks, skips comments and keeps event names', async () => {
    const res = streamed([
      ': connected\n\n',
      'event: delta\nda',
      'ta: {"a":1}\n',
      '\nda',
      'ta: line1\ndata: line2\n\n',
    ]);
    expect(await all(res)).toEqual([
      { event: 'delta', data: '{"a":1}' },
      { event: undefined, data: 'line1\nline2' },
    ]);
  });

  it('accepts CRLF line ends and a last event without a blank line', async () => {
    expect(await all(streamed(['data: x\r\n\r\ndata: y']))).toEqual([
      { event: undefined, data: 'x' },
      { event: undefined, data: 'y' },
    ]);
  });
});
