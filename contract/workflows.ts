import { z } from 'zod';
import {
  codePointLength,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  noNul,
  page,
  PageQuery,
  shallowJson,
  tooDeepMessage,
  wellFormed,
} from './common.ts';
import { defineOperations, FORM_OR_JSON } from './operation.ts';

/**
 * A saved workflow: a Chrome DevTools Recorder user flow (the JSON the Recorder panel exports,
 * imported unchanged) plus the variables its `{{name}}` placeholders are filled from.
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

const base = {
  timeout: z.number().int().positive().optional(),
  assertedEvents: z.array(AssertedEvent).optional(),
  target: z.string().optional(),
  frame: z.array(z.number().int().min(0)).optional(),
};
const withSelectors = { ...base, selectors: Selectors };
const clickAttributes = {
  offsetX: z.number(),
  offsetY: z.number(),
  deviceType: z.enum(['mouse', 'pen', 'touch']).optional(),
  button: z.enum(['primary', 'auxiliary', 'secondary', 'back', 'forward']).optional(),
  duration: z.number().min(0).optional(),
};

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

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
 * a phone, solved a challenge) and resumed the session; `message` tells them what to do.
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
  }),
});

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
    timeout: z.number().int().positive().optional(),
    selectorAttribute: z.string().optional(),
    steps: z.array(Step).max(1000),
  })
  .check(shallowJson('flow'));
export type Flow = z.infer<typeof Flow>;

/**
 * A flow checked against Flow but passed on as given: zod builds its parsed objects with the
 * schema's keys first, so a Recorder export would come back with its keys reordered. A flow is
 * stored and shown with its keys in the order it was written (DESIGN.md: imported unchanged).
 */
export function flowAsGiven(value: unknown): Flow {
  Flow.parse(value);
  return value as Flow;
}

/**
 * A variable's type. `enum` is a string limited to its `enumValues` (Simplex's CLI:
 * `--field status:enum:pending,active`). Simplex's CLI also offers array and object; they are not
 * taken, since a placeholder fills text.
 */
export const VariableType = z.enum(['string', 'number', 'boolean', 'enum']);
export type VariableType = z.infer<typeof VariableType>;

export const DESCRIPTION_MAX_CHARS = 1000;
export const ENUM_VALUES_MAX = 100;
export const ENUM_VALUE_MAX_CHARS = 200;

const DefaultValue = z.union([z.string(), z.number(), z.boolean()]);
const Description = z
  .string({ error: 'description must be a string' })
  .refine((s) => codePointLength(s) <= DESCRIPTION_MAX_CHARS, {
    message: `description must be at most ${DESCRIPTION_MAX_CHARS} characters`,
  })
  .check(wellFormed('description'));
const EnumValues = z
  .array(
    z
      .string({ error: 'each of enumValues must be a string' })
      .min(1, 'each of enumValues must be a non-empty string')
      .refine((s) => codePointLength(s) <= ENUM_VALUE_MAX_CHARS, {
        message: `each of enumValues must be at most ${ENUM_VALUE_MAX_CHARS} characters`,
      })
      .check(wellFormed('enumValues')),
    { error: 'enumValues must be a list of strings' },
  )
  .max(ENUM_VALUES_MAX, `enumValues may list at most ${ENUM_VALUES_MAX} values`);

/** The checks `type: enum` brings, shared by variables and structured outputs; issues go on `enumValues`. */
function checkEnumValues(v: { type: string; enumValues?: string[] }, ctx: z.RefinementCtx): void {
  if (v.type !== 'enum') {
    if (v.enumValues !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['enumValues'],
        message: `enumValues is only for type enum (this one is ${v.type})`,
      });
    return;
  }
  if (!v.enumValues?.length) {
    ctx.addIssue({
      code: 'custom',
      path: ['enumValues'],
      message: 'type enum needs enumValues: the values it may take, at least one',
    });
    return;
  }
  const twice = v.enumValues.find((value, i) => v.enumValues!.indexOf(value) !== i);
  if (twice !== undefined)
    ctx.addIssue({ code: 'custom', path: ['enumValues'], message: `enumValues lists "${twice}" more than once` });
}

/** A variable as stored, and as the run form and the runner read it. */
export const StoredVariable = z.object({
  name: z.string(),
  type: VariableType,
  required: z.boolean(),
  default: DefaultValue.optional(),
  description: z.string().optional().describe('What to give, shown beside the input'),
  enumValues: z.array(z.string()).optional().describe('type enum: the values it may take'),
});
export type Variable = z.infer<typeof StoredVariable>;

/**
 * A variable as sent: ours (`default`) or Simplex's CLI's shape (`defaultValue`, `description`,
 * `enumValues`). Stored with `default` only; answered with both (VariableAsSent).
 */
export const Variable = z
  .object({
    name: z.string().regex(VARIABLE_NAME, 'name must be letters, digits and _, not starting with a digit'),
    type: VariableType,
    required: z.boolean().default(false),
    default: DefaultValue.optional(),
    defaultValue: DefaultValue.optional().describe(
      "Simplex's name for default; when both are given they must be equal",
    ),
    description: Description.optional().describe(`Up to ${DESCRIPTION_MAX_CHARS} characters; "" is none`),
    enumValues: EnumValues.optional().describe('type enum only, and required for it: the values allowed, each once'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.default !== undefined && v.defaultValue !== undefined && v.default !== v.defaultValue) {
      ctx.addIssue({
        code: 'custom',
        path: ['defaultValue'],
        message: 'defaultValue and default differ: give one of them, or the same value in both',
      });
      return;
    }
    checkEnumValues(v, ctx);
    const given = v.default !== undefined ? 'default' : 'defaultValue';
    const value = v.default ?? v.defaultValue;
    if (value === undefined) return;
    if (v.type === 'enum') {
      if (v.enumValues?.length && !(typeof value === 'string' && v.enumValues.includes(value))) {
        ctx.addIssue({ code: 'custom', path: [given], message: `${given} must be one of the enumValues` });
      }
    } else if (typeof value !== v.type)
      ctx.addIssue({ code: 'custom', path: [given], message: `${given} must have the variable's type` });
  })
  .transform(({ name, type, required, default: byOurName, defaultValue, description, enumValues }): Variable => {
    const value = byOurName ?? defaultValue;
    return {
      name,
      type,
      required,
      ...(value !== undefined ? { default: value } : {}),
      ...(description ? { description } : {}),
      ...(enumValues !== undefined ? { enumValues } : {}),
    };
  });

/** A variable as answered: `defaultValue` beside `default` (the same value), which Simplex's CLI reads. */
export const VariableAsSent = StoredVariable.extend({
  defaultValue: DefaultValue.optional().describe("The same as default, under the name Simplex's clients read"),
});
export type VariableAsSent = z.infer<typeof VariableAsSent>;
export const variableAsSent = (v: Variable): VariableAsSent =>
  v.default === undefined ? v : { ...v, defaultValue: v.default };

/** `{{name}}` placeholders, filled from the run's variables in `url` and `value` fields. */
export const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/**
 * `{{credentials.NAME}}`: a stored credential, typed by the runner. Allowed only in a change step's
 * `value`: anywhere else (a URL above all) the secret would end up in navigation history and logs.
 * Not a variable: it is not declared, and fillPlaceholders leaves it for the runner.
 */
const CREDENTIALS_PREFIX = 'credentials.';
export const CREDENTIAL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,99}$/;

/** The NAME of a `credentials.NAME` placeholder (the text between the braces), or undefined when it is not one. */
export function credentialOf(placeholder: string): string | undefined {
  return placeholder.startsWith(CREDENTIALS_PREFIX) ? placeholder.slice(CREDENTIALS_PREFIX.length) : undefined;
}

/** Names of the credentials a (validated) flow types, each once, in the order they first appear. */
export function credentialNamesOf(flow: { steps: readonly Step[] }): string[] {
  const names = new Set<string>();
  for (const step of flow.steps) {
    if (step.type !== 'change') continue;
    for (const p of placeholdersOf(step.value)) {
      const name = credentialOf(p);
      if (name !== undefined && CREDENTIAL_NAME.test(name)) names.add(name);
    }
  }
  return [...names];
}

/** Every string in a JSON value with its path (iterative: the flow's depth is limited, but no recursion anyway). */
function stringsOf(value: unknown): { text: string; path: (string | number)[] }[] {
  const out: { text: string; path: (string | number)[] }[] = [];
  const todo: [unknown, (string | number)[]][] = [[value, []]];
  while (todo.length) {
    const [v, path] = todo.pop()!;
    if (typeof v === 'string') out.push({ text: v, path });
    else if (Array.isArray(v)) v.forEach((child, i) => todo.push([child, [...path, i]]));
    else if (v !== null && typeof v === 'object')
      for (const [k, child] of Object.entries(v)) todo.push([child, [...path, k]]);
  }
  return out;
}

export const METADATA_MAX_CHARS = 10_000;
/** A workflow's metadata: free text (not necessarily JSON) that search_workflows matches exactly. */
export const WorkflowMetadata = z
  .string({ error: 'metadata must be a string' })
  .refine((s) => codePointLength(s) <= METADATA_MAX_CHARS, {
    message: `metadata must be at most ${METADATA_MAX_CHARS} characters`,
  })
  .check(wellFormed('metadata'), noNul('metadata'));
/** Metadata as sent: a string, or null; "" is the same as null (no metadata), so there is one way to say "none". */
export const MetadataInput = WorkflowMetadata.nullable()
  .transform((s) => (s === '' ? null : s))
  .describe(`Free text up to ${METADATA_MAX_CHARS} characters (not necessarily JSON); null or "" means none`);

/**
 * Simplex's structured outputs (its CLI's `set-outputs --field total:number`): the fields a run
 * hands back in `structured_output`, each the extract step of that `as` name, typed.
 */
export const OutputType = z.enum(['string', 'number', 'boolean', 'array', 'object', 'enum']);
export const OUTPUT_FIELDS_MAX = 200;
export const OutputField = z
  .looseObject({
    name: z
      .string({ error: 'name must be a string' })
      .min(1, 'name must not be empty')
      .max(200, 'name must be at most 200 characters')
      .check(wellFormed('name'))
      .describe('The extract step whose value this is (its `as`)'),
    type: OutputType,
    description: Description.optional(),
    enumValues: EnumValues.optional().describe('type enum only, and required for it'),
  })
  .superRefine(checkEnumValues);
export type OutputField = z.infer<typeof OutputField>;
const OutputFields = z
  .array(OutputField)
  .max(OUTPUT_FIELDS_MAX, `structured_output may declare at most ${OUTPUT_FIELDS_MAX} fields`)
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    fields.forEach((f, i) => {
      if (seen.has(f.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `${f.name} is declared twice` });
      seen.add(f.name);
    });
  });

/**
 * Any JSON kept with the workflow for Simplex's clients. A list is Simplex's list of output fields
 * and is checked as such (the runs type their outputs by it); a JSON Schema object's `properties`
 * type them too; anything else is kept as given and not used.
 */
export const StructuredOutput = z
  .unknown()
  .superRefine((value, ctx) => {
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
      ctx.addIssue({ code: 'custom', message: tooDeepMessage('structured_output') });
      return;
    }
    if (!Array.isArray(value)) return;
    const r = OutputFields.safeParse(value);
    if (!r.success)
      for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  })
  .describe(
    "A list of output fields [{name, type: string|number|boolean|array|object|enum, description?, enumValues?}] (Simplex's shape), by which a run types its extract values in structured_output; a JSON Schema object, whose properties type them the same way; or any other JSON, kept as given. null means none",
  );

const WorkflowFields = z
  .object({
    name: z.string().trim().min(1, 'name must not be empty').max(200).check(wellFormed('name')),
    flow: Flow,
    variables: z.array(Variable).max(100).default([]),
    metadata: MetadataInput.optional().describe(
      'Free text (≤ 10,000 characters, not necessarily JSON). Absent: none on create, the stored value kept on update; null or "" clears it',
    ),
    structured_output: StructuredOutput.optional().describe(
      'Output fields (or any JSON). Absent: none on create, the stored value kept on update; null clears it',
    ),
  })
  .strict();

export const WorkflowInput = WorkflowFields.superRefine((w, ctx) => {
  const declared = new Set<string>();
  w.variables.forEach((v, i) => {
    if (declared.has(v.name))
      ctx.addIssue({ code: 'custom', path: ['variables', i, 'name'], message: `variable ${v.name} is declared twice` });
    declared.add(v.name);
  });
  w.flow.steps.forEach((step, i) => {
    for (const field of ['url', 'value'] as const) {
      const text = (step as Record<string, unknown>)[field];
      if (typeof text !== 'string') continue;
      for (const name of placeholdersOf(text)) {
        if (credentialOf(name) !== undefined) continue; // checked below, wherever they are
        if (!declared.has(name)) {
          ctx.addIssue({
            code: 'custom',
            path: ['flow', 'steps', i, field],
            message: `step ${i + 1} (${step.type}) uses {{${name}}} but no variable ${name} is declared`,
          });
        }
      }
    }
  });
  for (const { text, path } of stringsOf(w.flow)) {
    for (const placeholder of placeholdersOf(text)) {
      const name = credentialOf(placeholder);
      if (name === undefined) continue;
      const [top, index, field] = path;
      const step = top === 'steps' && typeof index === 'number' ? w.flow.steps[index] : undefined;
      const where = step
        ? `step ${(index as number) + 1} (${step.type === 'customStep' ? step.name : step.type}) uses {{${placeholder}}} in ${path.slice(2).join('.')}`
        : `{{${placeholder}}} is in ${path.join('.')}`;
      if (!(step?.type === 'change' && field === 'value' && path.length === 3)) {
        ctx.addIssue({
          code: 'custom',
          path: ['flow', ...path],
          message: `${where}: a credential may only be typed by a change step's value, never put in a URL (it would leak into navigation history and logs) or anywhere else`,
        });
      } else if (!CREDENTIAL_NAME.test(name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['flow', ...path],
          message: `${where}: a credential name must be 1 to 100 letters, digits, _ or -, starting with a letter or _`,
        });
      }
    }
  }
});
export type WorkflowInput = z.input<typeof WorkflowInput>;

export const Workflow = z.object({
  id: z.uuid(),
  name: z.string(),
  flow: Flow,
  variables: z.array(VariableAsSent),
  metadata: z.string().nullable().describe('Free text, null when none'),
  structured_output: z
    .unknown()
    .describe(
      "As given: the output fields that type a run's structured_output, or other JSON kept for Simplex's clients; null when none",
    ),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type Workflow = z.infer<typeof Workflow>;

/** Workflow, with its flow as the server sent it (keys in their written order, see flowAsGiven). */
export const WorkflowAsSent = z.unknown().transform((data, ctx): Workflow => {
  const parsed = Workflow.safeParse(data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  }
  return { ...parsed.data, flow: (data as { flow: Flow }).flow };
});

export const WorkflowsPage = page(Workflow);
export type WorkflowsPage = z.infer<typeof WorkflowsPage>;

export const WorkflowParams = z.object({ id: z.uuid() });

/*
 * The calls of Simplex's official clients (simplex-ts, simplex for Python) around workflows, so a
 * client pointed at /api works unchanged: search by name or metadata, set metadata, and the Python
 * client's create / get / update of a workflow, which it describes as a start `url` plus `actions`.
 */

export const SEARCH_LIMIT = 1000;
const emptyIsAbsent = (s: string | undefined) => (s === '' ? undefined : s);
export const SearchWorkflowsQuery = z.object({
  workflow_name: z
    .string()
    .max(200)
    .optional()
    .transform(emptyIsAbsent)
    .describe(
      'Part of the name, any case (Unicode case folding; %, _ and \\ are plain characters). Empty or absent: any name',
    ),
  metadata: z
    .string()
    .optional()
    .transform(emptyIsAbsent)
    .describe('The whole metadata, exactly. Empty or absent: any metadata'),
});

export const WorkflowSearchHit = z.object({
  workflow_id: z.uuid(),
  workflow_name: z.string(),
  variables: z.array(VariableAsSent),
  metadata: z.string().nullable(),
});
export const SearchWorkflowsResponse = z.object({
  succeeded: z.literal(true),
  workflows: z.array(WorkflowSearchHit).describe(`Newest first, at most ${SEARCH_LIMIT}`),
  count: z.number().int().describe('How many workflows are in this answer'),
});
export type SearchWorkflowsResponse = z.infer<typeof SearchWorkflowsResponse>;

export const UpdateWorkflowMetadataFields = z
  .object({
    workflow_id: z.uuid('workflow_id must be a UUID'),
    metadata: MetadataInput,
  })
  .strict();
export const UpdateWorkflowMetadataResponse = z.object({
  succeeded: z.literal(true),
  message: z.string(),
  workflow_id: z.uuid(),
  metadata: z.string().nullable().describe('As stored: null when cleared'),
});

/**
 * Variables as the Python client sends them: a list of variables (ours, or its CLI's with
 * description, enumValues and defaultValue), or `{name: default}` (each an optional variable typed
 * by its default; null: a string with no default). A list's items are checked as workflow variables
 * after this (simplexWorkflow.ts), so each issue names its item rather than the whole union.
 */
export const SimplexVariables = z.union([
  z
    .array(z.unknown())
    .max(100)
    .describe('Variables: [{name, type, required?, default?|defaultValue?, description?, enumValues?}]'),
  z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
]);
export type SimplexVariables = z.infer<typeof SimplexVariables>;

export const SimplexWorkflowCreate = z
  .object({
    name: WorkflowFields.shape.name,
    url: z
      .string()
      .min(1)
      .nullish()
      .describe(
        "Where the flow starts: its first navigate step (on update: replaces the first navigate step's url, or adds one in front)",
      ),
    actions: z
      .array(Step)
      .max(1000)
      .nullish()
      .describe(
        'Recorder steps after the start url (on update: replace every step after the first navigate step, or all steps when there is none)',
      ),
    variables: SimplexVariables.nullish().describe(
      'A list of variables, or an object {name: default}; on update replaces them all',
    ),
    structured_output: WorkflowFields.shape.structured_output,
    metadata: WorkflowFields.shape.metadata,
  })
  .strict();
export type SimplexWorkflowCreate = z.output<typeof SimplexWorkflowCreate>;
export const SimplexWorkflowUpdate = SimplexWorkflowCreate.partial();
export type SimplexWorkflowUpdate = z.output<typeof SimplexWorkflowUpdate>;

export const SimplexWorkflowResponse = z.object({ succeeded: z.literal(true), workflow: Workflow });
export const SimplexWorkflowSaved = z.object({ succeeded: z.literal(true), message: z.string(), workflow: Workflow });

export const workflowOperations = defineOperations({
  listWorkflows: {
    operationId: 'listWorkflows',
    method: 'get',
    path: '/workflows',
    summary:
      "Saved workflows, newest first; a workflow that a session's new workflow_name made is listed once it is saved (PUT) or given metadata",
    tags: ['workflows'],
    query: PageQuery,
    responses: { 200: { description: 'A page of workflows', schema: WorkflowsPage } },
    errors: [401, 422],
  },
  createWorkflow: {
    operationId: 'createWorkflow',
    method: 'post',
    path: '/workflows',
    summary: 'Save a workflow: a Chrome DevTools Recorder flow plus its variables',
    tags: ['workflows'],
    body: { contentTypes: ['application/json'], schema: WorkflowInput },
    responses: { 201: { description: 'The saved workflow', schema: Workflow } },
    errors: [400, 401, 409, 413, 415, 422],
  },
  getWorkflow: {
    operationId: 'getWorkflow',
    method: 'get',
    path: '/workflows/{id}',
    summary: 'One workflow',
    tags: ['workflows'],
    params: WorkflowParams,
    responses: { 200: { description: 'The workflow', schema: Workflow } },
    errors: [401, 404, 422],
  },
  updateWorkflow: {
    operationId: 'updateWorkflow',
    method: 'put',
    path: '/workflows/{id}',
    summary:
      "Replace a workflow's name, flow and variables. metadata and structured_output are kept when absent (so an editor that does not know them cannot wipe them) and cleared by null",
    tags: ['workflows'],
    params: WorkflowParams,
    body: { contentTypes: ['application/json'], schema: WorkflowInput },
    responses: { 200: { description: 'The updated workflow', schema: Workflow } },
    errors: [400, 401, 404, 409, 413, 415, 422],
  },
  deleteWorkflow: {
    operationId: 'deleteWorkflow',
    method: 'delete',
    path: '/workflows/{id}',
    summary: 'Delete a workflow',
    tags: ['workflows'],
    params: WorkflowParams,
    responses: { 204: { description: 'Deleted' } },
    errors: [401, 404, 422],
  },
  searchWorkflows: {
    operationId: 'searchWorkflows',
    method: 'get',
    path: '/search_workflows',
    summary: `Find workflows by part of their name (any case) and/or their exact metadata; both must match when both are given, neither lists all. Newest first, at most ${SEARCH_LIMIT} (Simplex's clients)`,
    tags: ['workflows'],
    query: SearchWorkflowsQuery,
    responses: { 200: { description: 'The matching workflows', schema: SearchWorkflowsResponse } },
    errors: [401, 422],
  },
  updateWorkflowMetadata: {
    operationId: 'updateWorkflowMetadata',
    method: 'post',
    path: '/update_workflow_metadata',
    summary: 'Set a workflow\'s metadata ("" clears it); updated_at moves (Simplex\'s clients)',
    tags: ['workflows'],
    body: { contentTypes: FORM_OR_JSON, schema: UpdateWorkflowMetadataFields },
    responses: { 200: { description: 'The metadata as stored', schema: UpdateWorkflowMetadataResponse } },
    errors: [400, 401, 404, 413, 415, 422],
  },
  simplexGetWorkflow: {
    operationId: 'simplexGetWorkflow',
    method: 'get',
    path: '/workflow/{id}',
    summary: "One workflow, wrapped as Simplex's Python client expects",
    tags: ['workflows'],
    params: WorkflowParams,
    responses: { 200: { description: 'The workflow', schema: SimplexWorkflowResponse } },
    errors: [401, 404, 422],
  },
  simplexCreateWorkflow: {
    operationId: 'simplexCreateWorkflow',
    method: 'post',
    path: '/workflow',
    summary:
      "Create a workflow as Simplex's Python client does: `url` becomes a first navigate step and `actions` (Recorder steps) follow it. Answers 200, as Simplex does; the same rules as POST /workflows",
    tags: ['workflows'],
    body: { contentTypes: ['application/json'], schema: SimplexWorkflowCreate },
    responses: { 200: { description: 'The created workflow', schema: SimplexWorkflowSaved } },
    errors: [400, 401, 409, 413, 415, 422],
  },
  simplexUpdateWorkflow: {
    operationId: 'simplexUpdateWorkflow',
    method: 'patch',
    path: '/workflow/{id}',
    summary:
      "Change some of a workflow's fields as Simplex's Python client does: `url` replaces the first navigate step's url (or adds one in front), `actions` replace the steps after it; fields left out are kept",
    tags: ['workflows'],
    params: WorkflowParams,
    body: { contentTypes: ['application/json'], schema: SimplexWorkflowUpdate },
    responses: { 200: { description: 'The updated workflow', schema: SimplexWorkflowSaved } },
    errors: [400, 401, 404, 409, 413, 415, 422],
  },
});
