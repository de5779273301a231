import { selectorToPElementSelector, type ChangeStep, type Step as ReplayStep } from '@puppeteer/replay';
import { Locator, type Browser, type ElementHandle, type Frame, type Page } from 'puppeteer-core';
import { credentialOf, placeholdersOf } from '../../contract/workflows.ts';

/**
 * allowed_origins (store_credential): a credential kept to some origins is typed only into a page
 * of one of them. A page that receives a secret can always transform it and hand it back
 * (`btoa(value)` read by an extract step gets past redaction, which matches the exact value only),
 * so the runner decides where a secret may go rather than what may come back:
 *
 * - the field it is typed into must be in a document of an allowed origin, and so must every frame
 *   around it and the page that opened its window (either can navigate it while it is being typed);
 * - a run that types such a credential runs none of the flow's own script (waitForExpression, a
 *   javascript: URL), which could read the field or post it anywhere from inside the allowed page,
 *   and presses no key or button that moves text out of a field (Ctrl/Meta shortcuts, Insert and
 *   Delete, a middle click pasting the X selection).
 *
 * The decisions are pure functions (unit-tested in test/credentialOrigins.test.ts); the one thing
 * that touches the browser is CredentialOriginGuard, which RunExtension.runStep calls first.
 */

/** Where each credential may be typed, by name: its allowed_origins ([]: any page). */
export type CredentialOrigins = ReadonlyMap<string, readonly string[]>;

/**
 * In-thread hand-over: CredentialsService.reveal() keeps the origins it read with the values for
 * the map it returns, so a RunExtension given that map finds them without the engine passing them.
 * A map that crossed to another thread (structured clone) is not found, and then the runner types
 * no credential at all: pass RunExtension's credentialOrigins instead.
 */
const revealedOrigins = new WeakMap<ReadonlyMap<string, string>, CredentialOrigins>();
export function rememberOrigins(values: ReadonlyMap<string, string>, origins: CredentialOrigins): void {
  revealedOrigins.set(values, origins);
}
export function originsRevealedWith(values: ReadonlyMap<string, string>): CredentialOrigins | undefined {
  return revealedOrigins.get(values);
}

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
const listed = (items: readonly string[], last: 'or' | 'and') => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`);

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
export function placementRefusal(names: readonly string[], origins: CredentialOrigins | undefined, placement: Placement): string | undefined {
  for (const name of names) {
    const allowed = origins?.get(name);
    if (!allowed) return `the runner was not told where the credential "${name}" may be typed (its allowed_origins), so it types it nowhere`;
    if (allowed.length === 0) continue;
    const only = `the credential "${name}" may only be typed into ${listed(allowed, 'or')}`;
    const ok = (url: string) => allowed.includes(originOfUrl(url));
    if (!ok(placement.frame)) return `${only}; this page is ${shown(placement.frame)}`;
    const outside = placement.parents.find((url) => !ok(url));
    if (outside !== undefined) return `${only}; this field is in a frame of ${shown(placement.frame)} inside ${shown(outside)}, which can navigate it`;
    if (placement.opener !== undefined && !ok(placement.opener)) {
      return `${only}; this page of ${shown(placement.frame)} was opened by ${shown(placement.opener)}, which can navigate it`;
    }
  }
  return undefined;
}

/** Keys a key step may press in a run that types a kept credential: none of them moves text out of a field. */
const SAFE_KEYS = new Set(['Enter', 'Tab', 'Escape', 'Backspace', 'Shift', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);
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
  const because = `this run types ${kept.length === 1 ? 'the credential' : 'the credentials'} ${listed(kept.map((n) => `"${n}"`), 'and')}, kept to ${kept.length === 1 ? 'its' : 'their'} allowed origins`;
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

/** The page or frame a Recorder step acts in, found as @puppeteer/replay finds it (its `target`, then its `frame` indices). */
async function frameOfStep(browser: Browser, page: Page, step: ChangeStep, timeout: number): Promise<Frame> {
  let pageOrFrame: Page | Frame = page;
  if (step.target && step.target !== 'main') {
    const target = await browser.waitForTarget((t) => t.url() === step.target, { timeout });
    pageOrFrame = (await target.page()) ?? (await page.waitForFrame(step.target, { timeout }));
  }
  let frame = 'mainFrame' in pageOrFrame ? pageOrFrame.mainFrame() : pageOrFrame;
  for (const index of step.frame ?? []) {
    const child = frame.childFrames()[index];
    if (!child) throw new Error(`the page has no frame ${step.frame!.join('.')}`);
    frame = child;
  }
  return frame;
}

/** Where an element is: its document, the frames around it, the page that opened its window. */
function placementOf(handle: ElementHandle): Placement {
  const parents: string[] = [];
  for (let f = handle.frame.parentFrame(); f; f = f.parentFrame()) parents.push(f.url());
  const opener = handle.frame.page().target().opener();
  return { frame: handle.frame.url(), parents, ...(opener ? { opener: opener.url() } : {}) };
}

/**
 * What RunExtension asks before each step. Built with the run's credential values and where each
 * may go (RunExtension's credentialOrigins; without them, what reveal() kept for those values).
 */
export class CredentialOriginGuard {
  private readonly kept: string[];

  constructor(
    private readonly browser: Browser,
    private readonly page: Page,
    private readonly values: ReadonlyMap<string, string>,
    private readonly origins: CredentialOrigins | undefined,
  ) {
    this.kept = keptNames(values, origins);
  }

  /**
   * Throws when the run may not take `step` (stepRefusal, placementRefusal). Returns true when it
   * took the step itself: a change step typing a kept credential, typed here into the element it
   * checked. False: the caller runs the step as usual.
   */
  async runStep(step: ReplayStep, timeout: number, fill: (value: string) => string): Promise<boolean> {
    const refused = stepRefusal(step as StepLike, this.kept);
    if (refused) throw new Error(refused);
    if (step.type !== 'change') return false;
    const names = credentialsIn(step.value, this.values);
    if (!names.some((name) => this.kept.includes(name))) return false;
    const frame = await frameOfStep(this.browser, this.page, step, timeout);
    const handle = (await Locator.race(step.selectors.map((s) => frame.locator(selectorToPElementSelector(s))))
      .setTimeout(timeout)
      .waitHandle()) as ElementHandle<Element>;
    try {
      // The element's own document, checked after it was found: a page that navigated while the
      // step waited is the page checked. The handle dies with its document, so what follows types
      // into this element or fails; it reaches no other page unless one takes over this frame in
      // the milliseconds the keys take (see SECURITY.md).
      const refusal = placementRefusal(names, this.origins, placementOf(handle));
      if (refusal) throw new Error(refusal);
      const navigation = step.assertedEvents?.some((e) => e.type === 'navigation') ? frame.waitForNavigation({ timeout }) : undefined;
      await Promise.all([handle.asLocator().setTimeout(timeout).fill(fill(step.value)), navigation]);
    } finally {
      await handle.dispose().catch(() => undefined);
    }
    return true;
  }
}
