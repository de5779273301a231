import { readings, type Reading } from './redactReadings.ts';

/**
 * The shortest run of a credential's characters that redaction hides. Exact-value matching let a
 * flow carve a secret (type it, press Backspace, extract the rest), so any run of this many
 * consecutive characters of a value counts as the value. 4, not 3: a value's three-character
 * pieces ("ass", "ord", "com") are in much ordinary text, which would be masked too; more than 4
 * would let a flow that gets past the field guard (typedFields.ts) read the secret in bigger pieces.
 * The cost is masking ordinary text that shares 4 characters with a value ("pass" when the value is
 * "password1", a year inside a value). SECURITY.md states the rule.
 */
export const MIN_REDACTED_RUN = 4;

/**
 * What redaction looks for, per credential: the value, the value reversed, and its base64 (UTF-8,
 * from each of its first three bytes, so that base64 of a text with the value anywhere in it
 * holds full groups of one of them; standard and URL-safe alphabets). A page that reflects a
 * secret hands it back in these forms without effort; reading it in any form is what the sealed
 * page rule (credentials/sealedPage.ts) is for.
 */
function formsOf(value: string): string[] {
  const forms = [value, [...value].reverse().join('')];
  const bytes = Buffer.from(value, 'utf8');
  for (let skip = 0; skip < 3 && bytes.length - skip >= 3; skip++) {
    const whole = bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3);
    forms.push(whole.toString('base64'), whole.toString('base64url'));
  }
  return [...new Set(forms)];
}

/** The credentials a text may hold pieces of: each form's 4-character pieces, where each starts. */
interface Pieces {
  /** [the credential's name, one of its forms]. */
  forms: readonly (readonly [name: string, form: string])[];
  /** A MIN_REDACTED_RUN-character piece → [index in forms, offset in that form] of each place it occurs. */
  starts: ReadonlyMap<string, readonly (readonly [number, number])[]>;
  /** Values shorter than MIN_REDACTED_RUN: looked for whole, and only in readings that keep every character. */
  short: readonly (readonly [name: string, value: string])[];
}

function piecesOf(credentials: ReadonlyMap<string, string>): Pieces {
  // Longest first: where two values share a run, the longer value's name is the one shown.
  const values = [...credentials].filter(([, value]) => value.length > 0).sort((a, b) => b[1].length - a[1].length);
  const forms = values.flatMap(([name, value]) => formsOf(value).map((form) => [name, form] as const));
  const starts = new Map<string, [number, number][]>();
  forms.forEach(([, form], index) => {
    for (let at = 0; at + MIN_REDACTED_RUN <= form.length; at++) {
      const piece = form.slice(at, at + MIN_REDACTED_RUN);
      starts.set(piece, [...(starts.get(piece) ?? []), [index, at]]);
    }
  });
  return { forms, starts, short: values.filter(([, value]) => value.length < MIN_REDACTED_RUN) };
}

/** The longest run at `at` in `text` that is part of a form, as [its length, the value's name]; undefined when none is long enough. */
function longestRunAt(
  text: string,
  at: number,
  pieces: Pieces,
  withShort: boolean,
): readonly [number, string] | undefined {
  let best: readonly [number, string] | undefined;
  // A value shorter than the minimum run is only hidden whole.
  if (withShort)
    for (const [name, value] of pieces.short)
      if (text.startsWith(value, at) && value.length > (best?.[0] ?? 0)) best = [value.length, name];
  for (const [index, offset] of pieces.starts.get(text.slice(at, at + MIN_REDACTED_RUN)) ?? []) {
    const [name, form] = pieces.forms[index]!;
    let length = MIN_REDACTED_RUN;
    while (offset + length < form.length && text[at + length] === form[offset + length]) length++;
    if (length > (best?.[0] ?? 0)) best = [length, name];
  }
  return best;
}

/** A stretch of the original text to hide, [start, end), and whose value it is. */
type Hidden = [start: number, end: number, name: string];

/** The stretches of one reading to hide, in the original text's positions: left to right, the longest run at each place first. */
function hiddenIn(reading: Reading, pieces: Pieces): Hidden[] {
  const found: Hidden[] = [];
  const { text, from, to, keepsAll } = reading;
  for (let at = 0; at < text.length;) {
    const run = longestRunAt(text, at, pieces, keepsAll);
    if (!run) {
      at++;
      continue;
    }
    found.push([from(at), to(at + run[0] - 1), run[1]]);
    at += run[0];
  }
  return found;
}

/**
 * Hide credential values in anything a run reports (error messages, extracted text, what the agent
 * reads): every run of MIN_REDACTED_RUN or more consecutive characters of a value, of it reversed
 * or of its base64, and a shorter value whole, becomes `[credentials.NAME]`; in the text as it is,
 * decoded (URL escapes, HTML entities, `\uXXXX`), and with the whitespace, punctuation and symbols
 * that split it taken out (redactReadings.ts). Each reading is read left to right, the longest run
 * at each place first, so none of them keeps such a run; what any reading finds is hidden in the text.
 */
export function redactor(credentials: ReadonlyMap<string, string> | undefined): (text: string) => string {
  const pieces = piecesOf(credentials ?? new Map());
  if (!pieces.forms.length) return (text) => text;
  const valueChars = new Set([...(credentials ?? new Map<string, string>()).values()].join(''));
  return (text) => {
    const hidden = readings(text, valueChars)
      .flatMap((reading) => hiddenIn(reading, pieces))
      .sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    if (!hidden.length) return text;
    let out = '';
    let kept = 0;
    for (const [start, end, name] of hidden) {
      if (end <= kept) continue;
      // Overlapping stretches are hidden as one, named by the first.
      if (start < kept) {
        kept = end;
        continue;
      }
      out += `${text.slice(kept, start)}[credentials.${name}]`;
      kept = end;
    }
    return out + text.slice(kept);
  };
}
