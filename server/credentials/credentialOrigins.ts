import { credentialOf, placeholdersOf } from '../../contract/placeholders.ts';

/**
 * allowed_origins (store_credential): a credential kept to some origins is typed only into a page
 * of one of them. A page that receives a secret can always transform it and hand it back
 * (`btoa(value)` read by an extract step gets past redaction, which matches runs of the value's own
 * characters only), so the runner decides where a secret may go rather than what may come back:
 *
 * - the field it is typed into must be in a document of an allowed origin, and so must every frame
 *   around it and the page that opened its window (either can navigate it while it is being typed);
 * - a run that types such a credential runs none of the flow's own script (waitForExpression, a
 *   javascript: URL), which could read the field or post it anywhere from inside the allowed page,
 *   and presses no key or button that moves text out of a field (Ctrl/Meta shortcuts, Insert and
 *   Delete, a middle click pasting the X selection).
 *
 * The decisions are pure functions, here (unit-tested in test/credentialOrigins.test.ts), with no
 * browser library: the server's own thread loads this file (CredentialsService.reveal). What
 * touches the browser is CredentialOriginGuard (credentialGuard.ts), which RunExtension.runStep
 * calls first, in the run's engine.
 */

/** Where each credential may be typed, by name: its allowed_origins ([]: any page). */
export type CredentialOrigins = ReadonlyMap<string, readonly string[]>;

/** The origin of a document's URL as the browser computes it; 'null' for opaque ones (about:blank, data:, file:). */
export function originOfUrl(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : 'null';
}

const cut = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** A document named for a message: its origin, or its URL's start when it has none of its own. */
const shown = (url: string) => {
  const origin = originOfUrl(url);
  return origin === 'null' ? `${cut(url || 'about:blank')} (no origin of its own)` : origin;
};
const listed = (items: readonly string[], last: 'or' | 'and') =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`;

/** Where a change step's field is, as the browser reports it. */
export interface Placement {
  /** URL of the document holding the field. */
  frame: string;
  /** URLs of the frames around it, its parent first, the page's main frame last; empty in a main frame. */
  parents: readonly string[];
  /** URL of the page that opened this window (window.open), which can still navigate it; undefined when none. */
  opener?: string;
}

/** Names of the credentials `value` types: its `{{credentials.NAME}}` placeholders that the run has a value for. */
export function credentialsIn(value: string, values: ReadonlyMap<string, string>): string[] {
  const names = new Set<string>();
  for (const p of placeholdersOf(value)) {
    const name = credentialOf(p);
    if (name !== undefined && values.has(name)) names.add(name);
  }
  return [...names];
}

/**
 * The credentials of a run kept to some origins: those with allowed_origins, and those the runner
 * was told nothing about (a map without them types them nowhere).
 */
export function keptNames(values: ReadonlyMap<string, string>, origins: CredentialOrigins | undefined): string[] {
  return [...values.keys()].filter((name) => origins?.get(name)?.length !== 0);
}

/**
 * Why `names` may not be typed into the field at `placement`, or undefined when they may. The
 * message follows "Step N (change #field): " in the run's result.
 */
export function placementRefusal(
  names: readonly string[],
  origins: CredentialOrigins | undefined,
  placement: Placement,
): string | undefined {
  for (const name of names) {
    const allowed = origins?.get(name);
    if (!allowed)
      return `the runner was not told where the credential "${name}" may be typed (its allowed_origins), so it types it nowhere`;
    if (allowed.length === 0) continue;
    const only = `the credential "${name}" may only be typed into ${listed(allowed, 'or')}`;
    const ok = (url: string) => allowed.includes(originOfUrl(url));
    if (!ok(placement.frame)) return `${only}; this page is ${shown(placement.frame)}`;
    const outside = placement.parents.find((url) => !ok(url));
    if (outside !== undefined)
      return `${only}; this field is in a frame of ${shown(placement.frame)} inside ${shown(outside)}, which can navigate it`;
    if (placement.opener !== undefined && !ok(placement.opener)) {
      return `${only}; this page of ${shown(placement.frame)} was opened by ${shown(placement.opener)}, which can navigate it`;
    }
  }
  return undefined;
}

/** Keys a key step may press in a run that types a kept credential: none of them moves text out of a field. */
const SAFE_KEYS = new Set([
  'Enter',
  'Tab',
  'Escape',
  'Backspace',
  'Shift',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);
const isSafeKey = (key: string) => SAFE_KEYS.has(key) || ([...key].length === 1 && !/\p{Cc}/u.test(key));

/** The parts of a step stepRefusal looks at (a Recorder step; loose, so plain objects test it). */
export interface StepLike {
  type: string;
  url?: unknown;
  key?: unknown;
  button?: unknown;
}

/**
 * Why a run that types the kept credentials `kept` may not run `step`, or undefined when it may
 * (always, when `kept` is empty). The message follows "Step N (action …): " in the run's result.
 */
export function stepRefusal(step: StepLike, kept: readonly string[]): string | undefined {
  if (!kept.length) return undefined;
  const because = `this run types ${kept.length === 1 ? 'the credential' : 'the credentials'} ${listed(
    kept.map((n) => `"${n}"`),
    'and',
  )}, kept to ${kept.length === 1 ? 'its' : 'their'} allowed origins`;
  switch (step.type) {
    case 'waitForExpression':
      return `${because}, so the flow may not run its own script in a page (it could read the field or send it anywhere): wait with waitForElement instead`;
    case 'navigate': {
      const url = typeof step.url === 'string' ? step.url : '';
      const scheme = URL.canParse(url) ? new URL(url).protocol : '';
      if (scheme === 'http:' || scheme === 'https:') return undefined;
      return `${because}, so the flow may only navigate to http and https URLs (a javascript: URL runs script in the page)`;
    }
    case 'keyDown':
    case 'keyUp': {
      const key = typeof step.key === 'string' ? step.key : '';
      if (isSafeKey(key)) return undefined;
      return `${because}, so a key step may press a character, Enter, Tab, Escape, Backspace, Shift, an arrow, Home, End, PageUp or PageDown, not ${JSON.stringify(cut(key, 30))} (shortcuts can copy a field's text out of the page)`;
    }
    case 'click':
    case 'doubleClick':
      if (step.button !== 'auxiliary') return undefined;
      return `${because}, so a click may not use the middle button (it pastes the text last selected, from any page)`;
    default:
      return undefined;
  }
}
