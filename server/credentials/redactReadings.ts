/**
 * The ways redaction (redact.ts) reads a text: as it is, decoded, and with what splits a value
 * taken out, each character of a reading mapped back to the stretch of the text it came from, so
 * a run found in any reading is hidden in the text itself. A page that reflects a secret hands it
 * back URL-encoded (a GET form), as HTML entities, JSON-escaped, or one character per line.
 */

/** One reading: its text, and for each of its UTF-16 units the stretch [from, to) of the original text it came from. */
export interface Reading {
  text: string;
  from: (i: number) => number;
  to: (i: number) => number;
  /** Whether every character of the text is in it (short values are looked for whole only then). */
  keepsAll: boolean;
}

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const JSON_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', n: '\n', r: '\r', t: '\t' };

/** The bytes of a run of `%XX` at `at`, as many as are in a row. */
function percentBytesAt(text: string, at: number): number[] {
  const bytes: number[] = [];
  for (let i = at; text[i] === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3)); i += 3)
    bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
  return bytes;
}

/** How many bytes the UTF-8 sequence led by `lead` has; 0 for a byte that cannot lead one. */
const utf8Length = (lead: number) =>
  lead < 0x80 ? 1 : lead >> 5 === 6 ? 2 : lead >> 4 === 14 ? 3 : lead >> 3 === 30 ? 4 : 0;

/** The escape at `at` decoded: [its text, how many characters of the original it takes]; undefined when there is none. */
function escapeAt(text: string, at: number): readonly [string, number] | undefined {
  const c = text[at];
  if (c === '+') return [' ', 1];
  if (c === '%') {
    const bytes = percentBytesAt(text, at);
    const n = bytes.length ? utf8Length(bytes[0]!) : 0;
    if (!n || n > bytes.length) return undefined;
    const decoded = Buffer.from(bytes.slice(0, n)).toString('utf8');
    return decoded.includes('\ufffd') ? undefined : [decoded, 3 * n];
  }
  if (c === '&') {
    const m = /^&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-z]{2,6}));/.exec(text.slice(at, at + 12));
    if (!m) return undefined;
    const code = m[1] !== undefined ? Number(m[1]) : m[2] !== undefined ? parseInt(m[2], 16) : undefined;
    if (code !== undefined) return code <= 0x10ffff ? [String.fromCodePoint(code), m[0].length] : undefined;
    const named = NAMED[m[3]!];
    return named === undefined ? undefined : [named, m[0].length];
  }
  if (c === '\\') {
    const m = /^\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))/.exec(text.slice(at, at + 6));
    if (m) return [String.fromCharCode(parseInt(m[1] ?? m[2]!, 16)), m[0].length];
    const plain = JSON_ESCAPES[text[at + 1] ?? ''];
    return plain === undefined ? undefined : [plain, 2];
  }
  return undefined;
}

/** A reading built unit by unit. */
function builder(keepsAll: boolean) {
  const units: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  return {
    add(text: string, start: number, end: number) {
      for (const unit of text.split('')) {
        units.push(unit);
        from.push(start);
        to.push(end);
      }
    },
    done: (): Reading => ({ text: units.join(''), from: (i) => from[i]!, to: (i) => to[i]!, keepsAll }),
  };
}

/** `text` with URL escapes (and `+`), HTML entities and JSON/JS escapes decoded; undefined when it holds none. */
function decoded(text: string): Reading | undefined {
  if (!/[%+&\\]/.test(text)) return undefined;
  const out = builder(true);
  for (let at = 0; at < text.length;) {
    const escape = escapeAt(text, at);
    const [unit, length] = escape ?? [text[at]!, 1];
    out.add(unit, at, at + length);
    at += length;
  }
  return out.done();
}

/** `reading` without the characters that split a value: whitespace, punctuation and symbols that no value holds. */
function unsplit(reading: Reading, valueChars: ReadonlySet<string>): Reading {
  const out = builder(false);
  for (let i = 0; i < reading.text.length; i++) {
    const unit = reading.text[i]!;
    if (!valueChars.has(unit) && /[\s\p{P}\p{S}\p{Cc}]/u.test(unit)) continue;
    out.add(unit, reading.from(i), reading.to(i));
  }
  return out.done();
}

/** The readings of `text` redaction looks in; `valueChars`, every character the run's values hold. */
export function readings(text: string, valueChars: ReadonlySet<string>): Reading[] {
  const plain: Reading = { text, from: (i) => i, to: (i) => i + 1, keepsAll: true };
  const decodedText = decoded(text);
  return [plain, ...(decodedText ? [decodedText] : [])].flatMap((r) => [r, unsplit(r, valueChars)]);
}
