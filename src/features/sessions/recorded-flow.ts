import type { RecorderState } from '../../../contract/recorder.ts';
import type { WorkflowInput } from '../../../contract/workflows.ts';

/**
 * The workflow a person saves from a recording: the steps they kept (Undo takes steps out by their
 * number), each placeholder renamed as they named it.
 */
export function recordedWorkflow(
  state: RecorderState,
  { name, removed, names }: { name: string; removed: ReadonlySet<number>; names: Record<string, string> },
): WorkflowInput {
  const renamed = (v: string) => names[v]?.trim() || v;
  const steps = state.flow.steps
    .filter((_, i) => !removed.has(i))
    .map((step) => {
      if (step.type !== 'change') return step;
      return {
        ...step,
        value: step.value.replace(/\{\{(\w+)\}\}/g, (m, v: string) => (v in names ? `{{${renamed(v)}}}` : m)),
      };
    });
  return {
    name,
    flow: { ...state.flow, title: name, steps },
    variables: state.variables.map((v) => ({ ...v, name: renamed(v.name) })),
  };
}

/** The step Undo takes out: the last one not taken out yet. */
export function lastKept(count: number, removed: ReadonlySet<number>): number | undefined {
  for (let i = count - 1; i >= 0; i--) if (!removed.has(i)) return i;
  return undefined;
}
