import type { RecorderState } from '../../../contract/recorder.ts';
import type { WorkflowInput } from '../../../contract/workflows.ts';
import { keptRecording, type PlaceholderChoice } from '../../components/recorder/kept-recording.ts';
import type { TypedChoice } from '../../components/recorder/typed-values.ts';

/**
 * The new workflow a person saves from a recording: the steps they kept (Undo takes steps out by
 * their number), each placeholder a variable or a stored credential as they chose, and each typed
 * value they made a variable.
 */
export function recordedWorkflow(
  state: RecorderState,
  {
    name,
    removed,
    names,
    typed,
  }: {
    name: string;
    removed: ReadonlySet<number>;
    names: Readonly<Record<string, PlaceholderChoice>>;
    typed?: Readonly<Record<number, TypedChoice>>;
  },
): WorkflowInput {
  const { steps, variables } = keptRecording(state, { removed, names, typed });
  return { name, flow: { ...state.flow, title: name, steps }, variables };
}
