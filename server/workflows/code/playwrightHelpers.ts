import type { LineWriter } from '@puppeteer/replay';

/**
 * The functions a Playwright script calls for what Playwright has no one call for: a Recorder
 * change step (a <select> is chosen, anything else filled), a step on another page (a popup, by
 * its URL), an asserted navigation, and a waitForElement step as @puppeteer/replay's own script
 * checks it (the first alternative that matches, its count, attributes and properties).
 */
const HELPERS = `
/** A Recorder change step: a <select> takes the option, any other field the text. */
async function changeValue(element, value, timeout) {
  if ((await element.evaluate((el) => el.tagName, undefined, { timeout })) === 'SELECT') await element.selectOption(value, { timeout });
  else await element.fill(value, { timeout });
}

/** The page a step names by its URL (a popup), once it is open. */
async function pageWithUrl(context, url, timeout) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const found = context.pages().find((p) => p.url() === url);
    if (found) return found;
    if (Date.now() > deadline) throw new Error('No page at ' + url + ' within ' + timeout + ' ms');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resolves once the page's main frame has navigated and loaded: a step's asserted navigation. */
function nextNavigation(page, timeout) {
  return page
    .waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout })
    .then(() => page.waitForLoadState('load', { timeout }));
}

/** A waitForElement step: polled until what it asks holds (visible: false, until it does not). */
async function waitForElement(alternatives, { count = 1, operator = '>=', visible = true, properties, attributes }, timeout) {
  const compare = { '==': (a, b) => a === b, '>=': (a, b) => a >= b, '<=': (a, b) => a <= b }[operator];
  const deadline = Date.now() + timeout;
  for (;;) {
    let found = alternatives[alternatives.length - 1];
    for (const alternative of alternatives)
      if (await alternative.count()) {
        found = alternative;
        break;
      }
    let holds = compare(await found.count(), count);
    if (holds && (properties || attributes))
      holds = await found.evaluateAll((elements, [properties, attributes]) => {
        const deepMatch = (a, b) =>
          a === b || (a instanceof Object && b instanceof Object && Object.entries(a).every(([k, v]) => deepMatch(v, b[k])));
        return elements.every(
          (el) =>
            Object.entries(attributes || {}).every(([name, value]) => el.getAttribute(name) === value) &&
            (!properties || deepMatch(properties, el)),
        );
      }, [properties, attributes]);
    if (holds === visible) return;
    if (Date.now() > deadline) throw new Error('waitForElement: not within ' + timeout + ' ms');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}`;

export function writePlaywrightHelpers(out: LineWriter) {
  for (const line of HELPERS.split('\n')) out.appendLine(line);
}
