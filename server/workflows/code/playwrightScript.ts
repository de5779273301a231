import { StringifyExtension, type LineWriter, type Step as ReplayStep, type UserFlow } from '@puppeteer/replay';
import type { Step } from '../../../contract/steps.ts';
import { writeCustomStep, type ElementCode } from './customSteps.ts';
import { jsLiteral } from './jsText.ts';
import { writePlaywrightHelpers } from './playwrightHelpers.ts';
import { alternativesOf, locatorOf } from './playwrightLocators.ts';
import { PRINT_OUTPUTS, textExpression, writeHelpers, writeOpening, type ScriptSource } from './scriptParameters.ts';

/** Recorder mouse buttons as Playwright names them; it has no back or forward button, so those click the left one. */
const BUTTONS: Record<string, string> = { primary: 'left', auxiliary: 'middle', secondary: 'right' };

const playwrightElement: ElementCode = {
  find(out, selectors) {
    out.appendLine(`const element = ${locatorOf('page', selectors)}.first();`);
    out.appendLine('await element.waitFor({ timeout });');
  },
  upload: (file) => `await element.setInputFiles(${file});`,
};

type Clicked = Extract<Step, { type: 'click' | 'doubleClick' }>;

function clickOptions(step: Clicked): string {
  const options = [`position: { x: ${step.offsetX}, y: ${step.offsetY} }`, 'timeout'];
  if (step.button) options.push(`button: ${jsLiteral(BUTTONS[step.button] ?? 'left')}`);
  if (step.duration) options.push(`delay: ${step.duration}`);
  return `{ ${options.join(', ')} }`;
}

/** The statement that does a (non-custom) step, on `root` (the step's page or frame). */
function actionOf(step: Exclude<Step, { type: 'customStep' }>, root: string): string {
  switch (step.type) {
    case 'setViewport':
      return `await targetPage.setViewportSize({ width: ${step.width}, height: ${step.height} });`;
    case 'navigate':
      return `await targetPage.goto(${textExpression(step.url)}, { timeout });`;
    case 'click':
      return `await ${locatorOf(root, step.selectors)}.first().click(${clickOptions(step)});`;
    case 'doubleClick':
      return `await ${locatorOf(root, step.selectors)}.first().dblclick(${clickOptions(step)});`;
    case 'hover':
      return `await ${locatorOf(root, step.selectors)}.first().hover({ timeout });`;
    case 'change':
      return `await changeValue(${locatorOf(root, step.selectors)}.first(), ${textExpression(step.value)}, timeout);`;
    case 'keyDown':
      return `await targetPage.keyboard.down(${jsLiteral(step.key)});`;
    case 'keyUp':
      return `await targetPage.keyboard.up(${jsLiteral(step.key)});`;
    case 'scroll': {
      const to = jsLiteral([step.x ?? 0, step.y ?? 0]);
      return step.selectors
        ? `await ${locatorOf(root, step.selectors)}.first().evaluate((el, [x, y]) => { el.scrollLeft = x; el.scrollTop = y; }, ${to}, { timeout });`
        : `await targetPage.evaluate(([x, y]) => window.scroll(x, y), ${to});`;
    }
    case 'waitForElement': {
      const { count, operator, visible, properties, attributes } = step;
      const options = jsLiteral({ count, operator, visible, properties, attributes });
      return `await waitForElement(${alternativesOf(root, step.selectors)}, ${options}, timeout);`;
    }
    case 'waitForExpression':
      // The flow's own page script, as a run evaluates it in the page (never in this Node process).
      return `await ${root}.waitForFunction(${jsLiteral(step.expression)}, undefined, { timeout });`;
    case 'close':
      return 'await targetPage.close();';
    case 'emulateNetworkConditions': {
      const conditions = jsLiteral({
        offline: !step.download && !step.upload,
        downloadThroughput: step.download,
        uploadThroughput: step.upload,
        latency: step.latency,
      });
      return `await (await context.newCDPSession(targetPage)).send('Network.emulateNetworkConditions', ${conditions});`;
    }
  }
}

/**
 * A Playwright script from a Recorder flow, written as @puppeteer/replay's stringify writes the
 * Puppeteer one (this is its StringifyExtension): no maintained extension for Playwright fits (the
 * one on npm targets @puppeteer/replay 2 and writes @playwright/test files through a CLI), so this
 * is ours. Every step is a block; step text is written as data (jsText.ts), `{{…}}` filled when
 * the script runs (scriptParameters.ts).
 */
export class PlaywrightStringifyExtension extends StringifyExtension {
  constructor(private readonly source: ScriptSource) {
    super();
  }

  override async beforeAllSteps(out: LineWriter, flow: UserFlow): Promise<void> {
    writeOpening(out, this.source, 'playwright', flow.timeout);
  }

  override async afterAllSteps(out: LineWriter): Promise<void> {
    out.appendLine('');
    out.appendLine(PRINT_OUTPUTS);
    out.appendLine('await browser.close();');
    out.endBlock().appendLine('})().catch((err) => {').startBlock();
    out.appendLine('console.error(err);');
    out.appendLine('process.exit(1);');
    out.endBlock().appendLine('});');
    writeHelpers(out);
    writePlaywrightHelpers(out);
  }

  override async stringifyStep(out: LineWriter, replayStep: ReplayStep, flow: UserFlow): Promise<void> {
    const step = replayStep as unknown as Step;
    // The step's own object, as stringify passes it from the flow: its place there.
    const index = flow.steps.indexOf(replayStep);
    if (step.type === 'customStep') return writeCustomStep(out, step, index, playwrightElement);
    out.appendLine('{').startBlock();
    if (step.timeout !== undefined) out.appendLine(`const timeout = ${step.timeout};`);
    const target = step.target ?? 'main';
    out.appendLine(
      target === 'main'
        ? 'const targetPage = page;'
        : `const targetPage = await pageWithUrl(context, ${jsLiteral(target)}, timeout);`,
    );
    if (step.frame) {
      out.appendLine('let frame = targetPage.mainFrame();');
      for (const i of step.frame) out.appendLine(`frame = frame.childFrames()[${i}];`);
    }
    const navigates = step.type !== 'navigate' && step.assertedEvents?.some((e) => e.type === 'navigation');
    if (navigates) out.appendLine('const navigation = nextNavigation(targetPage, timeout);');
    out.appendLine(actionOf(step, step.frame ? 'frame' : 'targetPage'));
    if (navigates) out.appendLine('await navigation;');
    out.endBlock().appendLine('}');
  }
}
