/**
 * Workflow data written into generated scripts as data, never as code. Step values, names and
 * messages come from whoever saved the workflow: each goes into a script as a JSON literal (valid
 * JavaScript), with the two line terminators JSON leaves raw escaped too, so no text can end a
 * literal or a comment early.
 */

const LINE_SEPARATORS = /[\u2028\u2029]/g;

/** `value` as a JavaScript expression of the same value. */
export function jsLiteral(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new Error('jsLiteral: no JSON for this value');
  return json.replace(LINE_SEPARATORS, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** A `//` comment line quoting `text`: quoted as a literal, a newline in it cannot end the comment. */
export const commentLine = (label: string, text: string): string => `// ${label}: ${jsLiteral(text)}`;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A key as @puppeteer/replay's formatJSONAsJS should write it: `__proto__` computed, so it stays an own key. */
const keyText = (key: string) =>
  key === '__proto__' ? `[${jsLiteral(key)}]` : IDENTIFIER.test(key) ? key : jsLiteral(key);

/**
 * `value` with every object key that is not a plain identifier quoted in its name:
 * @puppeteer/replay's formatJSONAsJS writes keys as they are (`attributes: {data-x: …}`), so a key
 * such as `a: process.exit(), b` would be code. A quoted key reads back as the same key.
 */
export function quoteKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(quoteKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [keyText(key), quoteKeys(child)]));
}
