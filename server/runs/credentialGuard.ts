import { selectorToPElementSelector, type Step as ReplayStep } from '@puppeteer/replay';
import type { Selector } from '../../contract/steps.ts';
import { Locator, type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import {
  keptNames,
  placementRefusal,
  stepRefusal,
  type CredentialOrigins,
  type Placement,
  type StepLike,
} from '../credentials/credentialOrigins.ts';
import { fieldKindRefusal, sealedSelectors, sealedStepRefusal } from '../credentials/sealedPage.ts';
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

/** In the page: the element as the input rule names it, `input[type=…]` or its tag (with ` contenteditable` when it is). */
function kindOf(el: Element): string {
  if (el instanceof HTMLInputElement) return `input[type=${el.type}]`;
  return `${el.localName}${el instanceof HTMLElement && el.isContentEditable ? ' contenteditable' : ''}`;
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
   * Throws when the run may not take `step` (stepRefusal, the sealed page rule, TypedFields,
   * placementRefusal, the input rule). Returns undefined when it took the step itself: a change
   * step typing a kept credential, typed here into the element it checked. Otherwise the step for
   * the caller to run as usual: while a page a kept credential was typed into is there, with its
   * CSS selectors only (credentials/sealedPage.ts). `typed`, for a change step: the credentials its
   * template types and the value it types, filled.
   */
  async runStep(
    filled: ReplayStep,
    timeout: number,
    typed: { names: readonly string[]; value: string } | undefined,
  ): Promise<ReplayStep | undefined> {
    const refused = stepRefusal(filled as StepLike, this.kept);
    if (refused) throw new Error(refused);
    const step = await this.sealed(filled);
    await this.typed.check(step, timeout, typed?.value ?? '');
    if (step.type !== 'change' || !typed) return step;
    const names = typed.names;
    const keptHere = names.filter((name) => this.kept.includes(name));
    if (!keptHere.length) return step;
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
      const refusal =
        placementRefusal(names, this.origins, placementOf(handle)) ??
        fieldKindRefusal(keptHere, await handle.evaluate(kindOf));
      if (refusal) throw new Error(refusal);
      const navigation = step.assertedEvents?.some((e) => e.type === 'navigation')
        ? frame.waitForNavigation({ timeout })
        : undefined;
      await this.typed.typeInto(handle, keptHere, () =>
        Promise.all([handle.asLocator().setTimeout(timeout).fill(typed.value), navigation]),
      );
    } catch (err) {
      await handle.dispose().catch(() => undefined);
      throw err;
    }
    return undefined;
  }

  /** The sealed page rule: refuses a step that reads the page while one is sealed, and leaves the others their CSS selectors only. */
  private async sealed(step: ReplayStep): Promise<ReplayStep> {
    const names = await this.typed.sealedBy();
    if (!names.length) return step;
    const refusal = sealedStepRefusal(step, names);
    if (refusal) throw new Error(refusal);
    const out = { ...step } as ReplayStep & { selectors?: Selector[]; parameters?: { selectors?: Selector[] } };
    if (Array.isArray(out.selectors)) out.selectors = sealedSelectors(out.selectors, names);
    if (out.type === 'customStep' && Array.isArray(out.parameters?.selectors))
      out.parameters = { ...out.parameters, selectors: sealedSelectors(out.parameters.selectors, names) };
    return out;
  }
}
