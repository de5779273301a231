import { useId } from 'react';
import type { Variable } from '../../../contract/variables.ts';
import type { PlaceholderChoice } from './kept-recording.ts';

/**
 * For each placeholder a recording left (a password typed is `{{password}}`, its value never
 * recorded), what it becomes when saved: a variable of the name the person gives, or one of the
 * stored credentials (`{{credentials.NAME}}`, typed by the runner). `credentials`: their names,
 * undefined while they are read.
 */
export function PlaceholderChoices({
  variables,
  names,
  credentials,
  onChoose,
}: {
  variables: readonly Variable[];
  names: Readonly<Record<string, PlaceholderChoice>>;
  credentials: readonly string[] | undefined;
  onChoose: (placeholder: string, choice: PlaceholderChoice) => void;
}) {
  const id = useId();
  return (
    <>
      {variables.map((v, i) => {
        const choice = names[v.name] ?? { kind: 'variable', name: v.name };
        const group = `${id}-${i}`;
        const noCredentials = credentials !== undefined && credentials.length === 0;
        return (
          <fieldset key={v.name} className="choices recorder-choices">
            <legend>Placeholder {`{{${v.name}}}`}</legend>
            <label className="check">
              <input
                type="radio"
                name={group}
                checked={choice.kind === 'variable'}
                onChange={() => onChoose(v.name, { kind: 'variable', name: v.name })}
              />{' '}
              A variable, given at each run
            </label>
            {choice.kind === 'variable' && (
              <label>
                Variable name
                <input
                  value={choice.name}
                  required
                  pattern="[A-Za-z_][A-Za-z0-9_]*"
                  title="Letters, digits and _, not starting with a digit"
                  spellCheck={false}
                  onChange={(e) => onChoose(v.name, { kind: 'variable', name: e.target.value })}
                />
              </label>
            )}
            <label className="check">
              <input
                type="radio"
                name={group}
                checked={choice.kind === 'credential'}
                disabled={!credentials?.length}
                aria-describedby={noCredentials ? `${group}-none` : undefined}
                onChange={() => onChoose(v.name, { kind: 'credential', name: credentials?.[0] ?? '' })}
              />{' '}
              A stored credential, typed by the runner
            </label>
            {noCredentials && (
              <p className="hint" id={`${group}-none`}>
                No credentials are stored yet: Settings → Credentials stores one.
              </p>
            )}
            {choice.kind === 'credential' && (
              <label>
                Credential
                <select
                  value={choice.name}
                  required
                  onChange={(e) => onChoose(v.name, { kind: 'credential', name: e.target.value })}
                >
                  {(credentials ?? []).map((c) => (
                    <option key={c} value={c}>
                      {`{{credentials.${c}}}`}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </fieldset>
        );
      })}
    </>
  );
}
