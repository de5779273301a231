import path from 'node:path';
import { PuppeteerRunnerExtension, selectorToPElementSelector, type Step, type UserFlow } from '@puppeteer/replay';
import { Locator, type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import type { Selector } from '../../contract/workflows.ts';

/** What a step handed back: the value an extract step read. */
export interface StepOutput {
  as: string;
  value: string;
}

/**
 * @puppeteer/replay's Puppeteer extension plus our two custom steps (DESIGN.md, Workflows):
 * uploadFile sets a file input from the run's upload folder, extract reads text or an attribute.
 * Every other step is replayed by the library itself.
 */
export class RunExtension extends PuppeteerRunnerExtension {
  /** Set by runStep for an extract step; read and cleared by the engine after each step. */
  lastOutput: StepOutput | undefined;

  constructor(
    browser: Browser,
    page: Page,
    private readonly filesDir: string,
    opts?: { timeout?: number },
  ) {
    super(browser, page, opts);
  }

  override async runStep(step: Step, flow?: UserFlow): Promise<void> {
    this.lastOutput = undefined;
    if (step.type !== 'customStep') return super.runStep(step, flow);
    const timeout = step.timeout ?? flow?.timeout ?? this.timeout;
    const params = step.parameters as { selectors: Selector[]; file?: string; as?: string; attribute?: string };
    const handle = await this.find(params.selectors, timeout);
    try {
      if (step.name === 'uploadFile') {
        // path.basename: the contract allows plain names only; this keeps it inside the run's folder regardless.
        await (handle as ElementHandle<HTMLInputElement>).uploadFile(path.join(this.filesDir, path.basename(params.file!)));
      } else if (step.name === 'extract') {
        const value = params.attribute
          ? await handle.evaluate((el, name) => el.getAttribute(name), params.attribute)
          : await handle.evaluate((el) => ((el as HTMLElement).innerText ?? el.textContent ?? '').trim());
        if (value === null) throw new Error(`the element has no ${params.attribute} attribute`);
        this.lastOutput = { as: params.as!, value };
      } else {
        throw new Error(`unknown custom step ${step.name}`);
      }
    } finally {
      await handle.dispose();
    }
  }

  private find(selectors: Selector[], timeout: number): Promise<ElementHandle<Element>> {
    const page = this.page as Page;
    return Locator.race(selectors.map((s) => page.locator(selectorToPElementSelector(s))))
      .setTimeout(timeout)
      .waitHandle() as Promise<ElementHandle<Element>>;
  }
}
