/**
 * A download's name is chosen by the page (the `download` attribute, Content-Disposition, a blob's
 * name), so it is anything at all: folders, `..`, NUL and other control characters, characters that
 * reverse the text around them, names of thousands of bytes. What we keep is one plain component,
 * usable on every file system and inside a zip, never empty, never hidden, at most MAX_NAME_BYTES.
 */

/** Bytes of UTF-8: room for a name under the 255-byte limit of common file systems, with a " (n)" suffix. */
export const MAX_NAME_BYTES = 200;
const MAX_EXTENSION_BYTES = 24;
export const FALLBACK_NAME = 'download';

/** C0 and C1 controls, DEL, and the format characters that reorder or hide text (bidi overrides, zero-width). */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Characters Windows and some zip tools refuse in a name. */
const RESERVED = /[<>:"|?*]/g;
/** Names Windows keeps for devices, with any extension. */
const DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** The longest prefix of `s` (whole code points) that fits in `max` bytes. */
function cut(s: string, max: number): string {
  let out = '';
  let used = 0;
  for (const ch of s) {
    const n = bytes(ch);
    if (used + n > max) break;
    out += ch;
    used += n;
  }
  return out;
}

/** Split at the last dot of a name, keeping a short extension (a long "extension" is just part of the name). */
function splitExtension(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return [name, ''];
  const ext = name.slice(dot);
  return bytes(ext) <= MAX_EXTENSION_BYTES ? [name.slice(0, dot), ext] : [name, ''];
}

/** Trim what must not start or end a name: spaces and dots (hidden files, Windows' trailing dots). */
const trimEnds = (s: string) => s.replace(/^[\s.]+/u, '').replace(/[\s.]+$/u, '');

/** One safe component for a name the page suggested: never empty, `.`, `..`, hidden, or over MAX_NAME_BYTES. */
export function safeFileName(suggested: unknown, fallback = FALLBACK_NAME): string {
  let name = typeof suggested === 'string' ? suggested : '';
  name = name.replace(LONE_SURROGATE, '\ufffd').normalize('NFC');
  // The last component of either separator: "a/../../etc/x" and "..\\x" keep only "x".
  name = name.split(/[/\\]/).pop() ?? '';
  name = name.replace(INVISIBLE, '').replace(RESERVED, '_');
  name = trimEnds(name);
  if (DEVICE.test(name)) name = `_${name}`;
  if (!name) return fallback;
  if (bytes(name) <= MAX_NAME_BYTES) return name;
  const [stem, ext] = splitExtension(name);
  return trimEnds(cut(stem, MAX_NAME_BYTES - bytes(ext))) + ext || fallback;
}

/**
 * `name`, or "stem (2).ext", "stem (3).ext", … when a name already taken matches it ignoring case
 * (so a zip of them unpacks whole on a case-insensitive file system). Adds the result to `taken`.
 */
export function uniqueName(name: string, taken: Set<string>): string {
  const key = (s: string) => s.toLowerCase();
  let candidate = name;
  const [stem, ext] = splitExtension(name);
  for (let n = 2; taken.has(key(candidate)); n++) {
    const suffix = ` (${n})${ext}`;
    candidate = trimEnds(cut(stem, MAX_NAME_BYTES - bytes(suffix))) + suffix;
  }
  taken.add(key(candidate));
  return candidate;
}

/** True for a name safeFileName could have produced: what the file routes accept before looking anything up. */
export function isSafeFileName(name: string): boolean {
  return name.length > 0 && safeFileName(name, '') === name;
}
