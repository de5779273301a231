import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillTemplate } from '../server/runs/fillTemplate.ts';

// The split template (issue 44), fuzzed without a browser: whatever variables and pause answers
// hold (pieces of placeholders above all), a step's text is its stored template with each
// placeholder replaced once, and a credential is typed exactly where the template names it.

const SECRET = 'S3cret-value';
/** Pieces a value may be made of: brace halves, whole placeholders, plain text. */
const piece = fc.constantFrom('{{', '}}', '{', '}', 'credentials.', 'pw', 'a', ' ', 'x', '{{credentials.pw}}', '{{a}}');
const valueArb = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));

/** A template token: literal text without braces, or a placeholder of a variable, an answer or the credential. */
type Token = { literal: string } | { variable: 'a' | 'b' } | { answer: 'q' } | { credential: true };
const tokenArb: fc.Arbitrary<Token> = fc.oneof(
  fc.constantFrom('x', 'pw: ', ' ', 'credentials.pw', '-').map((literal) => ({ literal })),
  fc.constantFrom('a' as const, 'b' as const).map((variable) => ({ variable })),
  fc.constant({ answer: 'q' as const }),
  fc.constant({ credential: true as const }),
);

const placeholder = (t: Token) =>
  'literal' in t ? t.literal : 'variable' in t ? `{{${t.variable}}}` : 'answer' in t ? '{{ q }}' : '{{credentials.pw}}';

describe('fillTemplate: substituted text is never expanded again', () => {
  it('fills each placeholder of the template once, whatever the values hold', () => {
    fc.assert(
      fc.property(fc.array(tokenArb, { maxLength: 8 }), valueArb, valueArb, valueArb, (tokens, a, b, q) => {
        const template = tokens.map(placeholder).join('');
        const filled = fillTemplate(template, {
          variables: { a, b },
          answerNames: new Set(['q']),
          answers: new Map([['q', q]]),
          credentials: new Map([['pw', SECRET]]),
        });
        // The reference: each token on its own.
        const expected = tokens
          .map((t) =>
            'literal' in t ? t.literal : 'variable' in t ? { a, b }[t.variable] : 'answer' in t ? q : SECRET,
          )
          .join('');
        expect(filled).toBe(expected);
        // The secret is typed where the template names it, and nowhere a value put a placeholder.
        expect(filled.split(SECRET).length - 1).toBe(tokens.filter((t) => 'credential' in t).length);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves an answer not given yet, and a credential without a value, as placeholders', () => {
    expect(fillTemplate('{{q}}/{{credentials.pw}}/{{gone}}', { answerNames: new Set(['q']) })).toBe(
      '{{q}}/{{credentials.pw}}/',
    );
  });
});
