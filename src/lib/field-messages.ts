/**
 * The API's validation messages name fields as the wire does ("workflow_name must not be empty",
 * "session_data must be a string holding valid JSON"), which suits a program reading a 422. Beside
 * a form field a person reads a sentence about that field instead: its name in words, what to do.
 */

/** A wire name in words: workflow_name → "Workflow name", allowed_origins → "Allowed origins". */
export function fieldLabel(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/\b(url|id|json|cdp|vnc)\b/g, (w) => w.toUpperCase());
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `message` about the field `path` (wire path, dots or an array) as a sentence for the form. */
export function inWords(path: string | readonly PropertyKey[], message: string): string {
  const parts = (typeof path === 'string' ? path.split('.') : path.map(String)).filter(
    (p) => p !== '' && !/^\d+$/.test(p),
  );
  const name = parts.at(-1) ?? '';
  const label = fieldLabel(name);
  let m = message.trim();
  if (!name) return sentence(m);
  // zod's own wording for a missing value
  if (/^Invalid input: expected \w+, received undefined$/i.test(m) || /^Required$/i.test(m))
    return `${label} is required.`;
  if (/^Invalid UUID$/i.test(m)) return `${label} must be an id of the form 123e4567-e89b-12d3-a456-426614174000.`;
  const named = new RegExp(`^${escape(name)}\\b:?\\s*`);
  if (named.test(m)) {
    const rest = m.replace(named, '');
    if (/^must not be empty$/i.test(rest))
      return `Enter ${article(label)} ${label[0]!.toLowerCase()}${label.slice(1)}.`;
    m = `${label} ${rest}`;
  }
  // A form field is text already: "a string holding valid JSON" is "valid JSON" to the person typing it.
  m = m.replace(/\bmust be a string holding\b/, 'must be');
  return sentence(m);
}

const article = (label: string) => (/^[aeiou]/i.test(label) ? 'an' : 'a');

function sentence(m: string): string {
  if (!m) return m;
  const first = m[0]!.toUpperCase() + m.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}
