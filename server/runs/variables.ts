import type { Issue } from '../../contract/errors.ts';
import { answerVariablesOf, type Flow } from '../../contract/steps.ts';
import type { Variable } from '../../contract/variables.ts';
import { fillStep, type VariableValues } from './fillTemplate.ts';

export type { VariableValues };

/**
 * Check a run's variables against the workflow's declarations: every required one present (or
 * defaulted), each of its declared type (an enum's: one of its values), none undeclared. Issues
 * name `variables.<name>`.
 */
export function resolveVariables(
  declared: Variable[],
  given: Record<string, unknown>,
): { values: VariableValues; issues: Issue[] } {
  const values: VariableValues = {};
  const issues: Issue[] = [];
  const names = new Set(declared.map((v) => v.name));
  for (const name of Object.keys(given)) {
    if (!names.has(name))
      issues.push({ path: `variables.${name}`, message: `the workflow declares no variable ${name}` });
  }
  for (const v of declared) {
    const value = Object.hasOwn(given, v.name) ? given[v.name] : v.default;
    if (value === undefined || value === null) {
      if (v.required) issues.push({ path: `variables.${v.name}`, message: `${v.name} is required (${v.type})` });
      continue;
    }
    if (v.type === 'enum') {
      const allowed = v.enumValues ?? [];
      if (typeof value !== 'string' || !allowed.includes(value)) {
        issues.push({
          path: `variables.${v.name}`,
          message: `${v.name} must be one of: ${allowed.join(', ')} (got ${JSON.stringify(value).slice(0, 100)})`,
        });
        continue;
      }
    } else if (typeof value !== v.type || (v.type === 'number' && !Number.isFinite(value))) {
      issues.push({
        path: `variables.${v.name}`,
        message: `${v.name} must be a ${v.type}, got ${Array.isArray(value) ? 'array' : typeof value}`,
      });
      continue;
    }
    values[v.name] = value as string | number | boolean;
  }
  return { values, issues };
}

/**
 * The flow with `{{name}}` filled in every url and value field, as a run reports its steps; an
 * optional variable left unset fills as ''. `{{credentials.NAME}}` and a pause step's answer
 * variable are left as they are. A run itself fills each step from the stored template when it
 * runs it, in one pass (fillTemplate.ts), never from this: text a variable brought in is not
 * read for placeholders again.
 */
export function fillPlaceholders(flow: Flow, values: VariableValues): Flow {
  const answerNames = new Set(answerVariablesOf(flow).keys());
  return { ...flow, steps: flow.steps.map((step) => fillStep(step, { variables: values, answerNames })) };
}

/** File names the flow's uploadFile steps need from the run's `files`. */
export function filesNeeded(flow: Flow): { index: number; file: string }[] {
  return flow.steps.flatMap((step, index) =>
    step.type === 'customStep' && step.name === 'uploadFile' ? [{ index, file: step.parameters.file }] : [],
  );
}
