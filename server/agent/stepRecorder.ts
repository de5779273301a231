import type { Locator, Page } from 'playwright-core';
import type { Step } from '../../contract/steps.ts';
import { describeElement, type ElementFacts } from './elementSelectors.ts';
import { within } from '../domain/within.ts';

/** Called with each step as it is recorded and its index in the recording. */
export type StepListener = (step: Step, index: number) => void;

/** What record() read before the call: the page's URL and the facts of each element the args name by ref. */
interface Before {
  url: string;
  /** By ref; a browser_fill_form call names several. */
  elements: Map<string, Facts>;
}

/** An element's facts plus, inside an iframe, Recorder's `frame` indexes. */
type Facts = ElementFacts & { frame?: number[] };

type Navigation = { type: 'navigation'; url: string; title: string };

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The refs a tool's args name: `ref`, or each field's of browser_fill_form. */
function refsOf(tool: string, args: Record<string, unknown>): string[] {
  if (tool === 'browser_fill_form' && Array.isArray(args.fields))
    return (args.fields as { ref?: unknown }[]).map((f) => str(f.ref)).filter(Boolean);
  return ['browser_click', 'browser_type', 'browser_select_option', 'browser_hover'].includes(tool) && str(args.ref)
    ? [str(args.ref)]
    : [];
}

/** The option value Playwright's selectOption picked for what the agent gave (a value, else a label). */
function optionValue(facts: Facts, given: string): string {
  return (facts.options.find((o) => o.value === given) ?? facts.options.find((o) => o.label === given))?.value ?? given;
}

/**
 * The Chrome Recorder steps of one agent session: each successful browser tool call becomes the
 * steps that replay it with @puppeteer/replay (server/runs/engine/replay.ts), with no model.
 *
 * No setViewport step starts the recording, unlike Chrome Recorder: every session's window is
 * sized to the same virtual screen (sessions/display/display.ts SCREEN), so a replay already
 * lays pages out as the recording saw them, and the engine connects with defaultViewport null on
 * purpose: a setViewport step would put a device-metrics override on the window a person watches.
 *
 * Frames: a step on an element inside an iframe carries Recorder's `frame` indexes (child frame
 * positions from the main frame down), in Playwright's childFrames() order, which is attach order
 * as puppeteer's is too.
 *
 * Tabs: a step on a tab other than the first one the recording saw (a popup, a target=_blank
 * link's tab) carries Recorder's `target`, that tab's URL before the step: the replay waits for a
 * tab at that URL (the popup the previous click opened) and acts there. Key steps replay on the
 * first tab whatever their target (@puppeteer/replay presses keys on its main page), so a popup's
 * form is best submitted by a click.
 */
export class StepRecorder {
  private readonly recorded: Step[] = [];
  /** The recording's first tab: Recorder's `main`; steps on any other carry their tab's URL. */
  private main: Page | undefined;
  private readonly listeners = new Set<StepListener>();

  constructor(onStep?: StepListener) {
    if (onStep) this.listeners.add(onStep);
  }

  /** Listen to recorded steps; returns the unsubscriber. */
  onStep(listener: StepListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  steps(): Step[] {
    return structuredClone(this.recorded);
  }

  clear(): void {
    this.recorded.length = 0;
    this.main = undefined;
  }

  /**
   * Run a tool call and record its steps when it succeeds. Everything the steps need about the
   * elements is read before the call (a click may navigate them away; an aria-ref may stop resolving
   * once the tool takes a new snapshot). The recorder never fails the call: when it cannot read what
   * it needs (the element is gone), that call records nothing and the call's own result stands.
   */
  async record<T>(
    page: Page,
    tool: string,
    args: Record<string, unknown>,
    locatorOf: (ref: string) => Locator,
    call: () => Promise<{ isError: boolean } & T>,
    /** The ref's line in the latest snapshot (see describeElement). */
    lineOf?: (ref: string) => string | undefined,
  ): Promise<T> {
    const before = await this.readBefore(page, tool, args, locatorOf, lineOf).catch(() => undefined);
    const result = await call();
    if (!result.isError && before) {
      this.main ??= page;
      const target = page === this.main ? {} : { target: before.url };
      try {
        for (const step of await this.stepsOf(page, tool, args, before)) this.append({ ...step, ...target });
      } catch {
        // A page gone after the call (closed tab): nothing to record, the call's result stands.
      }
    }
    return result;
  }

  private async readBefore(
    page: Page,
    tool: string,
    args: Record<string, unknown>,
    locatorOf: (ref: string) => Locator,
    lineOf?: (ref: string) => string | undefined,
  ): Promise<Before> {
    const elements = new Map<string, Facts>();
    for (const ref of refsOf(tool, args)) {
      const target = locatorOf(ref);
      // Not there now: the tool will wait for it or fail; reading it would only delay the call.
      if ((await within(target.count(), READ_TIMEOUT_MS, PAGE_SILENT)) !== 1)
        throw new Error(`${ref} names no single element`);
      const facts = await describeElement(target, lineOf?.(ref));
      if (facts.selectors.length === 0) throw new Error(`no selector finds ${ref} alone`);
      elements.set(ref, facts.inFrame ? { ...facts, ...(await frameOf(target)) } : facts);
    }
    return { url: page.url(), elements };
  }

  private async stepsOf(page: Page, tool: string, args: Record<string, unknown>, before: Before): Promise<Step[]> {
    const navigation = async (): Promise<Navigation> => ({
      type: 'navigation',
      url: page.url(),
      title: await within(page.title(), READ_TIMEOUT_MS, PAGE_SILENT).catch(() => ''),
    });
    /** The navigation assertion when the call moved the page: the replay then waits for it. */
    const moved = async () => (page.url() !== before.url ? { assertedEvents: [await navigation()] } : {});
    const on = (ref: string) => {
      const f = before.elements.get(ref)!;
      return { selectors: f.selectors, ...(f.frame ? { frame: f.frame } : {}) };
    };
    const click = (ref: string): Step => {
      const f = before.elements.get(ref)!;
      return { type: 'click', ...on(ref), offsetX: f.offsetX, offsetY: f.offsetY };
    };
    // The navigation assertion goes on keyDown: the replay pauses 100 ms after a keyDown and only
    // starts waiting for a keyUp's events afterwards, by when a fast page has already navigated.
    // A combination (Control+a) is its keys down in order, then up in reverse, as Playwright presses it.
    const keys = async (combo: string): Promise<Step[]> => {
      const parts = combo.split(/\+(?=.)/);
      const assertion = await moved();
      return [
        ...parts.map((key, i): Step => ({ type: 'keyDown', key, ...(i === parts.length - 1 ? assertion : {}) })),
        ...parts.reverse().map((key): Step => ({ type: 'keyUp', key })),
      ];
    };
    const ref = str(args.ref);
    switch (tool) {
      case 'browser_navigate':
        // The URL as the agent gave it (it may hold placeholders); where it landed is the assertion.
        return [{ type: 'navigate', url: str(args.url), assertedEvents: [await navigation()] }];
      case 'browser_back':
        return [{ type: 'navigate', url: page.url(), assertedEvents: [await navigation()] }];
      case 'browser_click':
        return [{ ...click(ref), ...(await moved()) }];
      case 'browser_hover':
        return [{ type: 'hover', ...on(ref) }];
      case 'browser_type': {
        // The text exactly as given: `{{credentials.NAME}}` and `{{variable}}` are filled in by runs.
        const change: Step = { type: 'change', ...on(ref), value: str(args.text) };
        return args.submit ? [change, ...(await keys('Enter'))] : [change];
      }
      case 'browser_select_option': {
        // A Recorder change step selects one option: the first of a multiple select's values.
        const values = Array.isArray(args.values) ? args.values.map(str) : [];
        const f = before.elements.get(ref)!;
        return values.length ? [{ type: 'change', ...on(ref), value: optionValue(f, values[0]!) }] : [];
      }
      case 'browser_fill_form':
        return (args.fields as { ref: string; value: unknown }[]).flatMap((field): Step[] => {
          const f = before.elements.get(field.ref)!;
          const value = str(field.value);
          // A checkbox or radio is clicked only when it must change, as the tool's setChecked does.
          if (f.kind === 'check') return f.checked === (value === 'true') ? [] : [click(field.ref)];
          return [{ type: 'change', ...on(field.ref), value: f.kind === 'select' ? optionValue(f, value) : value }];
        });
      case 'browser_press_key':
        return str(args.key) ? keys(str(args.key)) : [];
      default:
        return [];
    }
  }

  private append(step: Step): void {
    this.recorded.push(step);
    const index = this.recorded.length - 1;
    for (const listener of this.listeners) {
      try {
        listener(structuredClone(step), index);
      } catch {
        // A listener's failure is its own: the recording and the call go on.
      }
    }
  }
}

/** Recorder's `frame`: the element's frame as child indexes from the main frame down. */
async function frameOf(target: Locator): Promise<{ frame?: number[] }> {
  const handle = await target.elementHandle({ timeout: 5_000 });
  try {
    const path: number[] = [];
    for (let frame = await handle.ownerFrame(); frame?.parentFrame(); frame = frame.parentFrame()) {
      path.unshift(frame.parentFrame()!.childFrames().indexOf(frame));
    }
    return path.length ? { frame: path } : {};
  } finally {
    await handle.dispose();
  }
}

/** How long the recorder waits on the page for what it reads: a page that stops answering holds up no tool call. */
const READ_TIMEOUT_MS = 5_000;
const PAGE_SILENT = `the page did not answer within ${READ_TIMEOUT_MS} ms`;
