import { selectorToPElementSelector, type Step as ReplayStep } from '@puppeteer/replay';
import { Locator, type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import {
  credentialsIn,
  keptNames,
  placementRefusal,
  stepRefusal,
  type CredentialOrigins,
  type Placement,
  type StepLike,
} from '../credentials/credentialOrigins.ts';
import { frameOfStep } from './stepFrame.ts';
import { TypedFields } from './typedFields.ts';

// allowed_origins in the browser: what RunExtension asks before each step. The decisions are
// credentialOrigins.ts's; this finds the element a change step types into and where it is, and
// keeps the fields it typed into from being edited (typedFields.ts).

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
  private readonly typed: TypedFields;

  constructor(
    private readonly browser: Browser,
    private readonly page: Page,
    private readonly values: ReadonlyMap<string, string>,
    private readonly origins: CredentialOrigins | undefined,
  ) {
    this.kept = keptNames(values, origins);
    this.typed = new TypedFields(browser, page);
  }

  /**
   * Throws when the run may not take `step` (stepRefusal, TypedFields, placementRefusal). Returns true when it
   * took the step itself: a change step typing a kept credential, typed here into the element it
   * checked. False: the caller runs the step as usual.
   */
  async runStep(step: ReplayStep, timeout: number, fill: (value: string) => string): Promise<boolean> {
    const refused = stepRefusal(step as StepLike, this.kept);
    if (refused) throw new Error(refused);
    await this.typed.check(step, timeout, fill);
    if (step.type !== 'change') return false;
    const names = credentialsIn(step.value, this.values);
    const keptHere = names.filter((name) => this.kept.includes(name));
    if (!keptHere.length) return false;
    const frame = await frameOfStep(this.browser, this.page, step, timeout);
    const handle = (await Locator.race(step.selectors.map((s) => frame.locator(selectorToPElementSelector(s))))
      .setTimeout(timeout)
      .waitHandle()) as ElementHandle<Element>;
    try {
      // The element's own document, checked after it was found: a page that navigated while the
      // step waited is the page checked. The handle dies with its document, and typeInto types
      // only once the element has the focus, so what follows types into this element or fails; it
      // reaches no other page unless one takes over this frame in the milliseconds the keys take
      // (see SECURITY.md).
      const refusal = placementRefusal(names, this.origins, placementOf(handle));
      if (refusal) throw new Error(refusal);
      const navigation = step.assertedEvents?.some((e) => e.type === 'navigation')
        ? frame.waitForNavigation({ timeout })
        : undefined;
      await this.typed.typeInto(handle, keptHere, () =>
        Promise.all([handle.asLocator().setTimeout(timeout).fill(fill(step.value)), navigation]),
      );
    } catch (err) {
      await handle.dispose().catch(() => undefined);
      throw err;
    }
    return true;
  }
}
