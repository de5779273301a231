import path from 'node:path';
import { PuppeteerRunnerExtension, selectorToPElementSelector, type Step, type UserFlow } from '@puppeteer/replay';
import { Locator, type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { credentialOf, PLACEHOLDER, type Selector } from '../../contract/workflows.ts';
import { CredentialOriginGuard } from './credentialGuard.ts';
import type { CredentialOrigins } from '../credentials/credentialOrigins.ts';

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
/** How long a navigate step without a timeout of its own (or its flow's) waits for the page to load: Puppeteer's default. */
const NAVIGATION_TIMEOUT_MS = 30_000;

/** `{{credentials.NAME}}` in a change value, filled from the run's credentials (the contract only allows them there). */
function fillCredentials(value: string, credentials: ReadonlyMap<string, string>): string {
  return value.replace(PLACEHOLDER, (whole, inner: string) => {
    const name = credentialOf(inner);
    return (name !== undefined && credentials.get(name)) || whole;
  });
}

export class RunExtension extends PuppeteerRunnerExtension {
  /** Set by runStep for an extract step; read and cleared by the engine after each step. */
  lastOutput: StepOutput | undefined;

  private readonly credentials: ReadonlyMap<string, string>;
  private readonly pauseHere: (message: string) => Promise<void>;
  /** The flow's own timeout, when it sets one (the library's `timeout` falls back to 5 s). */
  private readonly flowTimeout: number | undefined;
  private readonly origins: CredentialOriginGuard;

  constructor(
    browser: Browser,
    page: Page,
    private readonly filesDir: string,
    opts: {
      timeout?: number;
      /** Values for `{{credentials.NAME}}` in change steps, by name. */
      credentials?: ReadonlyMap<string, string>;
      /** Where each of those may be typed, by name (allowed_origins; [] any page). Left out: what reveal() read with those values, if they are its map; else none is typed. */
      credentialOrigins?: CredentialOrigins;
      /** The pause step: close the run's gate and wait for a person to resume it. */
      pauseHere?: (message: string) => Promise<void>;
    } = {},
  ) {
    super(browser, page, { timeout: opts.timeout });
    this.flowTimeout = opts.timeout;
    this.credentials = opts.credentials ?? new Map();
    this.pauseHere = opts.pauseHere ?? (() => Promise.reject(new Error('this run cannot pause')));
    this.origins = new CredentialOriginGuard(browser, page, this.credentials, opts.credentialOrigins);
  }

  override async runStep(step: Step, flow?: UserFlow): Promise<void> {
    this.lastOutput = undefined;
    // The library's goto waits for the page's default (30 s) whatever timeout the step or flow sets:
    // one they set bounds the navigation itself; without one a page has Puppeteer's 30 s to load.
    if (step.type === 'navigate')
      (this.page as Page).setDefaultNavigationTimeout(
        step.timeout ?? flow?.timeout ?? this.flowTimeout ?? NAVIGATION_TIMEOUT_MS,
      );
    // allowed_origins: refuses what a run typing a kept credential may not do, and types such a credential itself (credentialGuard.ts).
    if (
      await this.origins.runStep(step, step.timeout ?? flow?.timeout ?? this.timeout, (value) =>
        fillCredentials(value, this.credentials),
      )
    )
      return;
    // The value is typed, never written back into the step: results and events show the placeholder.
    if (step.type === 'change')
      return super.runStep({ ...step, value: fillCredentials(step.value, this.credentials) }, flow);
    if (step.type !== 'customStep') return super.runStep(step, flow);
    if (step.name === 'pause') return this.pauseHere((step.parameters as { message: string }).message);
    const timeout = step.timeout ?? flow?.timeout ?? this.timeout;
    const params = step.parameters as { selectors: Selector[]; file?: string; as?: string; attribute?: string };
    const handle = await this.find(params.selectors, timeout);
    try {
      if (step.name === 'uploadFile') {
        // path.basename: the contract allows plain names only; this keeps it inside the run's folder regardless.
        await (handle as ElementHandle<HTMLInputElement>).uploadFile(
          path.join(this.filesDir, path.basename(params.file!)),
        );
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
