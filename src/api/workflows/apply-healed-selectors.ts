import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Workflow, WorkflowInput } from '../../../contract/workflows.ts';
import { isStatus } from '../errors.ts';
import { getWorkflow } from './get-workflow.ts';
import { workflowKeys } from './keys.ts';
import { saveWorkflow } from './save-workflow.ts';

/** What a StepHealed event says to change: step (from 1) of workflow_id, of type action. */
export interface HealedStep {
  workflow_id: string;
  step: number;
  action: string;
  old_selectors: readonly unknown[];
  new_selectors: readonly unknown[];
}

export type ApplyHealedResult =
  | { outcome: 'applied'; workflow: Workflow }
  /** The stored step is no longer the one the run healed: nothing was written. */
  | { outcome: 'changed' }
  /** The workflow was deleted since the run. */
  | { outcome: 'gone' };

/** Same JSON value (selectors are strings and lists of strings). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every(
        (k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
      )
    );
  }
  return false;
}

/**
 * The workflow with the healed step's selectors replaced, or null when that step is not (any
 * more) the one the run healed: missing, of another type, or with other selectors. Everything
 * else is kept as it is, keys in their written order (the flow is stored as given).
 */
export function withHealedSelectors(workflow: Workflow, healed: HealedStep): WorkflowInput | null {
  const i = healed.step - 1;
  const step = workflow.flow.steps[i] as Record<string, unknown> | undefined;
  if (!step || step.type !== healed.action || !sameJson(step.selectors, healed.old_selectors)) return null;
  const steps = workflow.flow.steps.map((s, j) => (j === i ? { ...s, selectors: [...healed.new_selectors] } : s));
  return {
    name: workflow.name,
    flow: { ...workflow.flow, steps } as WorkflowInput['flow'],
    // Answered with defaultValue beside default (the same value): sent back as stored.
    // metadata and structured_output are left out, so the server keeps them as they are.
    variables: workflow.variables.map(({ defaultValue: _same, ...v }) => v),
  };
}

/** GET the workflow, check the healed step is unchanged, then PUT it with the new selectors. */
export async function applyHealedSelectors(healed: HealedStep): Promise<ApplyHealedResult> {
  let workflow: Workflow;
  try {
    workflow = await getWorkflow(healed.workflow_id);
  } catch (err) {
    if (isStatus(err, 404)) return { outcome: 'gone' };
    throw err;
  }
  const input = withHealedSelectors(workflow, healed);
  if (!input) return { outcome: 'changed' };
  try {
    return { outcome: 'applied', workflow: await saveWorkflow({ id: healed.workflow_id, input }) };
  } catch (err) {
    if (isStatus(err, 404)) return { outcome: 'gone' };
    throw err;
  }
}

export function useApplyHealedSelectors() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: applyHealedSelectors,
    onSuccess: (result, healed) => {
      if (result.outcome === 'gone') {
        queryClient.removeQueries({ queryKey: workflowKeys.one(healed.workflow_id) });
        return queryClient.invalidateQueries({ queryKey: workflowKeys.lists() });
      }
      return queryClient.invalidateQueries({ queryKey: workflowKeys.all });
    },
  });
}
