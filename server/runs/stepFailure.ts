import type { EndReason } from '../../contract/sessions.ts';
import type { Flow } from '../../contract/steps.ts';

type Step = Flow['steps'][number];

/** @puppeteer/replay's default wait for an element, when neither the step nor the flow sets one. */
const DEFAULT_TIMEOUT_MS = 5000;
const MAX_TARGET = 80;

const cut = (text: string) => (text.length > MAX_TARGET ? `${text.slice(0, MAX_TARGET - 1)}…` : text);

export const actionOf = (step: Step) => (step.type === 'customStep' ? step.name : step.type);

/** The step as a result shows it: everything but its type. */
export function paramsOf(step: Step): Record<string, unknown> {
  const { type: _type, ...rest } = step as Record<string, unknown>;
  return rest;
}

/** An error's first line, at most 500 characters: what a step's message quotes of a library. */
export function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]!.slice(0, 500);
}

/** What the step acts on, as a person would name it: its first selector, or the URL it opens. */
function targetOf(step: Step): string | undefined {
  const s = step as { selectors?: unknown; url?: unknown; parameters?: { selectors?: unknown } };
  const selectors = s.selectors ?? s.parameters?.selectors;
  if (Array.isArray(selectors) && selectors.length) {
    const first: unknown = selectors[0];
    return cut(Array.isArray(first) ? first.join(' >> ') : String(first));
  }
  return typeof s.url === 'string' ? cut(s.url) : undefined;
}

/** "Step 6 (click #does-not-exist)": numbered from 1, as the dashboard lists steps. */
export function stepLabel(step: Step, index: number): string {
  const target = targetOf(step);
  return `Step ${index + 1} (${actionOf(step)}${target ? ` ${target}` : ''})`;
}

/**
 * Why a step failed, for the person who has to fix it: a wait for an element that ran out says
 * so, with the time, any dialog the page opened meanwhile (`dialogs`, said as a sentence: a page
 * held by one is why nothing matched) and where to look; anything else is the cause as explained.
 */
export function failureMessage(
  step: Step,
  index: number,
  cause: string,
  flowTimeout?: number,
  dialogs?: string,
): string {
  const waitedForElement =
    targetOf(step) !== undefined && step.type !== 'navigate' && /timed? ?out|timeout|waiting for/i.test(cause);
  if (waitedForElement) {
    const seconds = ((step.timeout ?? flowTimeout ?? DEFAULT_TIMEOUT_MS) / 1000).toLocaleString('en', {
      maximumFractionDigits: 1,
    });
    const meanwhile = dialogs ? ` (meanwhile ${dialogs})` : '';
    return `${stepLabel(step, index)}: no element matched within ${seconds} s${meanwhile}. Check the selector in the workflow editor.`;
  }
  return `${stepLabel(step, index)}: ${cause}`;
}

/** Why a run was stopped from outside: its session ended (and how), an interrupt, the server closing. */
export type StopReason = EndReason | 'interrupted' | 'server_closing';
const STOP_REASONS: readonly string[] = [
  'stopped',
  'timed_out',
  'completed',
  'crashed',
  'failed_to_start',
  'interrupted',
  'server_closing',
] satisfies StopReason[];

/** The reason a run's AbortSignal was aborted with (AbortController.abort(reason)); undefined when it gave none. */
export function stopReasonOf(signal: AbortSignal | undefined): StopReason | undefined {
  const reason: unknown = signal?.reason;
  return typeof reason === 'string' && STOP_REASONS.includes(reason) ? (reason as StopReason) : undefined;
}

/**
 * A stop as the run's message says it, a clause that reads after "while this step ran" or "before
 * step 3:": the session was closed, not the library's "frame got detached".
 */
export function stoppedBecause(reason: StopReason | undefined): string {
  switch (reason) {
    case 'stopped':
      return 'the session was closed';
    case 'timed_out':
      return 'the session reached its timeout';
    case 'crashed':
      return "the session's browser stopped unexpectedly";
    case 'interrupted':
      return 'the run was interrupted through the API';
    case 'server_closing':
      return 'the server was shutting down';
    default:
      return 'the session ended';
  }
}
