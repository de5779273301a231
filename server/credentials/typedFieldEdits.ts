/**
 * What a run may do to a field it typed a kept credential into (one with allowed_origins), while
 * the field's page is there. A flow that edits the field carves the secret (type it, press
 * Backspace, extract: the secret but its last character came back when redaction matched the exact
 * value). Redaction now hides any 4 of its characters in a row (credentials/redact.ts), but edits could
 * still cut it into shorter pieces (keep 3 characters, or put one between every 3) and read it
 * back over a few runs. So until the page navigates away, the run refuses the steps that
 * would change that field's text other than by replacing it whole: keys pressed while it has the
 * focus (other than leaving it or submitting it), a change step adding to its text, and the
 * agent (an act step), which presses keys of its own.
 *
 * The decisions are pure functions, here (unit-tested in test/typedFieldEdits.test.ts); what
 * reads the page is TypedFields (runs/typedFields.ts), which CredentialOriginGuard asks before
 * each step.
 */

/** Where the focus is, seen from a field a kept credential was typed into. */
export interface FieldFocus {
  /** The focus is on the field, inside it, or on an editable element around it: a key there edits its text. */
  editing: boolean;
  /** The focused element is a one-line `<input>`, where Enter submits and types nothing. */
  oneLine: boolean;
}

const theCredentials = (names: readonly string[]) =>
  `the credential${names.length === 1 ? '' : 's'} ${names.map((n) => `"${n}"`).join(' and ')}`;
const typedInto = (names: readonly string[]) =>
  `${theCredentials(names)} ${names.length === 1 ? 'was' : 'were'} typed into`;
const why = 'editing its text would let the flow read back part of the secret';

/**
 * Why a keyDown of `key` may not be pressed with the focus at `focus` on the field `names` were
 * typed into, or undefined when it may. Leaving the field (Tab, Escape, with Shift) and submitting
 * a one-line field (Enter) are the keys a login needs; every other key edits the text or moves
 * the caret within it (Backspace, Delete, arrows, Home, End, characters typed after a click moved
 * the caret).
 */
export function typedFieldKeyRefusal(key: string, names: readonly string[], focus: FieldFocus): string | undefined {
  if (!focus.editing) return undefined;
  if (key === 'Tab' || key === 'Escape' || key === 'Shift' || (key === 'Enter' && focus.oneLine)) return undefined;
  return `${typedInto(names)} the field that has the focus, so until the page navigates a key step there may only leave it (Tab, Escape) or submit a one-line field (Enter), not press ${JSON.stringify(key.slice(0, 30))}: ${why}`;
}

/**
 * Why a change step may not fill `filled` into the field `names` were typed into, which holds
 * `current`, or undefined when it may. A fill replaces the field's text whole unless its value
 * extends that text, in which case only the rest is typed, at a caret the flow may have moved.
 */
export function typedFieldChangeRefusal(names: readonly string[], current: string, filled: string): string | undefined {
  if (current === '' || filled === current || !filled.startsWith(current)) return undefined;
  return `${typedInto(names)} this field, so until the page navigates a change step may replace its text whole, not add to it: ${why}`;
}

/** Why an act step may not run while a field `names` were typed into is on its page. */
export function typedFieldActRefusal(names: readonly string[]): string {
  return `${typedInto(names)} a field of a page still open, so an act step may not run until that page navigates away: the agent presses keys of its own, and ${why}`;
}

/**
 * Why no step that could edit it may run while the run cannot find again the field `names` were
 * typed into, on a page still open (one back from the back/forward cache): it fails closed.
 */
export function typedFieldLostRefusal(names: readonly string[]): string {
  return `${typedInto(names)} a field of this page, which the run can no longer find to check that this step leaves it alone (as when the page comes back from the back/forward cache), so it refuses the step until that page navigates away: ${why}`;
}

/**
 * Why the kept credentials `names` may not be typed into a field that did not take the focus: a
 * fill types with the keyboard, whose keys go wherever the focus is, so an inert or hidden field
 * on an allowed page would send them to another element, a frame of another origin included.
 */
export function unfocusedFieldRefusal(names: readonly string[]): string {
  return `the field did not take the focus (it is inert, hidden or disabled, or the page keeps the focus elsewhere), so the keys typing ${theCredentials(names)} would go wherever the focus is, a frame of another origin included: nothing was typed`;
}
