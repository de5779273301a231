import type { RecorderState } from '../../../contract/recorder.ts';
import type { WorkflowInput } from '../../../contract/workflows.ts';
import { keptRecording, type PlaceholderChoice } from '../../components/recorder/kept-recording.ts';

/**
 * The new workflow a person saves from a recording: the steps they kept (Undo takes steps out by
 * their number), each placeholder a variable or a stored credential as they chose.
 */
export function recordedWorkflow(
  state: RecorderState,
  {
    name,
    removed,
    names,
  }: { name: string; removed: ReadonlySet<number>; names: Readonly<Record<string, PlaceholderChoice>> },
): WorkflowInput {
  const { steps, variables } = keptRecording(state, { removed, names });
  return { name, flow: { ...state.flow, title: name, steps }, variables };
}
