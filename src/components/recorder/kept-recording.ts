import type { RecorderState } from '../../../contract/recorder.ts';
import type { Step } from '../../../contract/steps.ts';
import type { Variable } from '../../../contract/variables.ts';

/**
 * What a recorder's placeholder (a password typed, `{{password}}`) becomes when saved: a variable
 * of the name the person gives, or a stored credential the runner types (`{{credentials.NAME}}`).
 */
export type PlaceholderChoice = { kind: 'variable'; name: string } | { kind: 'credential'; name: string };

/** The text between the braces a choice writes; blank or unset keeps the recorder's own name. */
function placeholderFor(recorded: string, choice: PlaceholderChoice | undefined): string {
  if (!choice || !choice.name.trim()) return recorded;
  return choice.kind === 'credential' ? `credentials.${choice.name.trim()}` : choice.name.trim();
}

/**
 * The steps a person keeps from a recording (Undo takes steps out by their number), each
 * placeholder written as they chose, and the variables those steps need: a placeholder made a
 * stored credential is no variable (credentials are typed by the runner, never declared).
 */
export function keptRecording(
  state: RecorderState,
  { removed, names }: { removed: ReadonlySet<number>; names: Readonly<Record<string, PlaceholderChoice>> },
): { steps: Step[]; variables: Variable[] } {
  const declared = new Set(state.variables.map((v) => v.name));
  const steps = state.flow.steps
    .filter((_, i) => !removed.has(i))
    .map((step) => {
      if (step.type !== 'change') return step;
      return {
        ...step,
        value: step.value.replace(/\{\{(\w+)\}\}/g, (m, v: string) =>
          declared.has(v) ? `{{${placeholderFor(v, names[v])}}}` : m,
        ),
      };
    });
  const variables = state.variables.flatMap((v) =>
    names[v.name]?.kind === 'credential' && names[v.name]!.name
      ? []
      : [{ ...v, name: placeholderFor(v.name, names[v.name]) }],
  );
  return { steps, variables };
}

/** The step Undo takes out: the last one not taken out yet. */
export function lastKept(count: number, removed: ReadonlySet<number>): number | undefined {
  for (let i = count - 1; i >= 0; i--) if (!removed.has(i)) return i;
  return undefined;
}
