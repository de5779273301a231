import { createRunner, type Step as ReplayStep, type UserFlow } from '@puppeteer/replay';
import puppeteer, { type Browser, type ConnectOptions, type Page } from 'puppeteer-core';
import type { StepResult } from '../../contract/runs.ts';
import type { Flow } from '../../contract/workflows.ts';
import { RunExtension } from './extension.ts';
import type { PauseGate, PauseState } from './pauseGate.ts';
import { redactor } from './redact.ts';
import { actionOf, failureMessage, stepLabel } from './stepFailure.ts';

export interface FlowOutcome {
  succeeded: boolean;
  message: string;
  results: StepResult[];
  outputs: Record<string, string>;
  /** The final page, JPEG; null when there was no page left to take it from. */
  screenshot: Buffer | null;
}

export interface ReplayOptions {
  /** How to reach the browser (a session's hub channel, or a test's own endpoint). The browser is left running: its owner ends it. */
  connect: () => Promise<Pick<ConnectOptions, 'transport' | 'browserWSEndpoint'>>;
  /** A flow whose placeholders are already filled. */
  flow: Flow;
  /** The run's upload folder. */
  filesDir: string;
  onStepStart?: (index: number, action: string, params: Record<string, unknown>) => void;
  onStep?: (index: number, result: StepResult, outputs: Record<string, string>) => void;
  /** Passed before each step: closed while the run is paused. */
  gate?: PauseGate;
  /** The flow's own pause step closed the gate (the API's pauses are told by whoever asked). */
  onPause?: (state: PauseState) => void;
  /** Values of the `{{credentials.NAME}}` the flow types, by name: filled at the last moment, and redacted from all it reports. */
  credentials?: ReadonlyMap<string, string>;
  /** Aborting stops the replay: the current step fails and no further step starts. */
  signal?: AbortSignal;
}


function paramsOf(step: Flow['steps'][number]): Record<string, unknown> {
  const { type: _type, ...rest } = step as Record<string, unknown>;
  return rest;
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]!.slice(0, 500);
}

/** The session's existing tab: the one a person watching over VNC sees. */
async function pageOf(browser: Browser): Promise<Page> {
  const pages = await browser.pages();
  return pages.find((p) => !p.url().startsWith('devtools://')) ?? (await browser.newPage());
}

/**
 * Replay a Recorder flow on a running Chromium with @puppeteer/replay, step by step, recording a
 * result (timestamp, duration) for each. The first failing step ends the run with a message naming
 * it (index and action) and the cause.
 */
export async function replayFlow(opts: ReplayOptions): Promise<FlowOutcome> {
  const redact = redactor(opts.credentials);
  const causeOf = (err: unknown) => redact(firstLine(err));
  const results: StepResult[] = [];
  const outputs: Record<string, string> = {};
  let browser: Browser | undefined;
  let failure: string | undefined;
  let screenshot: Buffer | null = null;
  try {
    browser = await puppeteer.connect({ ...(await opts.connect()), defaultViewport: null });
    const connected = browser;
    opts.signal?.addEventListener('abort', () => void connected.disconnect().catch(() => undefined), { once: true });
    const page = await pageOf(browser);
    const extension = new RunExtension(browser, page, opts.filesDir, {
      // Runner.runStep(step) hands the extension no flow, so the flow's own timeout goes in here.
      timeout: opts.flow.timeout,
      credentials: opts.credentials,
      pauseHere: async (message) => {
        if (!opts.gate) throw new Error('this run cannot pause');
        const { state, changed } = opts.gate.pause('internal', message);
        if (changed) opts.onPause?.(state);
        await opts.gate.passThrough(opts.signal);
      },
    });
    const runner = await createRunner(opts.flow as unknown as UserFlow, extension);
    await runner.runBeforeAllSteps();
    for (const [index, step] of opts.flow.steps.entries()) {
      try {
        await opts.gate?.passThrough(opts.signal);
      } catch {
        failure = `The run was stopped while paused, before ${stepLabel(step, index).replace(/^Step/, 'step')}`;
        break;
      }
      if (opts.signal?.aborted) {
        failure = `The run was stopped before ${stepLabel(step, index).replace(/^Step/, 'step')}`;
        break;
      }
      opts.onStepStart?.(index, actionOf(step), paramsOf(step));
      const started = new Date();
      const t0 = performance.now();
      let result: StepResult['result'];
      try {
        await runner.runStep(step as unknown as ReplayStep);
        const out = extension.lastOutput && { as: extension.lastOutput.as, value: redact(extension.lastOutput.value) };
        if (out) outputs[out.as] = out.value;
        result = { ok: true, ...(out ? { output: out.value } : {}) };
      } catch (err) {
        result = { ok: false, error: causeOf(err) };
        failure = failureMessage(step, index, causeOf(err), opts.flow.timeout);
      }
      const entry: StepResult = { action: actionOf(step), params: paramsOf(step), result, timestamp: started.toISOString(), duration: Math.round(performance.now() - t0) };
      results.push(entry);
      opts.onStep?.(index, entry, { ...outputs });
      if (failure) break;
    }
    if (!failure) await runner.runAfterAllSteps();
    screenshot = await finalScreenshot(browser);
  } catch (err) {
    failure ??= `The run could not drive the browser: ${causeOf(err)}`;
  } finally {
    await browser?.disconnect().catch(() => undefined);
  }
  return {
    succeeded: !failure,
    message: failure ?? `All ${opts.flow.steps.length} steps succeeded`,
    results,
    outputs,
    screenshot,
  };
}

async function finalScreenshot(browser: Browser): Promise<Buffer | null> {
  try {
    if (!browser.connected) return null;
    const pages = await browser.pages();
    const page = pages.at(-1);
    if (!page) return null;
    return Buffer.from(await page.screenshot({ type: 'jpeg', quality: 70 }));
  } catch {
    return null; // the flow may have closed the page or the browser went away
  }
}
