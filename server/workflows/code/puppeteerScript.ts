import {
  formatAsJSLiteral,
  PuppeteerStringifyExtension,
  selectorToPElementSelector,
  type LineWriter,
  type Step as ReplayStep,
  type UserFlow,
} from '@puppeteer/replay';
import type { Step } from '../../../contract/steps.ts';
import { writeCustomStep, type ElementCode } from './customSteps.ts';
import { jsLiteral, quoteKeys } from './jsText.ts';
import { hasPlaceholder, PRINT_OUTPUTS, writeHelpers, writeOpening, type ScriptSource } from './scriptParameters.ts';

/** The line writer of one step, with one exact piece of text replaced wherever it is written. */
function replacingWriter(out: LineWriter, from: string, to: string, seen: { count: number }): LineWriter {
  const writer: LineWriter = {
    appendLine: (line) => {
      const parts = line.split(from);
      seen.count += parts.length - 1;
      out.appendLine(parts.join(to));
      return writer;
    },
    startBlock: () => (out.startBlock(), writer),
    endBlock: () => (out.endBlock(), writer),
    getIndent: () => out.getIndent(),
    getSize: () => out.getSize(),
  };
  return writer;
}

const puppeteerElement: ElementCode = {
  find(out, selectors) {
    const locators = selectors.map((s) => `page.locator(${jsLiteral(selectorToPElementSelector(s))})`);
    out.appendLine(
      `const element = await puppeteer.Locator.race([${locators.join(', ')}]).setTimeout(timeout).waitHandle();`,
    );
  },
  upload: (file) => `await element.uploadFile(${file});`,
};

/**
 * @puppeteer/replay's own Puppeteer script, with the script's start ours (parameters, launch
 * options from the environment), Browserdesk's custom steps written (customSteps.ts), and a
 * navigate url or change value that has `{{…}}` filled when the script runs: the library writes
 * `.goto(LITERAL)` / `.fill(LITERAL)`, and that exact text becomes `.goto(filled(parameters, LITERAL))`.
 * Steps go to the library with their keys quoted (jsText.ts quoteKeys).
 */
export class BrowserdeskPuppeteerExtension extends PuppeteerStringifyExtension {
  constructor(private readonly source: ScriptSource) {
    super();
  }

  // The library's own start is replaced whole: it launches puppeteer's bundled browser with no way to set one.
  override async beforeAllSteps(out: LineWriter, flow: UserFlow): Promise<void> {
    writeOpening(out, this.source, 'puppeteer', flow.timeout);
  }

  override async afterAllSteps(out: LineWriter, flow: UserFlow): Promise<void> {
    out.appendLine('');
    out.appendLine(PRINT_OUTPUTS);
    await super.afterAllSteps(out, flow);
    writeHelpers(out);
  }

  override async stringifyStep(out: LineWriter, replayStep: ReplayStep, flow: UserFlow): Promise<void> {
    const step = replayStep as unknown as Step;
    // The step's own object, as stringify passes it from the flow: its place there.
    const index = flow.steps.indexOf(replayStep);
    if (step.type === 'customStep') return writeCustomStep(out, step, index, puppeteerElement);
    const safe = quoteKeys(step) as ReplayStep;
    const text = step.type === 'navigate' ? step.url : step.type === 'change' ? step.value : undefined;
    if (text === undefined || !hasPlaceholder(text)) return super.stringifyStep(out, safe, flow);
    const call = step.type === 'navigate' ? 'goto' : 'fill';
    const literal = formatAsJSLiteral(text);
    const seen = { count: 0 };
    const writer = replacingWriter(out, `.${call}(${literal})`, `.${call}(filled(parameters, ${literal}))`, seen);
    await super.stringifyStep(writer, safe, flow);
    if (seen.count !== 1)
      throw new Error(`@puppeteer/replay wrote step ${index + 1}'s ${call} in a way this extension does not know`);
  }
}
