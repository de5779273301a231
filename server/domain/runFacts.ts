import type { DialogType } from '../../contract/sessionEvents.ts';

/**
 * Facts about a run that cross domains: the engine and the workflows produce them, the bus carries
 * them, session records and webhooks read them. Declared here, below all of those, so that the bus
 * (which every domain imports) need not import any of them.
 */

/** A dialog a page opened during a run, and how the run answered it (runs/engine/dialogs.ts). */
export interface DialogSeen {
  type: DialogType;
  /** Its text, at most 500 characters. */
  message: string;
  answer: 'accepted';
}

/** What a run's status and final webhook carry of its workflow (WorkflowService.runFactsOf). */
export interface WorkflowRunFacts {
  metadata: string | null;
  /** The workflow's structured_output as stored (output fields, or other JSON); null when none. */
  structuredOutput: unknown;
  /** The output names of the workflow's AI extract steps (aiOutputNames): JSON text, kept typed in structured_output. */
  aiOutputs: string[];
}
