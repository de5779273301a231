import type { Step } from '../../../contract/steps.ts';
import type { Variable } from '../../../contract/variables.ts';
import { insertSteps } from './flow-steps.ts';
import { variableRowOf, type VariableRow } from './workflow-form.ts';

/**
 * Where a recording starts and where its steps go, as the person chose them before Record: carried
 * across "Save and record" (a new workflow is saved first, and its own page then starts recording).
 */
export interface RecordPlan {
  startUrl: string;
  /** A step's number (from 0) the steps go after, or 'end'. */
  after: string;
}

/**
 * Recorded steps into the flow's text after step `after` (at the end when it is not given, or
 * when the flow has since lost that step). The steps already there keep their text.
 */
export function insertRecorded(text: string, steps: readonly Step[], after?: number): string {
  const placed = after === undefined ? text : insertSteps(text, steps, after);
  return placed !== text ? placed : insertSteps(text, steps);
}

/**
 * The numbers of the steps a recording opens with: the window size and the start page the
 * recorder writes first. Kept for a flow's beginning; left out when the steps go after others.
 */
export function openingSteps(steps: readonly Step[]): number[] {
  const out: number[] = [];
  if (steps[0]?.type === 'setViewport') out.push(0);
  if (steps[out.length]?.type === 'navigate') out.push(out.length);
  return out;
}

/** The variable rows to add for a recording's variables: those the workflow does not declare yet. */
export function rowsToDeclare(declared: readonly VariableRow[], variables: readonly Variable[]): VariableRow[] {
  const names = new Set(declared.map((r) => r.name));
  return variables.filter((v) => !names.has(v.name)).map(variableRowOf);
}
