import type { Flow } from '../../../contract/steps.ts';
import { credentialNamesOf } from '../../../contract/placeholders.ts';

export interface WorkflowNeeds {
  /** File names its uploadFile steps pick from the run's files, each once, in step order. */
  files: string[];
  /** Stored credentials its change steps type (`{{credentials.NAME}}`), each once, in step order. */
  credentials: string[];
}

export function needsOf(flow: Flow): WorkflowNeeds {
  const files = new Set<string>();
  for (const step of flow.steps)
    if (step.type === 'customStep' && step.name === 'uploadFile') files.add(step.parameters.file);
  return { files: [...files], credentials: credentialNamesOf(flow) };
}

/** Which of the needed files are not among those chosen (uploadFile matches by name). */
export const missingFiles = (needed: readonly string[], chosen: readonly { name: string }[]) =>
  needed.filter((n) => !chosen.some((f) => f.name === n));
