import { createRunner, type Step as ReplayStep, type UserFlow } from '@puppeteer/replay';
import puppeteer, { type Browser, type ConnectOptions, type Page } from 'puppeteer-core';
import type { StepResult } from '../../../contract/runs.ts';
import type { Flow } from '../../../contract/steps.ts';
import { heartbeats } from './pageHeartbeat.ts';
import { StepWatch } from './stepWatch.ts';
import { pageWaitOf } from './stepTimeout.ts';
import type { DialogSeen } from '../../domain/runFacts.ts';
import { answerDialogs, describeDialogs, MAX_DIALOGS_LOGGED } from './dialogs.ts';
import type { CredentialOrigins } from '../../credentials/credentialOrigins.ts';
import { RunExtension } from '../extension.ts';
import type { VariableValues } from '../fillTemplate.ts';
import { fillPlaceholders } from '../variables.ts';
import { answerVariablesOf } from '../../../contract/steps.ts';
import { redactor } from '../../credentials/redact.ts';
import {
  actionOf,
  failureMessage,
  firstLine,
  paramsOf,
  stepLabel,
  stoppedBecause,
  stopReasonOf,
} from '../stepFailure.ts';
import { explainCause } from './stepCauses.ts';
import type { AiRequest, StepHeal } from './messages.ts';
import { within, withinOr } from '../../domain/within.ts';

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
  /** The stored flow: each step's placeholders are filled as it runs, in one pass (fillTemplate.ts); a flow filled beforehand works too. */
  flow: Flow;
  /** The run's variables, for the flow's `{{name}}`. */
  variables?: VariableValues;
  /** The run's upload folder. */
  filesDir: string;
  onStepStart?: (index: number, action: string, params: Record<string, unknown>) => void;
  onStep?: (index: number, result: StepResult, outputs: Record<string, string>) => void;
  /** Awaited before each step: waits while the run is paused, rejects when the run is stopped meanwhile. */
  beforeStep?: () => Promise<void>;
  /** The flow's own pause step: pause the run and resolve once a person resumes it, with their answer if they sent one. Without it a pause step fails. */
  pauseHere?: (message: string) => Promise<string | null>;
  /** A page opened a dialog (alert, confirm, prompt, beforeunload) and the run answered it. */
  onDialog?: (dialog: DialogSeen) => void;
  /** Whether the session may reach private and host addresses: a refused connection there is the egress policy's doing. */
  privateNetworksAllowed?: boolean;
  /** Values of the `{{credentials.NAME}}` the flow types, by name: filled at the last moment, and redacted from all it reports. */
  credentials?: ReadonlyMap<string, string>;
  /** Where each credential may be typed, by name (allowed_origins; []: any page); a credential without an entry is typed nowhere. */
  credentialOrigins?: CredentialOrigins;
  /** Ask the server's model (AI extract, act, heal): engine/thread.ts's bridge to the run's RunAi. Without it those steps fail. */
  ai?: (request: AiRequest) => Promise<unknown>;
  /** Self-healing: a click/change/hover none of whose selectors matches asks `ai` for the element (run_workflow's heal). */
  heal?: boolean;
  /** A step was repaired by self-healing and then succeeded: a StepHealed event. */
  onHealed?: (heal: StepHeal) => void;
  /** Aborting stops the replay: the current step fails and no further step starts. Aborted with a StopReason, its messages say why. */
  signal?: AbortSignal;
}

/** Longest a single CDP call may go unanswered beyond the flow's longest page wait (puppeteer's default is 180 s). */
const PROTOCOL_TIMEOUT_MS = 30_000;
/** Node's longest timer: a longer one fires at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * The run's protocolTimeout. Puppeteer waits for a function or a selector in one CDP call that is
 * answered when the wait ends, so a step that may wait 40 s must not have its call cut at 30 s
 * (it failed as "Waiting failed" at 30 s whatever its timeout). A page that stops answering is
 * caught by the step's watch (stepWatch.ts) after its timeout, not by this.
 */
export function protocolTimeoutFor(flow: Flow): number {
  const longestWait = Math.max(0, ...flow.steps.map((step) => pageWaitOf(step, flow.timeout) ?? 0));
  return Math.min(longestWait + PROTOCOL_TIMEOUT_MS, LONGEST_TIMER_MS);
}

/**
 * Calls outside any step (finding the tab, the runner's set-up and tear-down) have one CDP call's
 * limit, 30 s, whatever the flow's longest wait: no step's timeout covers them.
 */
const withinCallLimit = <T>(call: Promise<T>, what: string): Promise<T> =>
  within(call, PROTOCOL_TIMEOUT_MS, `${what} within ${PROTOCOL_TIMEOUT_MS / 1000} s`);

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
  const dialogs: DialogSeen[] = [];
  let dialogsTold = 0;
  /** Why the run was stopped, as its messages say it; null while it was not. */
  const stopped = () => (opts.signal?.aborted ? stoppedBecause(stopReasonOf(opts.signal)) : null);
  const causeOf = async (err: unknown, step?: Flow['steps'][number], watch?: StepWatch) => {
    const ctx = {
      step,
      stopped: stopped(),
      privateNetworksAllowed: opts.privateNetworksAllowed ?? false,
      dialogs,
      failedNavigation: watch?.failedNavigation,
      answering: watch && (() => watch.answering()),
    };
    return redact(await explainCause(firstLine(err), ctx));
  };
  const results: StepResult[] = [];
  const outputs: Record<string, string> = {};
  let browser: Browser | undefined;
  let failure: string | undefined;
  let screenshot: Buffer | null = null;
  /** The last step's watch: whether its pages still answer, when the run ends. */
  let lastWatch: StepWatch | undefined;
  try {
    // A CDP call that gets no answer (a renderer in an endless loop) fails its step instead of waiting forever.
    browser = await puppeteer.connect({
      ...(await opts.connect()),
      defaultViewport: null,
      protocolTimeout: protocolTimeoutFor(opts.flow),
    });
    const connected = browser;
    opts.signal?.addEventListener('abort', () => void connected.disconnect().catch(() => undefined), { once: true });
    await withinCallLimit(
      answerDialogs(browser, (dialog) => {
        dialogs.push(dialog);
        // A page opening dialogs in a loop would fill the session's log: the step's failure counts the rest.
        if (++dialogsTold <= MAX_DIALOGS_LOGGED) opts.onDialog?.({ ...dialog, message: redact(dialog.message) });
      }),
      'The browser did not let the run answer its dialogs',
    );
    const page = await withinCallLimit(pageOf(browser), 'The browser did not give the run its tab');
    const extension = new RunExtension(browser, page, opts.filesDir, {
      // Runner.runStep(step) hands the extension no flow, so the flow's own timeout goes in here.
      timeout: opts.flow.timeout,
      credentials: opts.credentials,
      credentialOrigins: opts.credentialOrigins,
      pauseHere: opts.pauseHere,
      ai: opts.ai,
      heal: opts.heal,
      variables: opts.variables,
      answerNames: new Set(answerVariablesOf(opts.flow).keys()),
    });
    /** The steps as reported: variables filled, answers and credentials as placeholders. */
    const shown = fillPlaceholders(opts.flow, opts.variables ?? {});
    const runner = await createRunner(opts.flow as unknown as UserFlow, extension);
    const heartbeatOf = heartbeats();
    await withinCallLimit(runner.runBeforeAllSteps(), 'The browser did not answer before the first step');
    for (const [index, template] of opts.flow.steps.entries()) {
      const step = shown.steps[index]!;
      try {
        await opts.beforeStep?.();
      } catch {
        failure = `The run was stopped while paused, before ${stepLabel(step, index).replace(/^Step/, 'step')}: ${stopped() ?? stoppedBecause(undefined)}`;
        break;
      }
      if (opts.signal?.aborted) {
        failure = `The run was stopped before ${stepLabel(step, index).replace(/^Step/, 'step')}: ${stopped()}`;
        break;
      }
      opts.onStepStart?.(index, actionOf(step), paramsOf(step));
      const started = new Date();
      const t0 = performance.now();
      let result: StepResult['result'];
      dialogs.length = 0;
      const watch = await StepWatch.start(connected, heartbeatOf, pageWaitOf(step, opts.flow.timeout));
      lastWatch = watch;
      try {
        await watch.run(() => runner.runStep(template as unknown as ReplayStep));
        const out = extension.lastOutput && { as: extension.lastOutput.as, value: redact(extension.lastOutput.value) };
        if (out) outputs[out.as] = out.value;
        const healed = extension.lastHeal;
        if (healed) opts.onHealed?.({ index, action: actionOf(step), ...healed });
        // An act step's summary shows as its result, like an extract's value, without becoming an output.
        const shown = out?.value ?? (extension.lastSummary !== undefined ? redact(extension.lastSummary) : undefined);
        result = { ok: true, ...(shown !== undefined ? { output: shown } : {}) };
      } catch (err) {
        const cause = await causeOf(err, step, watch);
        result = { ok: false, error: cause };
        // A stop is said as it is: "reached its timeout" is not a selector that matched nothing.
        failure = stopped()
          ? `${stepLabel(step, index)}: ${cause}`
          : failureMessage(
              step,
              index,
              cause,
              opts.flow.timeout,
              dialogs.length ? redact(describeDialogs(dialogs)) : undefined,
            );
      } finally {
        watch.stop();
      }
      const entry: StepResult = {
        action: actionOf(step),
        params: paramsOf(step),
        result,
        timestamp: started.toISOString(),
        duration: Math.round(performance.now() - t0),
      };
      results.push(entry);
      opts.onStep?.(index, entry, { ...outputs });
      if (failure) break;
    }
    if (!failure) await withinCallLimit(runner.runAfterAllSteps(), 'The browser did not answer after the last step');
    // A page that stopped answering would hold the screenshot until the protocol timeout.
    if (!lastWatch?.silent()) screenshot = await finalScreenshot(browser);
  } catch (err) {
    // Stopped before its first step (the session closed as the run connected): say so, not the library's error.
    const because = stopped();
    // Before its first step (a tab it was attaching to closed as it connected): the run never
    // started, and says so as other runs that never got to a step do.
    failure ??= because
      ? `The run was stopped before its first step: ${because}`
      : `The run ${results.length ? 'could not drive the browser' : 'could not start: it could not drive the browser'}: ${await causeOf(err)}`;
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

/** How long the final screenshot may take: the run's end waits for it, and a busy host is slow to paint. */
const SCREENSHOT_WITHIN_MS = 3000;

/** The last page as it looks now, JPEG; null when there is none, or it does not come within SCREENSHOT_WITHIN_MS. */
async function finalScreenshot(browser: Browser): Promise<Buffer | null> {
  if (!browser.connected) return null;
  const shot = (async () => {
    const page = (await browser.pages()).at(-1);
    return page ? Buffer.from(await page.screenshot({ type: 'jpeg', quality: 70 })) : null;
  })().catch(() => null); // the flow may have closed the page or the browser went away
  return withinOr(shot, SCREENSHOT_WITHIN_MS, null);
}
