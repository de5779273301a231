import { useId } from 'react';
import type { TypedChoice, TypedValue } from './typed-values.ts';
import './recorder.css';

const SHOWN_MAX = 40;
const shown = (value: string) => (value.length > SHOWN_MAX ? `${value.slice(0, SHOWN_MAX - 1)}…` : value);

/**
 * For each value typed while recording, "make it a variable" and its name: saved, the step types
 * `{{name}}`, and the variable is declared with the value typed as its default. `problems`: what is
 * wrong with a name, by step number (shown beside it, and Stop and save waits for it). `declared`:
 * the workflow's variables; a name among them is allowed (the same value in two places), and said.
 */
export function TypedValueChoices({
  offers,
  choices,
  problems,
  onChoose,
  declared = [],
}: {
  offers: readonly TypedValue[];
  choices: Readonly<Record<number, TypedChoice>>;
  problems: Readonly<Record<number, string>>;
  onChoose: (index: number, choice: TypedChoice) => void;
  declared?: readonly string[];
}) {
  const id = useId();
  if (!offers.length) return null;
  return (
    <fieldset className="choices recorder-choices">
      <legend>Make typed values variables</legend>
      <p className="hint">A variable is given at each run; the value you typed stays its default.</p>
      {offers.map((offer) => {
        const choice = choices[offer.index] ?? { make: false, name: offer.suggested };
        const problem = problems[offer.index];
        const errorId = `${id}-${offer.index}-error`;
        const noteId = `${id}-${offer.index}-note`;
        const existing = choice.make && !problem && declared.includes(choice.name.trim());
        const describedBy = problem ? errorId : existing ? noteId : undefined;
        return (
          <div key={offer.index} className="typed-choice">
            <label className="check">
              <input
                type="checkbox"
                checked={choice.make}
                onChange={(e) => onChoose(offer.index, { ...choice, make: e.target.checked })}
              />{' '}
              <span className="wrap-anywhere">
                Make “{shown(offer.value)}” (step {offer.index + 1}) a variable
              </span>
            </label>
            {choice.make && (
              <label>
                Name of the variable for “{shown(offer.value)}”
                <input
                  value={choice.name}
                  spellCheck={false}
                  autoComplete="off"
                  aria-invalid={Boolean(problem)}
                  aria-describedby={describedBy}
                  onChange={(e) => onChoose(offer.index, { ...choice, name: e.target.value })}
                />
              </label>
            )}
            {existing && (
              <p className="hint" id={noteId}>
                The workflow has a variable {choice.name.trim()} already: this step will use it, and its default stays
                as it is.
              </p>
            )}
            {choice.make && problem && (
              <p className="field-error" id={errorId} role="alert">
                {problem}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
