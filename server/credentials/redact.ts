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

/** The credentials a text may hold pieces of: each value's 4-character pieces, where each starts. */
interface Pieces {
  values: readonly (readonly [name: string, value: string])[];
  /** A MIN_REDACTED_RUN-character piece → [index in values, offset in that value] of each place it occurs. */
  starts: ReadonlyMap<string, readonly (readonly [number, number])[]>;
}

function piecesOf(credentials: ReadonlyMap<string, string>): Pieces {
  // Longest first: where two values share a run, the longer value's name is the one shown.
  const values = [...credentials].filter(([, value]) => value.length > 0).sort((a, b) => b[1].length - a[1].length);
  const starts = new Map<string, [number, number][]>();
  values.forEach(([, value], index) => {
    for (let at = 0; at + MIN_REDACTED_RUN <= value.length; at++) {
      const piece = value.slice(at, at + MIN_REDACTED_RUN);
      starts.set(piece, [...(starts.get(piece) ?? []), [index, at]]);
    }
  });
  return { values, starts };
}

/** The longest run at `at` in `text` that is part of a value, as [its length, the value's name]; undefined when none is long enough. */
function longestRunAt(text: string, at: number, pieces: Pieces): readonly [number, string] | undefined {
  let best: readonly [number, string] | undefined;
  // A value shorter than the minimum run is only hidden whole.
  for (const [name, value] of pieces.values) {
    if (value.length < MIN_REDACTED_RUN && text.startsWith(value, at) && value.length > (best?.[0] ?? 0))
      best = [value.length, name];
  }
  for (const [index, offset] of pieces.starts.get(text.slice(at, at + MIN_REDACTED_RUN)) ?? []) {
    const [name, value] = pieces.values[index]!;
    let length = MIN_REDACTED_RUN;
    while (offset + length < value.length && text[at + length] === value[offset + length]) length++;
    if (length > (best?.[0] ?? 0)) best = [length, name];
  }
  return best;
}

/**
 * Hide credential values in anything a run reports (error messages, extracted text, what the agent
 * reads): every run of MIN_REDACTED_RUN or more consecutive characters of a value, and a shorter
 * value whole, becomes `[credentials.NAME]`. Read left to right, the longest run at each place
 * first, so no such run is left in the text (a run starting at a kept character would have been
 * found there).
 */
export function redactor(credentials: ReadonlyMap<string, string> | undefined): (text: string) => string {
  const pieces = piecesOf(credentials ?? new Map());
  if (!pieces.values.length) return (text) => text;
  return (text) => {
    let out = '';
    let kept = 0;
    for (let at = 0; at < text.length;) {
      const run = longestRunAt(text, at, pieces);
      if (!run) {
        at++;
        continue;
      }
      out += `${text.slice(kept, at)}[credentials.${run[1]}]`;
      at += run[0];
      kept = at;
    }
    return out + text.slice(kept);
  };
}
