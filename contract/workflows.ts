import { z } from 'zod';
import { page, PageQuery, shallowJson, wellFormed } from './common.ts';
import { defineOperations } from './operation.ts';

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
      .refine((f) => !/[/\\]/.test(f) && f !== '.' && f !== '..', { message: 'file must be a plain file name, no folders' }),
  }),
});

/** Custom step: put an element's text (or one attribute) into the run's outputs under `as`. */
export const ExtractStep = z.looseObject({
  ...base,
  type: z.literal('customStep'),
  name: z.literal('extract'),
  parameters: z.object({
    selectors: Selectors,
    as: z.string().regex(VARIABLE_NAME, 'as must be a name: letters, digits and _, not starting with a digit'),
    attribute: z.string().min(1).optional(),
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
  z.looseObject({ ...base, type: z.literal('scroll'), selectors: Selectors.optional(), x: z.number().optional(), y: z.number().optional() }),
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
  z.discriminatedUnion('name', [UploadFileStep, ExtractStep]),
]);
export type Step = z.infer<typeof Step>;

export const Flow = z.looseObject({
  title: z.string(),
  timeout: z.number().int().positive().optional(),
  selectorAttribute: z.string().optional(),
  steps: z.array(Step).max(1000),
}).check(shallowJson('flow'));
export type Flow = z.infer<typeof Flow>;

export const VariableType = z.enum(['string', 'number', 'boolean']);
export const Variable = z
  .object({
    name: z.string().regex(VARIABLE_NAME, 'name must be letters, digits and _, not starting with a digit'),
    type: VariableType,
    required: z.boolean().default(false),
    default: z.union([z.string(), z.number(), z.boolean()]).optional(),
  })
  .strict()
  .refine((v) => v.default === undefined || typeof v.default === v.type, {
    message: 'default must have the variable\'s type',
    path: ['default'],
  });
export type Variable = z.infer<typeof Variable>;

/** `{{name}}` placeholders, filled from the run's variables in `url` and `value` fields. */
export const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

export const WorkflowInput = z
  .object({
    name: z.string().trim().min(1, 'name must not be empty').max(200).check(wellFormed('name')),
    flow: Flow,
    variables: z.array(Variable).max(100).default([]),
  })
  .strict()
  .superRefine((w, ctx) => {
    const declared = new Set<string>();
    w.variables.forEach((v, i) => {
      if (declared.has(v.name)) ctx.addIssue({ code: 'custom', path: ['variables', i, 'name'], message: `variable ${v.name} is declared twice` });
      declared.add(v.name);
    });
    w.flow.steps.forEach((step, i) => {
      for (const field of ['url', 'value'] as const) {
        const text = (step as Record<string, unknown>)[field];
        if (typeof text !== 'string') continue;
        for (const name of placeholdersOf(text)) {
          if (!declared.has(name)) {
            ctx.addIssue({
              code: 'custom',
              path: ['flow', 'steps', i, field],
              message: `step ${i} (${step.type}) uses {{${name}}} but no variable ${name} is declared`,
            });
          }
        }
      }
    });
  });
export type WorkflowInput = z.input<typeof WorkflowInput>;

export const Workflow = z.object({
  id: z.uuid(),
  name: z.string(),
  flow: Flow,
  variables: z.array(Variable),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type Workflow = z.infer<typeof Workflow>;

export const WorkflowsPage = page(Workflow);
export type WorkflowsPage = z.infer<typeof WorkflowsPage>;

export const WorkflowParams = z.object({ id: z.uuid() });

export const workflowOperations = defineOperations({
  listWorkflows: {
    operationId: 'listWorkflows',
    method: 'get',
    path: '/workflows',
    summary: 'Saved workflows, newest first',
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
    summary: 'Replace a workflow\'s name, flow and variables',
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
});
