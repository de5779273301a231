import type { Locator, Page } from 'playwright-core';
import type { ToolKit } from './kit.ts';
import { ToolError } from './registry.ts';

/** How an action names its element: `target` (playwright-mcp 0.0.83) or `ref` (ours before), and `element` in words. */
export interface TargetArgs {
  target?: string | undefined;
  ref?: string | undefined;
  element?: string | undefined;
}

/** The element an action is on, and how to name it in answers and the log. */
export interface Located {
  locator: Locator;
  /** `element` when given, else the target itself, quoted for a sentence. */
  label: string;
  /** The ref or selector as given, for the log line. */
  given: string;
}

/** Our refs (`k3f9ab-e5`) and Playwright's own (`e5`, `f1e5`): a target of this form is a ref, never a selector. */
const REF_SHAPED = /^([a-z0-9]{6}-)?(f\d+)?e\d+$/;

export const quoted = (s: string) => JSON.stringify(s.slice(0, 100));

/**
 * The element a target names on the session's page: a ref of its latest snapshot, or a CSS
 * selector that must match exactly one element (`css=`: Playwright's other engines such as
 * `aria-ref=` or `xpath=` are not taken, so a selector cannot reach past what CSS says). A
 * selector that matches none or several is an error saying how many.
 */
export async function locateTarget(kit: ToolKit, sessionId: string, page: Page, args: TargetArgs): Promise<Located> {
  const given = args.target ?? args.ref;
  if (given === undefined) throw new ToolError('give target: a ref from browser_snapshot or a CSS selector');
  const label = quoted(args.element ?? given);
  if (REF_SHAPED.test(given))
    return { locator: page.locator(`aria-ref=${kit.snapshots.resolve(sessionId, given)}`), label, given };
  const locator = page.locator(`css=${given}`);
  let count: number;
  try {
    count = await locator.count();
  } catch {
    throw new ToolError(
      `${quoted(given)} is neither a ref from browser_snapshot (they look like k3f9ab-e5) nor a valid CSS selector`,
    );
  }
  if (count !== 1)
    throw new ToolError(
      `selector ${quoted(given)} matches ${count} elements on the page: it must match exactly one (make it more precise, or take a snapshot and use a ref)`,
    );
  return { locator, label, given };
}
