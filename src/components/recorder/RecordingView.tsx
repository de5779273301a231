import { useId, type ReactNode } from 'react';
import { useCredentials } from '../../api/credentials/get-credentials.ts';
import { ErrorNotice } from '../ErrorNotice.tsx';
import { describeStep } from '../steps/describe-step.ts';
import { WithPlaceholders } from '../steps/WithPlaceholders.tsx';
import { keptRecording } from './kept-recording.ts';
import { PlaceholderChoices } from './PlaceholderChoices.tsx';
import { typedNameProblems, typedValues } from './typed-values.ts';
import { TypedValueChoices } from './TypedValueChoices.tsx';
import './recorder.css';
import type { Recording } from './use-recording.ts';

/**
 * A recording as it happens, where a page records: each step in words as it comes, Undo last
 * step, the placeholders' names, the typed values to make variables, and Stop and save. `children`: the page's own fields of the save
 * (a new workflow's name, or where the steps go in this one). `saving`/`saveError`: the page's save.
 */
export function RecordingView({
  recording,
  onSave,
  saving,
  saveError,
  blocked,
  declared = [],
  children,
}: {
  recording: Recording;
  onSave: () => void;
  saving: boolean;
  saveError: Error | null;
  /** Why the recording cannot be saved now, if it cannot (Stop and save waits for it). */
  blocked?: string;
  /** The workflow's variables as declared now: a suggested name is none of them. */
  declared?: readonly string[];
  children?: ReactNode;
}) {
  const { state, steps, removed, control } = recording;
  const blockedId = useId();
  const askNames = recording.recording && Boolean(state?.variables.length);
  const credentials = useCredentials(askNames);
  if (!state) return null;
  // The placeholders' variables as named: a typed value's variable takes another name.
  const placeholderNames = keptRecording(state, { removed, names: recording.names }).variables.map((v) => v.name);
  const offers = typedValues(steps, removed, [...placeholderNames, ...declared]);
  const problems = typedNameProblems(
    Object.fromEntries(offers.flatMap((o) => (recording.typed[o.index] ? [[o.index, recording.typed[o.index]!]] : []))),
    placeholderNames,
  );
  const waitFor = blocked ?? (Object.keys(problems).length ? 'A variable name above needs fixing.' : undefined);
  return (
    <>
      <ol className="steps" aria-label="Recorded steps" aria-live="polite" aria-relevant="additions">
        {steps.map((step, i) => {
          if (removed.has(i)) return null;
          // In words, with what it acts on (its first selector), as the step list shows it.
          const { words, selector } = describeStep(step, i);
          return (
            <li key={i}>
              <WithPlaceholders text={words} />
              {selector && (
                <>
                  {' '}
                  <code className="recorded-selector">{selector}</code>
                </>
              )}
            </li>
          );
        })}
      </ol>
      {state.warnings.map((w) => (
        <p key={w} className="notice">
          {w}
        </p>
      ))}
      {recording.recording && (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            onSave();
          }}
        >
          {children}
          <PlaceholderChoices
            variables={state.variables}
            names={recording.names}
            credentials={credentials.data?.credentials.map((c) => c.name) ?? (credentials.isError ? [] : undefined)}
            onChoose={recording.choose}
          />
          <TypedValueChoices
            offers={offers}
            choices={recording.typed}
            problems={problems}
            onChoose={recording.chooseTyped}
            declared={declared}
          />
          <div className="row">
            <button
              type="button"
              className="secondary"
              disabled={recording.undoable === undefined}
              onClick={recording.undo}
            >
              Undo last step
            </button>
            <button
              type="submit"
              disabled={control.stop.isPending || saving || Boolean(waitFor)}
              aria-describedby={waitFor ? blockedId : undefined}
            >
              Stop and save
            </button>
          </div>
          {waitFor && (
            <p className="hint" id={blockedId}>
              {waitFor}
            </p>
          )}
        </form>
      )}
      {(control.stop.isError || saveError) && (
        <ErrorNotice error={control.stop.error ?? saveError} title="Could not save the recording." />
      )}
    </>
  );
}
