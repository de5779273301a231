import { z } from 'zod';
import { codePointLength, MAX_JSON_DEPTH, nestsDeeperThan, shallowJson, tooDeepMessage, wellFormed } from './common.ts';
import { VARIABLE_NAME } from './variables.ts';

/**
 * The step language: a Chrome DevTools Recorder user flow (the JSON the Recorder panel exports,
 * imported unchanged) and the custom steps this server adds to it.
 * Step objects are loose: Recorder properties we do not use are kept as they are, so an export
 * round-trips. Unknown step types are refused because they could not be replayed.
 */

const SELECTOR_PREFIXES = ['aria/', 'xpath/', 'text/', 'pierce/'];

function isSelectorPart(s: unknown): boolean {
  if (typeof s !== 'string' || s.trim() === '') return false;
  const prefix = SELECTOR_PREFIXES.find((p) => s.startsWith(p));
  return !prefix || s.slice(prefix.length).trim() !== '';
}

/** Recorder selectors: a non-empty list of alternatives, each a selector or a chain of them (shadow DOM / frames). */
export function isSelectorList(v: unknown): boolean {
  return (
    Array.isArray(v) &&
    v.length > 0 &&
    v.every((alt) => isSelectorPart(alt) || (Array.isArray(alt) && alt.length > 0 && alt.every(isSelectorPart)))
  );
}

export type Selector = string | string[];
export const Selectors = z.custom<Selector[]>(isSelectorList, {
  message: 'selectors must be a non-empty list whose items are non-empty selector strings or non-empty lists of them',
});

const AssertedEvent = z.looseObject({
  type: z.literal('navigation'),
  url: z.string().optional(),
  title: z.string().optional(),
});

/**
 * The longest wait a step or flow may set: a day. Node's timers end at about 24.8 days and fire at
 * once past it, so an unbounded timeout would fail its step at once, for a reason nobody set.
 */
export const TIMEOUT_MAX_MS = 86_400_000;
const Timeout = z
  .number({ error: 'timeout must be a number of milliseconds' })
  .int('timeout must be a whole number of milliseconds')
  .positive('timeout must be more than 0 ms')
  .max(TIMEOUT_MAX_MS, `timeout must be at most ${TIMEOUT_MAX_MS} ms (a day)`);

const base = {
  timeout: Timeout.optional(),
  assertedEvents: z.array(AssertedEvent).optional(),
  target: z.string().optional(),
  frame: z.array(z.number().int().min(0)).optional(),
};
const withSelectors = { ...base, selectors: Selectors };
/**
 * Where a click lands when its step does not say: Chrome's Recorder records the pointer's offset
 * from the element's top left, and its step editor gives a click added by hand 1, 1. The same here,
 * so a hand-written click (the editor's "Add step", the API) is a complete Recorder step without them.
 */
export const CLICK_DEFAULT_OFFSET = 1;
const clickAttributes = {
  offsetX: z
    .number()
    .default(CLICK_DEFAULT_OFFSET)
    .describe(`From the element's left edge, px (default ${CLICK_DEFAULT_OFFSET}, as Chrome's Recorder adds a click)`),
  offsetY: z
    .number()
    .default(CLICK_DEFAULT_OFFSET)
    .describe(`From the element's top edge, px (default ${CLICK_DEFAULT_OFFSET}, as Chrome's Recorder adds a click)`),
  deviceType: z.enum(['mouse', 'pen', 'touch']).optional(),
  button: z.enum(['primary', 'auxiliary', 'secondary', 'back', 'forward']).optional(),
  duration: z.number().min(0).optional(),
};

/** Custom step: set a file input to one of the run's uploaded `files` (by file name). */
export const UploadFileStep = z.looseObject({
  ...base,
  type: z.literal('customStep'),
  name: z.literal('uploadFile'),
  parameters: z.object({
    selectors: Selectors,
    file: z
      .string()
      .min(1)
      .refine((f) => !/[/\\]/.test(f) && f !== '.' && f !== '..', {
        message: 'file must be a plain file name, no folders',
      }),
  }),
});

const OutputName = z
  .string()
  .regex(VARIABLE_NAME, 'as must be a name: letters, digits and _, not starting with a digit');
export const AI_INSTRUCTION_MAX_CHARS = 4000;
const Instruction = z
  .string({ error: 'instruction must be a string' })
  .trim()
  .min(1, 'instruction must not be empty')
  .refine((s) => codePointLength(s) <= AI_INSTRUCTION_MAX_CHARS, {
    message: `instruction must be at most ${AI_INSTRUCTION_MAX_CHARS} characters`,
  })
  .check(wellFormed('instruction'));
/** The `as` an AI extract step without one puts its value under. */
export const DEFAULT_EXTRACT_AS = 'extract';

/**
 * Custom step: put something of the page into the run's outputs under `as`. Two forms:
 * - `{selectors, as, attribute?}`: an element's text (or one attribute), read as is.
 * - `{instruction, schema?, selector?, as?}`: the server's model reads the page's accessibility
 *   snapshot (or the part a CSS `selector` names) and answers JSON, checked against `schema` (a JSON
 *   Schema object) when given; `as` defaults to "extract". Its value keeps its JSON types in
 *   structured_output.
 */
export const ExtractStep = z.looseObject({
  ...base,
  type: z.literal('customStep'),
  name: z.literal('extract'),
  parameters: z
    .object({
      selectors: Selectors.optional(),
      as: OutputName.optional(),
      attribute: z.string().min(1).optional(),
      instruction: Instruction.optional(),
      schema: z
        .record(z.string(), z.unknown(), { error: 'schema must be a JSON Schema object' })
        .refine((v) => !nestsDeeperThan(v, MAX_JSON_DEPTH), { message: tooDeepMessage('schema') })
        .optional(),
      selector: z.string().trim().min(1, 'selector must be a CSS selector, not empty').max(1000).optional(),
    })
    .superRefine((p, ctx) => {
      const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (p.instruction === undefined && p.selectors === undefined)
        issue(
          'instruction',
          'extract needs either selectors (read an element: {selectors, as, attribute?}) or instruction (ask the model: {instruction, schema?, selector?, as?})',
        );
      else if (p.instruction !== undefined && p.selectors !== undefined)
        issue(
          'selectors',
          'extract takes selectors or instruction, not both: selectors read an element as is, instruction asks the model',
        );
      else if (p.selectors !== undefined) {
        if (p.as === undefined) issue('as', "as is required: the output name the element's text goes under");
        for (const key of ['schema', 'selector'] as const)
          if (p[key] !== undefined) issue(key, `${key} goes with instruction (an AI extract), not with selectors`);
      } else if (p.attribute !== undefined)
        issue('attribute', 'attribute goes with selectors (read an element), not with instruction');
    }),
});

export const ACT_MAX_STEPS = 20;
export const ACT_DEFAULT_STEPS = 5;
/** Custom step: the agent does `instruction` in the run's session, with at most `max_steps` tool calls. */
export const ActStep = z.looseObject({
  ...base,
  type: z.literal('customStep'),
  name: z.literal('act'),
  parameters: z.object({
    instruction: Instruction,
    max_steps: z
      .number({ error: 'max_steps must be a number' })
      .int('max_steps must be a whole number')
      .min(1, 'max_steps must be at least 1')
      .max(ACT_MAX_STEPS, `max_steps must be at most ${ACT_MAX_STEPS}`)
      .optional()
      .describe(`How many tool calls the agent may make (default ${ACT_DEFAULT_STEPS})`),
  }),
});

/** Whether a step asks the model (an extract with an instruction, an act). */
export function isAiStep(step: Step): boolean {
  return (
    step.type === 'customStep' &&
    (step.name === 'act' || (step.name === 'extract' && step.parameters.instruction !== undefined))
  );
}

/** The output names of a flow's AI extract steps: their values are JSON text, kept typed in structured_output. */
export function aiOutputNames(flow: Pick<Flow, 'steps'>): Set<string> {
  const names = new Set<string>();
  for (const step of flow.steps)
    if (step.type === 'customStep' && step.name === 'extract' && step.parameters.instruction !== undefined)
      names.add(step.parameters.as ?? DEFAULT_EXTRACT_AS);
  return names;
}

/**
 * Custom step: the flow waits here until a person has acted in the live view (typed a code sent to
 * a phone, solved a challenge) and resumed the session; `message` tells them what to do. A person
 * may instead answer through the session's message_url: with `variable`, the answer fills
 * `{{variable}}` in the steps after this one.
 */
export const PauseStep = z.looseObject({
  ...base,
  type: z.literal('customStep'),
  name: z.literal('pause'),
  parameters: z.object({
    message: z
      .string()
      .min(1, 'message must not be empty')
      .max(500, 'message must be at most 500 characters')
      .check(wellFormed('message')),
    variable: z
      .string()
      .max(100, 'variable must be at most 100 characters')
      .regex(VARIABLE_NAME, 'variable must be a name: letters, digits and _, not starting with a digit')
      .optional()
      .describe(
        "Where the person's answer goes: {{variable}} in later steps' url and value fields is the answer (empty when the run was resumed without one). Not a declared variable's name",
      ),
  }),
});

/** The names pause steps store their answers in, each with the index of the first pause that binds it. */
export function answerVariablesOf(flow: { steps: readonly Step[] }): Map<string, number> {
  const bound = new Map<string, number>();
  flow.steps.forEach((step, i) => {
    if (step.type !== 'customStep' || step.name !== 'pause') return;
    const name = step.parameters.variable;
    if (name !== undefined && !bound.has(name)) bound.set(name, i);
  });
  return bound;
}

export const Step = z.discriminatedUnion('type', [
  z.looseObject({
    ...base,
    type: z.literal('setViewport'),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    deviceScaleFactor: z.number().positive(),
    isMobile: z.boolean(),
    hasTouch: z.boolean(),
    isLandscape: z.boolean(),
  }),
  z.looseObject({ ...base, type: z.literal('navigate'), url: z.string().min(1) }),
  z.looseObject({ ...withSelectors, ...clickAttributes, type: z.literal('click') }),
  z.looseObject({ ...withSelectors, ...clickAttributes, type: z.literal('doubleClick') }),
  z.looseObject({ ...withSelectors, type: z.literal('change'), value: z.string() }),
  z.looseObject({ ...base, type: z.literal('keyDown'), key: z.string().min(1) }),
  z.looseObject({ ...base, type: z.literal('keyUp'), key: z.string().min(1) }),
  z.looseObject({
    ...base,
    type: z.literal('scroll'),
    selectors: Selectors.optional(),
    x: z.number().optional(),
    y: z.number().optional(),
  }),
  z.looseObject({ ...withSelectors, type: z.literal('hover') }),
  z.looseObject({
    ...withSelectors,
    type: z.literal('waitForElement'),
    operator: z.enum(['>=', '==', '<=']).optional(),
    count: z.number().int().min(0).optional(),
    visible: z.boolean().optional(),
    properties: z.record(z.string(), z.unknown()).optional(),
    attributes: z.record(z.string(), z.string()).optional(),
  }),
  z.looseObject({ ...base, type: z.literal('waitForExpression'), expression: z.string().min(1) }),
  z.looseObject({ ...base, type: z.literal('close') }),
  z.looseObject({
    ...base,
    type: z.literal('emulateNetworkConditions'),
    download: z.number(),
    upload: z.number(),
    latency: z.number(),
  }),
  z.discriminatedUnion('name', [UploadFileStep, ExtractStep, ActStep, PauseStep]),
]);
export type Step = z.infer<typeof Step>;

export const Flow = z
  .looseObject({
    title: z.string(),
    timeout: Timeout.optional(),
    selectorAttribute: z.string().optional(),
    steps: z.array(Step).max(1000),
  })
  .check(shallowJson('flow'));
export type Flow = z.infer<typeof Flow>;

const CLICKS = new Set(['click', 'doubleClick']);

/** A step as written; a click that left out its offsets gets them, after its own keys (a new object only then). */
function withClickOffsets(step: Record<string, unknown>): Record<string, unknown> {
  if (!CLICKS.has(step.type as string) || ('offsetX' in step && 'offsetY' in step)) return step;
  return { ...step, offsetX: step.offsetX ?? CLICK_DEFAULT_OFFSET, offsetY: step.offsetY ?? CLICK_DEFAULT_OFFSET };
}

/**
 * A flow checked against Flow but passed on as given: zod builds its parsed objects with the
 * schema's keys first, so a Recorder export would come back with its keys reordered. A flow is
 * stored and shown with its keys in the order it was written, as an export is imported unchanged.
 * Only a click's offsets the flow left out are added: the stored flow stays a complete Recorder
 * flow, which Chrome's Recorder, @puppeteer/replay and the code export read.
 */
export function flowAsGiven(value: unknown): Flow {
  Flow.parse(value);
  const flow = value as { steps: Record<string, unknown>[] };
  const steps = flow.steps.map(withClickOffsets);
  return steps.every((step, i) => step === flow.steps[i]) ? (value as Flow) : ({ ...flow, steps } as unknown as Flow);
}
