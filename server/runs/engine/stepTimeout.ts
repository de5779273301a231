import { isAiStep, type Flow } from '../../../contract/steps.ts';

/** @puppeteer/replay's default wait, when neither the step nor the flow sets one. */
export const DEFAULT_STEP_TIMEOUT_MS = 5000;
/** How long a navigate step without a timeout of its own (or its flow's) waits for the page to load: Puppeteer's default. */
export const NAVIGATION_TIMEOUT_MS = 30_000;

/**
 * How long a step waits on its page at most, by its own timeout, else its flow's, else the
 * library's; null for a step that waits on something else (a person at a pause, a model).
 */
export function pageWaitOf(step: Flow['steps'][number], flowTimeout: number | undefined): number | null {
  if (step.type === 'customStep' && (step.name === 'pause' || isAiStep(step))) return null;
  return step.timeout ?? flowTimeout ?? (step.type === 'navigate' ? NAVIGATION_TIMEOUT_MS : DEFAULT_STEP_TIMEOUT_MS);
}
