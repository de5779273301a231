import { z } from 'zod';
import type { Step } from '../../contract/steps.ts';
import {
  WorkflowInput,
  type SimplexVariables,
  type SimplexWorkflowCreate,
  type SimplexWorkflowUpdate,
  type Workflow,
} from '../../contract/workflows.ts';
import { Invalid } from '../domain/errors.ts';
import { issuesOf } from '../domain/parse.ts';

/**
 * The Python client's view of a workflow (`name`, a start `url`, `actions`, `variables` as a list or
 * `{name: default}`) turned into a WorkflowInput and checked by that same schema, so both APIs keep
 * one set of rules. Issues are put back on the fields the caller sent (`url`, `actions.2.value`,
 * `variables.city.default`) rather than on the flow they were turned into.
 */

type Path = PropertyKey[];
type Built = {
  candidate: Record<string, unknown>;
  stepOrigin: (string | undefined)[];
  variableOrigin?: (i: number) => string;
};

function variablesFrom(v: SimplexVariables): { list: unknown[]; origin: (i: number) => string } {
  if (Array.isArray(v)) return { list: v, origin: (i) => `variables.${i}` };
  const entries = Object.entries(v);
  return {
    list: entries.map(([name, value]) =>
      value === null
        ? { name, type: 'string', required: false }
        : { name, type: typeof value, required: false, default: value },
    ),
    origin: (i) => `variables.${entries[i]?.[0] ?? i}`,
  };
}

function remap(path: Path, built: Built): Path {
  const [head, second, index, ...rest] = path;
  if (head === 'flow' && second === 'steps' && typeof index === 'number') {
    const origin = built.stepOrigin[index];
    if (origin === 'url') return ['url'];
    if (origin) return [...origin.split('.'), ...rest];
  }
  if (
    head === 'flow' &&
    second === 'steps' &&
    path.length === 2 &&
    built.stepOrigin.some((o) => o?.startsWith('actions.'))
  )
    return ['actions'];
  if (head === 'variables' && typeof second === 'number' && built.variableOrigin)
    return [...built.variableOrigin(second).split('.'), ...path.slice(2)];
  return path;
}

function parse(built: Built): z.output<typeof WorkflowInput> {
  const r = WorkflowInput.safeParse(built.candidate);
  if (r.success) return r.data;
  throw new Invalid(issuesOf(new z.ZodError(r.error.issues.map((i) => ({ ...i, path: remap(i.path, built) })))));
}

/** POST /workflow: `url` is the first step (a navigate), `actions` follow it; the flow's title is the name. */
export function inputFromCreate(body: SimplexWorkflowCreate): z.output<typeof WorkflowInput> {
  const start: Step[] = body.url != null ? [{ type: 'navigate', url: body.url }] : [];
  const actions = body.actions ?? [];
  const vars = body.variables != null ? variablesFrom(body.variables) : undefined;
  return parse({
    candidate: {
      name: body.name,
      flow: { title: body.name, steps: [...start, ...actions] },
      ...(vars ? { variables: vars.list } : {}),
      ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
      ...(body.structured_output !== undefined ? { structured_output: body.structured_output } : {}),
    },
    stepOrigin: [...start.map(() => 'url'), ...actions.map((_, i) => `actions.${i}`)],
    variableOrigin: vars?.origin,
  });
}

/**
 * PATCH /workflow/{id} over the stored workflow: `url` replaces the url of the first navigate step
 * (or adds a navigate in front), `actions` replace every step after that navigate (all of them when
 * there is none); fields left out (or null, for url, actions and variables) are kept.
 */
export function inputFromUpdate(current: Workflow, body: SimplexWorkflowUpdate): z.output<typeof WorkflowInput> {
  let steps: Step[] = [...current.flow.steps];
  let origins: (string | undefined)[] = steps.map(() => undefined);
  let nav = steps.findIndex((s) => s.type === 'navigate');
  if (body.url != null) {
    if (nav >= 0) steps[nav] = { ...steps[nav]!, url: body.url } as Step;
    else {
      steps = [{ type: 'navigate', url: body.url }, ...steps];
      origins = [undefined, ...origins];
      nav = 0;
    }
    origins[nav] = 'url';
  }
  if (body.actions != null) {
    steps = [...steps.slice(0, nav + 1), ...body.actions];
    origins = [...origins.slice(0, nav + 1), ...body.actions.map((_, i) => `actions.${i}`)];
  }
  const vars = body.variables != null ? variablesFrom(body.variables) : undefined;
  return parse({
    candidate: {
      name: body.name ?? current.name,
      flow: { ...current.flow, steps },
      variables: vars ? vars.list : current.variables,
      ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
      ...(body.structured_output !== undefined ? { structured_output: body.structured_output } : {}),
    },
    stepOrigin: origins,
    variableOrigin: vars?.origin,
  });
}
