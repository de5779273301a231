import type { ChangeStep } from '@puppeteer/replay';
import type { ElementHandle } from 'puppeteer-core';
import type { Selector } from '../../contract/steps.ts';

/** How long the check looks for the field it just typed into: it is there, unless the page moved on. */
const FIND_MS = 1_000;

/**
 * Whether a change step's text field now holds something other than the value just typed. On a
 * busy host the library's typing (Locator.fill: a key per character) was seen to leave a field
 * with keystrokes doubled; typing once more is then the fix, since fill() clears a field whose
 * value is not a prefix of the wanted one. Only asked of a field in the main frame of the first
 * tab, by a step that expects no navigation: elsewhere the answer is "not off", and the step
 * stands as typed. A field that rewrites what is typed (a mask) reads as off and is typed once
 * more, to the same result; the step never fails on this check.
 */
export async function typedValueOff(
  step: ChangeStep,
  /** The run's own element finder on the first tab (RunExtension.find). */
  find: (selectors: Selector[], timeout: number) => Promise<ElementHandle<Element>>,
): Promise<boolean> {
  if (step.frame?.length || step.target || step.assertedEvents?.length) return false;
  try {
    const handle = await find(step.selectors, FIND_MS);
    try {
      return await handle.evaluate((el, wanted) => {
        const typed =
          el instanceof HTMLTextAreaElement ||
          (el instanceof HTMLInputElement &&
            ['text', 'url', 'tel', 'search', 'password', 'number', 'email'].includes(el.type));
        return typed && (el as HTMLInputElement).value !== wanted;
      }, step.value);
    } finally {
      await handle.dispose();
    }
  } catch {
    return false;
  }
}
