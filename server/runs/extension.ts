import path from 'node:path';
import {
  PuppeteerRunnerExtension,
  selectorToPElementSelector,
  type ChangeStep,
  type KeyDownStep,
  type KeyUpStep,
  type Step,
  type UserFlow,
} from '@puppeteer/replay';
import { Locator, type Browser, type ElementHandle, type KeyInput, type Page } from 'puppeteer-core';
import { ACT_DEFAULT_STEPS, DEFAULT_EXTRACT_AS, type Selector } from '../../contract/steps.ts';
import type { AiRequest } from './engine/messages.ts';
import { CredentialOriginGuard } from './credentialGuard.ts';
import { againWhenReplaced } from './documentReplaced.ts';
import { typedValueOff } from './typedValueCheck.ts';
import { NAVIGATION_TIMEOUT_MS } from './engine/stepTimeout.ts';
import { credentialsIn, type CredentialOrigins } from '../credentials/credentialOrigins.ts';
import { fillStep, fillTemplate, type FillSources, type VariableValues } from './fillTemplate.ts';

/** What a step handed back: the value an extract step read. */
export interface StepOutput {
  as: string;
  value: string;
}

/** Steps whose selectors self-healing may repair: what acts on one element a person pointed at. */
const HEALABLE = new Set(['click', 'doubleClick', 'change', 'hover']);

/** puppeteer's Locator gave up waiting: none of the step's selectors matched (in time). */
const noElementMatched = (err: unknown) =>
  err instanceof Error && (err.name === 'TimeoutError' || /^Timed out after waiting/.test(err.message));

const firstLineOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 500);

/**
 * @puppeteer/replay's Puppeteer extension plus our custom steps (contract/steps.ts): uploadFile
 * sets a file input from the run's upload folder, extract reads text or an attribute (or, with an
 * instruction, asks the model), act lets the agent do an instruction, pause waits for a person.
 * Every other step is replayed by the library itself; with self-healing, a click/change/hover none
 * of whose selectors matches asks the model for its element and is tried once more with that.
 */
export class RunExtension extends PuppeteerRunnerExtension {
  /** Set by runStep for an extract step; read and cleared by the engine after each step. */
  lastOutput: StepOutput | undefined;
  /** Set by runStep for an act step: the agent's summary, shown as the step's result (not an output). */
  lastSummary: string | undefined;
  /** Set by runStep for a step self-healing repaired (and that then succeeded); read by the engine after each step. */
  lastHeal: { oldSelectors: unknown[]; newSelectors: string[][] } | undefined;

  private readonly credentials: ReadonlyMap<string, string>;
  private readonly pauseHere: (message: string) => Promise<string | null>;
  /** The pause steps' answers so far, by variable: filled into later steps' `{{name}}`. */
  private readonly answers = new Map<string, string>();
  /** The run's variables and the names its pause steps answer: with the answers, what a step's template is filled from. */
  private readonly fillFrom: FillSources;
  /** The flow's own timeout, when it sets one (the library's `timeout` falls back to 5 s). */
  private readonly flowTimeout: number | undefined;
  private readonly origins: CredentialOriginGuard;
  private readonly ai: (request: AiRequest) => Promise<unknown>;
  private readonly heal: boolean;
  /** The tabs (by URL) a keyDown step pressed a key on, for keyInTab. */
  private readonly keyTabs = new Set<string>();

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
      /** The pause step: close the run's gate and wait for a person to resume it; resolves with their answer, if they sent one. */
      pauseHere?: (message: string) => Promise<string | null>;
      /** The server's model, for AI steps and self-healing (engine/thread.ts's bridge). */
      ai?: (request: AiRequest) => Promise<unknown>;
      /** Self-healing asked for (run_workflow's heal). */
      heal?: boolean;
      /** The run's variables, filled into each step's template as it runs (a flow filled beforehand needs none). */
      variables?: VariableValues;
      /** The names the flow's pause steps store answers in (contract/steps.ts answerVariablesOf). */
      answerNames?: ReadonlySet<string>;
    } = {},
  ) {
    super(browser, page, { timeout: opts.timeout });
    this.flowTimeout = opts.timeout;
    this.credentials = opts.credentials ?? new Map();
    this.pauseHere = opts.pauseHere ?? (() => Promise.reject(new Error('this run cannot pause')));
    this.origins = new CredentialOriginGuard(browser, page, this.credentials, opts.credentialOrigins);
    this.ai = opts.ai ?? (() => Promise.reject(new Error('this run cannot ask a model')));
    this.heal = opts.heal ?? false;
    this.fillFrom = { variables: opts.variables, answerNames: opts.answerNames, answers: this.answers };
  }

  override async runStep(recorded: Step, flow?: UserFlow): Promise<void> {
    // `recorded` is the stored template. Filled here, at the last moment and in one pass
    // (fillTemplate.ts): the step as reported keeps the answers' and credentials' placeholders,
    // and what a variable or an answer brought in is never read for placeholders again.
    const filled = fillStep(recorded, this.fillFrom);
    const typed =
      recorded.type === 'change'
        ? {
            names: credentialsIn(recorded.value, this.credentials),
            value: fillTemplate(recorded.value, { ...this.fillFrom, credentials: this.credentials }),
          }
        : undefined;
    this.lastOutput = undefined;
    this.lastHeal = undefined;
    this.lastSummary = undefined;
    // The library's goto waits for the page's default (30 s) whatever timeout the step or flow sets:
    // one they set bounds the navigation itself; without one a page has Puppeteer's 30 s to load.
    if (filled.type === 'navigate')
      (this.page as Page).setDefaultNavigationTimeout(
        filled.timeout ?? flow?.timeout ?? this.flowTimeout ?? NAVIGATION_TIMEOUT_MS,
      );
    // allowed_origins: refuses what a run typing a kept credential may not do, types such a
    // credential itself, and while a page it was typed into is there, leaves the step CSS
    // selectors only (credentialGuard.ts). Undefined: the guard took the step.
    const step = await this.origins.runStep(filled, filled.timeout ?? flow?.timeout ?? this.timeout, typed);
    if (!step) return;
    // The value is typed, never written back into the step: results and events show the placeholder.
    if (step.type === 'change')
      return this.healing(step, async (s) => {
        const typing = { ...s, value: typed!.value } as ChangeStep;
        await super.runStep(typing, flow);
        // Typed once more when the field holds something else (typedValueCheck.ts): typing twice is harmless, a doubled value is not.
        if (await typedValueOff(typing, (sel, ms) => this.find(sel, ms))) await super.runStep(typing, flow);
      });
    // A wait only reads the page, so one whose document was replaced under it (a page back from the
    // back/forward cache mid-wait) is asked again of the new document instead of failing the step.
    if (step.type === 'waitForElement' || step.type === 'waitForExpression')
      return againWhenReplaced(() => super.runStep(step, flow), 3);
    if ((step.type === 'keyDown' || step.type === 'keyUp') && step.target && step.target !== 'main')
      return this.keyInTab(step, step.timeout ?? flow?.timeout ?? this.timeout);
    if (step.type !== 'customStep') return this.healing(step, (s) => super.runStep(s, flow));
    if (step.name === 'pause') {
      const { message, variable } = step.parameters as { message: string; variable?: string };
      const answer = await this.pauseHere(message);
      if (variable !== undefined) this.answers.set(variable, answer ?? '');
      return;
    }
    if (step.name === 'act') {
      const { instruction, max_steps } = step.parameters as { instruction: string; max_steps?: number };
      const summary = await this.ai({ kind: 'act', params: { instruction, maxSteps: max_steps ?? ACT_DEFAULT_STEPS } });
      this.lastSummary = typeof summary === 'string' ? summary : undefined;
      return;
    }
    const timeout = step.timeout ?? flow?.timeout ?? this.timeout;
    const params = step.parameters as {
      selectors?: Selector[];
      file?: string;
      as?: string;
      attribute?: string;
      instruction?: string;
      schema?: Record<string, unknown>;
      selector?: string;
    };
    if (step.name === 'extract' && params.instruction !== undefined) {
      const { instruction, schema, selector } = params;
      const value = await this.ai({ kind: 'extract', params: { instruction, schema, selector } });
      // outputs are text: the JSON answer as JSON text, typed again in structured_output (workflows/structuredOutput.ts).
      this.lastOutput = { as: params.as ?? DEFAULT_EXTRACT_AS, value: JSON.stringify(value) };
      return;
    }
    const handle = await this.find(params.selectors!, timeout);
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

  /**
   * Run a step; when self-healing is on and none of a click/change/hover's selectors matched, ask
   * the model for the element it meant and run it once more with the selectors found. The repair
   * is reported (lastHeal → a StepHealed event), never silent; a failed repair says so in the
   * step's error. Its messages avoid "timed out": stepFailure.ts would otherwise replace them with
   * its plain "no element matched" hint.
   */
  private async healing(step: Step, run: (step: Step) => Promise<void>): Promise<void> {
    try {
      await run(step);
    } catch (err) {
      const selectors = (step as { selectors?: unknown[] }).selectors;
      if (!this.heal || !HEALABLE.has(step.type) || !selectors || !noElementMatched(err)) throw err;
      const none = "none of the step's selectors matched";
      let found: string[][] | null;
      try {
        found = (await this.ai({ kind: 'heal', params: { type: step.type, selectors } })) as string[][] | null;
      } catch (healErr) {
        throw new Error(`${none}, and self-healing could not ask the model: ${firstLineOf(healErr)}`, {
          cause: healErr,
        });
      }
      if (!found?.length)
        throw new Error(`${none}; self-healing asked the model, which found no element on the page for this step`, {
          cause: err,
        });
      try {
        await run({ ...step, selectors: found } as Step);
      } catch (retryErr) {
        throw new Error(
          `${none}; self-healing found ${JSON.stringify(found[0])}, which failed too: ${firstLineOf(retryErr).replace(/timed? ?out|timeout|waiting for/gi, 'gave up')}`,
          { cause: retryErr },
        );
      }
      this.lastHeal = { oldSelectors: selectors, newSelectors: found };
    }
  }

  /**
   * A key step on a tab other than the first. The library finds the step's tab and then presses the
   * key on `mainPage.keyboard` (the first tab) whatever the target, so Enter in a popup's field
   * would go to the opener. The fix through the library would call its runStepInFrame with the
   * popup as mainPage, but that method is internal (missing from the .d.ts, free to change in any
   * release), and swapping `this.page` under it would move every other lookup it makes; so the
   * step is done here with puppeteer's public API, as the library does the others: the tab found by
   * URL (as its getTargetPageForStep), the asserted navigation waited for from before the key,
   * 100 ms after it. A key whose tab closes under it did its work (Enter sending a popup's form
   * that closes the popup), and a keyUp whose tab is gone after a keyDown there has nothing to
   * release.
   */
  private async keyInTab(step: KeyDownStep | KeyUpStep, timeout: number): Promise<void> {
    const url = step.target!;
    const browser = this.browser as Browser;
    const closedAfterItsKey = step.type === 'keyUp' && this.keyTabs.has(url);
    const target = closedAfterItsKey
      ? browser.targets().find((t) => t.url() === url)
      : await browser.waitForTarget((t) => t.url() === url, { timeout });
    if (!target) return;
    if (step.type === 'keyDown') this.keyTabs.add(url);
    const page = await target.page();
    if (!page) throw new Error(`the step's target ${url} is not a tab`);
    const navigated = step.assertedEvents?.some((e) => e.type === 'navigation')
      ? page.waitForNavigation({ timeout })
      : undefined;
    // Awaited below; until then a failure of the key itself must not leave it unhandled.
    navigated?.catch(() => undefined);
    const key = step.key as KeyInput;
    try {
      await (step.type === 'keyDown' ? page.keyboard.down(key) : page.keyboard.up(key));
    } catch (err) {
      // puppeteer-core exports no error class for it: its message says the session or target closed.
      if (!navigated && (page.isClosed() || /\b(session|target) closed\b|has been closed/i.test(firstLineOf(err))))
        return;
      throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    await navigated;
  }

  private find(selectors: Selector[], timeout: number): Promise<ElementHandle<Element>> {
    const page = this.page as Page;
    return Locator.race(selectors.map((s) => page.locator(selectorToPElementSelector(s))))
      .setTimeout(timeout)
      .waitHandle() as Promise<ElementHandle<Element>>;
  }
}
