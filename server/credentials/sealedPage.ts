/**
 * Two rules that keep a kept credential (one with allowed_origins) inside the browser's input,
 * whatever the flow does (issue 44; SECURITY.md, *Where a credential may be typed*):
 *
 * - **The input rule**: it is typed only into a text-like `<input>` (TYPABLE_INPUTS). Text typed
 *   into a contenteditable is in the page's DOM, where an XPath or text selector reads it one bit
 *   at a time (`//h1[substring(…)]` picks `<h1>` or `<p>` by one bit of one character, and an
 *   extract of what matched hands that bit back); an `<input>`'s value is not in the DOM at all.
 *   A `<textarea>` is refused too: it is for many lines, not a secret, and editing commands carve it.
 * - **The sealed page rule**: once it is typed, until the field's page navigates away (the document
 *   is gone), the run reads nothing of any page: no extract (an element's text, an attribute or an
 *   AI answer), no waitForElement that checks an element's properties or attributes (a field's
 *   `value` among them), no AI step (act, refused by the field guard); and every step finds its element by its CSS selectors only
 *   (aria/, text/ and xpath/ selectors, which read text, are left out; a step with no other is
 *   refused). A page of the allowed origin that copies the field into its DOM (or a button of it
 *   that the flow clicks) then has nothing to hand back to.
 *
 * Pure decisions, here (unit-tested in test/sealedPage.test.ts); TypedFields (runs/typedFields.ts)
 * knows which pages are sealed, and CredentialOriginGuard (runs/credentialGuard.ts) applies them.
 */

/** `<input type>`s a kept credential may be typed into: one line, no value in the DOM, no sanitising of what is typed. */
export const TYPABLE_INPUTS: readonly string[] = ['password', 'text', 'email', 'tel', 'search', 'url'];

const theCredentials = (names: readonly string[]) =>
  `the credential${names.length === 1 ? '' : 's'} ${names.map((n) => `"${n}"`).join(' and ')}`;

/**
 * Why `names` may not be typed into an element of this kind, or undefined when they may. `kind` is
 * an `<input>`'s type as `input[type=…]`, else the element's tag name, with ` contenteditable` when
 * it is editable that way (as the guard reads it in the page).
 */
export function fieldKindRefusal(names: readonly string[], kind: string): string | undefined {
  const type = /^input\[type=(.*)\]$/.exec(kind)?.[1];
  if (type !== undefined && TYPABLE_INPUTS.includes(type)) return undefined;
  return `the input rule: ${theCredentials(names)} may only be typed into a text-like <input> (${TYPABLE_INPUTS.join(', ')}), not into ${kind.startsWith('input') ? `an ${kind}` : `a <${kind.replace(/ .*/, '')}>${kind.endsWith(' contenteditable') ? ' that is contenteditable' : ''}`}: text typed there is in the page, where selectors could read it back. Nothing was typed`;
}

/** The parts of a step the sealed page rule looks at (a Recorder step; loose, so plain objects test it). */
export interface SealedStepLike {
  type: string;
  name?: unknown;
  properties?: unknown;
  attributes?: unknown;
}

/** Why the sealed page rule refuses `step` while a page `names` were typed into is there, or undefined when it may run. */
export function sealedStepRefusal(step: SealedStepLike, names: readonly string[]): string | undefined {
  const because = `the sealed page rule: ${theCredentials(names)} ${names.length === 1 ? 'was' : 'were'} typed into a page that has not navigated away yet, and until it does the run reads nothing of any page`;
  const reads = (what: string) => `${because}, so ${what} may not run (it could read the secret back from the page)`;
  if (step.type === 'waitForExpression') return reads('a waitForExpression step');
  if (step.type === 'waitForElement' && (step.properties !== undefined || step.attributes !== undefined))
    return reads("a waitForElement step that checks an element's properties or attributes");
  if (step.type === 'customStep' && step.name === 'extract') return reads('an extract step');
  // An act step is refused by the field guard already (typedFieldActRefusal): the agent presses keys of its own.
  return undefined;
}

type Selector = string | string[];
/** A selector that reads an element's text (aria names, text, XPath string functions), not only its tag, attributes and place. */
const readsText = (part: string) => /^(aria|text|xpath)\//.test(part);

/**
 * The selectors of `selectors` the sealed page rule lets a step use: CSS (and pierce/, CSS through
 * shadow roots) only. Throws naming the rule when none is left.
 */
export function sealedSelectors(selectors: readonly Selector[], names: readonly string[]): Selector[] {
  const kept = selectors.filter((s) => !(Array.isArray(s) ? s : [s]).some(readsText));
  if (kept.length) return kept;
  throw new Error(
    `the sealed page rule: ${theCredentials(names)} ${names.length === 1 ? 'was' : 'were'} typed into a page that has not navigated away yet, and until it does a step finds its element by CSS selectors only (aria/, text/ and xpath/ selectors read the page's text); this step has none`,
  );
}
