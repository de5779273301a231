import { describe, expect, it } from 'vitest';
import { MIN_REDACTED_RUN, redactor } from '../server/credentials/redact.ts';

// Redaction of what a run reports: any run of 4 or more consecutive characters of a credential,
// not only its exact value, so an edited field (the value but its last character) shows nothing.

/** Whether `text` holds a run of MIN_REDACTED_RUN consecutive characters of `value`. */
const holdsRunOf = (text: string, value: string) =>
  [...Array(Math.max(0, value.length - MIN_REDACTED_RUN + 1)).keys()].some((at) =>
    text.includes(value.slice(at, at + MIN_REDACTED_RUN)),
  );

describe('redactor', () => {
  const redact = redactor(new Map([['bank_pw', 'hunter2-Secret']]));

  it('hides the exact value, as before', () => {
    expect(redact('typed hunter2-Secret here')).toBe('typed [credentials.bank_pw] here');
  });

  it('hides the value carved one character short, and any run of 4 of its characters', () => {
    expect(redact('hunter2-Secre')).toBe('[credentials.bank_pw]');
    expect(redact('unter2-Secret')).toBe('[credentials.bank_pw]');
    expect(redact('x hunt y -Sec z')).toBe('x [credentials.bank_pw] y [credentials.bank_pw] z');
    expect(redact('2-Se')).toBe('[credentials.bank_pw]');
  });

  it('leaves runs of 3 alone when ordinary text stands between them: they are in too much of it', () => {
    expect(redact('hun and ter or cre')).toBe('hun and ter or cre');
  });

  it('masks pieces split apart, each whole, and leaves no 4-character run of the value', () => {
    const value = 'hunter2-Secret';
    const carved = `${value.slice(0, 5)}|${value.slice(5, 9)} and ${value.slice(9)}`;
    const out = redact(carved);
    expect(out).toBe('[credentials.bank_pw] and [credentials.bank_pw]');
    expect(holdsRunOf(out, value)).toBe(false);
  });

  it('masks two pieces that touch as one run as far as it goes, then the next', () => {
    // "Secret" then "hunter": no single run of the value spans both, so each is masked on its own.
    expect(redact('Secrethunter')).toBe('[credentials.bank_pw][credentials.bank_pw]');
  });

  it('names the longer value where two share a run, and hides a short value only whole', () => {
    const two = redactor(
      new Map([
        ['pin', '12'],
        ['short', 'abcdef'],
        ['long', 'xxabcdefyy'],
      ]),
    );
    expect(two('abcdef')).toBe('[credentials.long]');
    expect(two('pin 12, not 1 2')).toBe('pin [credentials.pin], not 1 2');
  });

  it('costs ordinary text that shares 4 characters with a value', () => {
    expect(redactor(new Map([['pw', 'password1']]))('Enter your password')).toBe('Enter your [credentials.pw]');
    expect(redactor(new Map([['pw', 'password1']]))('a passage')).toBe('a [credentials.pw]age');
  });

  it('returns text as it is without credentials, or with empty ones', () => {
    expect(redactor(undefined)('anything')).toBe('anything');
    expect(redactor(new Map([['empty', '']]))('anything')).toBe('anything');
  });

  it('is linear enough for a large output', () => {
    const value = 'Zq9!Zq9?Zq9#Zq9$';
    const text = 'Zq9 '.repeat(250_000);
    const started = performance.now();
    expect(redactor(new Map([['pw', value]]))(text)).toBe(text);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  // Issue 44: a page that reflects a secret hands it back in forms a flow can undo.
  describe('the value split, encoded, reversed or with characters dropped', () => {
    const value = 'hunter2-Secret';
    const hidden = (text: string) => {
      const out = redact(text);
      expect(out).toContain('[credentials.bank_pw]');
      return out;
    };

    it('split by whitespace, punctuation or symbols, one character a line included', () => {
      expect(hidden('h u n t e r 2 - S e c r e t')).toBe('[credentials.bank_pw]');
      expect(hidden([...value].join('\n'))).toBe('[credentials.bank_pw]');
      expect(hidden(`got: ${[...value].join('.|')} ok`)).toBe('got: [credentials.bank_pw] ok');
      expect(hidden('x h;u;n;t y')).toBe('x [credentials.bank_pw] y');
    });

    it('URL-encoded (a GET form, encodeURIComponent), as HTML entities, JSON-escaped', () => {
      expect(hidden(`q=${encodeURIComponent(value)}&x=1`)).toBe('q=[credentials.bank_pw]&x=1');
      const every = [...value].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
      expect(hidden(`/a?pw=${every}`)).toBe('/a?pw=[credentials.bank_pw]');
      expect(hidden([...value].map((c) => `&#${c.charCodeAt(0)};`).join(''))).toBe('[credentials.bank_pw]');
      expect(hidden([...value].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''))).toBe(
        '[credentials.bank_pw]',
      );
      expect(hidden([...value].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join(''))).toBe(
        '[credentials.bank_pw]',
      );
      expect(hidden('hunt%65r')).toBe('[credentials.bank_pw]');
    });

    it('as base64, standard or URL-safe, wherever the value sits in what was encoded', () => {
      for (const wrapped of [value, `x${value}`, `xy${value}`, `<${value}>!`]) {
        for (const encoding of ['base64', 'base64url'] as const) {
          const out = hidden(Buffer.from(wrapped).toString(encoding));
          // What is left is at most the groups that carry the wrapping and a few bits of the value.
          expect(out.replace('[credentials.bank_pw]', '').length).toBeLessThanOrEqual(8);
        }
      }
    });

    it('reversed, and reversed with separators', () => {
      const reversed = [...value].reverse().join('');
      expect(hidden(reversed)).toBe('[credentials.bank_pw]');
      expect(hidden([...reversed].join(' '))).toBe('[credentials.bank_pw]');
    });

    it('with characters dropped: any 4 in a row are enough', () => {
      expect(hidden('hunt2-Secr')).toBe('[credentials.bank_pw][credentials.bank_pw]');
      expect(holdsRunOf(redact('huter2-Secet'), value)).toBe(false);
    });

    it('a short value is still looked for whole only, never split: "1 2" stays', () => {
      const pin = redactor(new Map([['pin', '12']]));
      expect(pin('a 1 2 b, 12, %31%32')).toBe('a 1 2 b, [credentials.pin], [credentials.pin]');
    });
  });
});
