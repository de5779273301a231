import type { Selector } from '../../../contract/steps.ts';
import { jsLiteral } from './jsText.ts';

/**
 * Chrome Recorder selectors as Playwright locators. A step's selectors are alternatives for one
 * element; a run takes whichever matches first (puppeteer's Locator.race), the script their union
 * (`.or()`), first match. A selector that is a list is a path through shadow roots, which
 * Playwright's locators pierce as they chain. Each part by its prefix:
 * - `aria/Name[role="button"]`: getByRole(role, {name, exact}); without a role, getByLabel(name, {exact}).
 * - `text/…`: getByText (Puppeteer's text/ matches an element containing the text, as getByText does).
 * - `xpath/…`: an `xpath=` locator; `pierce/…` and plain CSS: a `css=` locator (Playwright's CSS pierces shadow roots).
 */

/** puppeteer's own parse of an aria selector's `[role="…"]` / `[name="…"]` attributes. */
const ARIA_ATTRIBUTE = /\[\s*(?<attribute>\w+)\s*=\s*(?<quote>"|')(?<value>\\.|.*?(?=\k<quote>))\k<quote>\s*\]/g;

function ariaLocator(root: string, query: string): string {
  let role: string | undefined;
  let named: string | undefined;
  const rest = query.replace(ARIA_ATTRIBUTE, (_all, attribute: string, _quote: string, value: string) => {
    if (attribute === 'role') role = value;
    else if (attribute === 'name') named = value;
    return '';
  });
  const name = named ?? rest.trim();
  if (role === undefined) return `${root}.getByLabel(${jsLiteral(name)}, { exact: true })`;
  const options = name ? `{ name: ${jsLiteral(name)}, exact: true }` : '{}';
  return `${root}.getByRole(${jsLiteral(role)}, ${options})`;
}

function partLocator(root: string, part: string): string {
  if (part.startsWith('aria/')) return ariaLocator(root, part.slice('aria/'.length));
  if (part.startsWith('text/')) return `${root}.getByText(${jsLiteral(part.slice('text/'.length))})`;
  if (part.startsWith('xpath/')) return `${root}.locator(${jsLiteral(`xpath=${part.slice('xpath/'.length)}`)})`;
  const css = part.startsWith('pierce/') ? part.slice('pierce/'.length) : part;
  return `${root}.locator(${jsLiteral(`css=${css}`)})`;
}

/** One alternative: a selector, or a chain of them through shadow roots. */
const alternativeLocator = (root: string, selector: Selector): string =>
  (Array.isArray(selector) ? selector : [selector]).reduce(partLocator, root);

/** A locator expression for the element a step's selectors name, searched from `root` (a page or frame expression). */
export function locatorOf(root: string, selectors: Selector[]): string {
  const [first, ...others] = selectors.map((s) => alternativeLocator(root, s));
  return others.reduce((union, next) => `${union}.or(${next})`, first!);
}

/** Each alternative on its own, for a step that counts matches (waitForElement takes the first that matches any). */
export const alternativesOf = (root: string, selectors: Selector[]): string =>
  `[${selectors.map((s) => alternativeLocator(root, s)).join(', ')}]`;
