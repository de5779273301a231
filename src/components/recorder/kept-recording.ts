import type { RecorderState } from '../../../contract/recorder.ts';
import type { Step } from '../../../contract/steps.ts';
import type { Variable } from '../../../contract/variables.ts';
import type { TypedChoice } from './typed-values.ts';

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
 * stored credential is no variable (credentials are typed by the runner, never declared). A typed
 * value the person made a variable (`typed`, by step number) becomes `{{name}}`, declared with the
 * value typed as its default, so the flow replays as recorded until a run gives another.
 */
export function keptRecording(
  state: RecorderState,
  {
    removed,
    names,
    typed = {},
  }: {
    removed: ReadonlySet<number>;
    names: Readonly<Record<string, PlaceholderChoice>>;
    typed?: Readonly<Record<number, TypedChoice>>;
  },
): { steps: Step[]; variables: Variable[] } {
  const declared = new Set(state.variables.map((v) => v.name));
  const made: Variable[] = [];
  const steps = state.flow.steps
    .map((step, i): Step => {
      if (step.type !== 'change') return step;
      const choice = typed[i];
      const name = choice?.make ? choice.name.trim() : '';
      if (name && !removed.has(i) && !step.value.includes('{{')) {
        made.push({ name, type: 'string', required: false, default: step.value });
        return { ...step, value: `{{${name}}}` };
      }
      return {
        ...step,
        value: step.value.replace(/\{\{(\w+)\}\}/g, (m, v: string) =>
          declared.has(v) ? `{{${placeholderFor(v, names[v])}}}` : m,
        ),
      };
    })
    .filter((_, i) => !removed.has(i));
  const variables = state.variables.flatMap((v) =>
    names[v.name]?.kind === 'credential' && names[v.name]!.name
      ? []
      : [{ ...v, name: placeholderFor(v.name, names[v.name]) }],
  );
  return { steps, variables: [...variables, ...made] };
}

/** The step Undo takes out: the last one not taken out yet. */
export function lastKept(count: number, removed: ReadonlySet<number>): number | undefined {
  for (let i = count - 1; i >= 0; i--) if (!removed.has(i)) return i;
  return undefined;
}
