import fc from 'fast-check';
import { DIALOG_PATHS, runFlowCase, type FlowCase, type FlowWorld } from './flows.ts';
import { check } from './harness.ts';

/**
 * Property 6 (issue 44): flows over pages that open alert, confirm, prompt and beforeunload
 * dialogs during their steps (on a click, on mousedown, later, in a cross-site frame, in a popup,
 * in a loop, on leaving). Besides the checks of every flow case (the service lives, the run ends
 * naming its step, nothing is left), no step outlasts its timeout by more than HANG_MARGIN_MS: a
 * dialog nobody answered used to hold a step 37-68 s past a 5 s timeout.
 */

/** A hang guard, not a speed bound: the target is timeout + 2 s; a loaded host gets the rest. */
const HANG_MARGIN_MS = 15_000;
/** Timeouts kept small (500-3000 ms) so cases are quick. */
const timeoutArb = fc.integer({ min: 500, max: 3000 });

type Json = Record<string, unknown>;

const stepArb: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ type: 'click', selectors: [['#go']], offsetX: 2, offsetY: 2 }) },
  { weight: 2, arbitrary: fc.constantFrom(...DIALOG_PATHS).map((p) => ({ type: 'navigate', url: `$SITE${p}` })) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('after alert', 'ready', 'loaded', 'yes').map((text) => ({
      type: 'waitForElement',
      selectors: [['#out']],
      properties: { textContent: text },
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('alert(1), true', 'confirm("c")', '!!prompt("p", "d")', 'window.open("/alert-on-load"), true')
      .map((expression) => ({ type: 'waitForExpression', expression })),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'keyDown', key: 'Enter' }) },
);

export const dialogCaseArb: fc.Arbitrary<FlowCase> = fc
  .record({
    first: fc.constantFrom(...DIALOG_PATHS),
    steps: fc.array(fc.tuple(stepArb, timeoutArb), { minLength: 1, maxLength: 4 }),
    flowTimeout: timeoutArb,
  })
  .map(({ first, steps, flowTimeout }) => ({
    strict: false,
    flow: {
      title: 'fuzz dialogs',
      timeout: flowTimeout,
      steps: [
        { type: 'navigate', url: `$SITE${first}`, timeout: 5000 },
        ...steps.map(([step, timeout]) => ({ ...step, timeout })),
      ],
    },
    variables: [],
    files: [],
    onPause: 'resume',
  }));

export async function runDialogCase(fuzz: FlowCase, world: FlowWorld): Promise<void> {
  const status = await runFlowCase(fuzz, world);
  for (const [i, result] of (status?.results ?? []).entries()) {
    const timeout = (fuzz.flow.steps[i]?.timeout as number | undefined) ?? fuzz.flow.timeout ?? 0;
    check(
      result.duration <= timeout + HANG_MARGIN_MS,
      `step ${i + 1} (${result.action}) took ${result.duration} ms, past its timeout of ${timeout} ms: ${status?.message}`,
    );
  }
}
