import { useFieldArray, useWatch, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import type { WorkflowInput } from '../../../contract/workflows.ts';
import { UndeclaredVariables } from './UndeclaredVariables.tsx';
import { emptyVariableRow, enumValuesOf, type WorkflowFormValues } from './workflow-form.ts';

/**
 * The variables schema as a form: one row per variable (name, type, required, default, a
 * description for the run form, and an enum's allowed values), and an offer to declare the
 * `{{…}}` names the flow uses that have no row yet. Offered, not added as the person types:
 * `{{us}}` on the way to `{{user}}` would leave a stray row.
 */
export function VariablesEditor({
  control,
  register,
  errors,
  undeclared,
}: {
  control: Control<WorkflowFormValues, unknown, WorkflowInput>;
  register: UseFormRegister<WorkflowFormValues>;
  errors: FieldErrors<WorkflowFormValues>['variables'];
  /** Names the flow's placeholders use that no row declares. */
  undeclared: string[];
}) {
  const { fields, append, remove } = useFieldArray({ control, name: 'variables' });
  const rows = useWatch({ control, name: 'variables' });
  return (
    <fieldset className="card">
      <legend className="label">Variables</legend>
      <p className="hint">
        Values a run fills into <code>{'{{name}}'}</code> placeholders of the flow&apos;s <code>url</code> and{' '}
        <code>value</code> fields.
      </p>
      <UndeclaredVariables
        names={undeclared}
        // Required, with no default: a run without a value is refused before it starts, naming the variable.
        onAdd={() => append(undeclared.map((name) => emptyVariableRow(name, true)))}
      />
      {fields.length === 0 && undeclared.length === 0 && <p className="status">No variables yet.</p>}
      {fields.map((f, i) => {
        const err = errors?.[i];
        const type = rows?.[i]?.type ?? f.type;
        const allowed = enumValuesOf(rows?.[i]?.enumValues ?? f.enumValues);
        const id = `var-${i}`;
        return (
          <div
            key={f.id}
            className="row"
            style={{ alignItems: 'flex-start', marginBottom: '0.75rem' }}
            role="group"
            aria-label={`Variable ${i + 1}`}
          >
            <div className="field" style={{ flex: '2 1 10rem' }}>
              <label htmlFor={`${id}-name`}>Name</label>
              <input id={`${id}-name`} aria-invalid={Boolean(err?.name)} {...register(`variables.${i}.name`)} />
              {err?.name && (
                <p className="field-error" role="alert">
                  {err.name.message}
                </p>
              )}
            </div>
            <div className="field" style={{ flex: '1 1 7rem' }}>
              <label htmlFor={`${id}-type`}>Type</label>
              <select id={`${id}-type`} {...register(`variables.${i}.type`)}>
                <option value="string">string</option>
                <option value="number">number</option>
                <option value="boolean">boolean</option>
                <option value="enum">enum (one of a list)</option>
              </select>
            </div>
            <div className="field" style={{ flex: '2 1 8rem' }}>
              <label htmlFor={`${id}-default`}>Default</label>
              {type === 'boolean' || type === 'enum' ? (
                <select
                  id={`${id}-default`}
                  aria-invalid={Boolean(err?.default)}
                  {...register(`variables.${i}.default`)}
                >
                  <option value="">(none)</option>
                  {(type === 'boolean' ? ['true', 'false'] : allowed).map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={`${id}-default`}
                  inputMode={type === 'number' ? 'decimal' : undefined}
                  aria-invalid={Boolean(err?.default)}
                  {...register(`variables.${i}.default`)}
                />
              )}
              {err?.default && (
                <p className="field-error" role="alert">
                  {err.default.message}
                </p>
              )}
            </div>
            {type === 'enum' && (
              <div className="field" style={{ flex: '2 1 10rem' }}>
                <label htmlFor={`${id}-enum`}>Allowed values</label>
                <textarea
                  id={`${id}-enum`}
                  rows={3}
                  aria-invalid={Boolean(err?.enumValues)}
                  aria-describedby={`${id}-enum-hint${err?.enumValues ? ` ${id}-enum-error` : ''}`}
                  {...register(`variables.${i}.enumValues`)}
                />
                <p className="hint" id={`${id}-enum-hint`}>
                  One per line.
                </p>
                {err?.enumValues && (
                  <p className="field-error" id={`${id}-enum-error`} role="alert">
                    {err.enumValues.message}
                  </p>
                )}
              </div>
            )}
            <div className="field" style={{ flex: '3 1 14rem' }}>
              <label htmlFor={`${id}-description`}>Description</label>
              <input
                id={`${id}-description`}
                aria-invalid={Boolean(err?.description)}
                aria-describedby={`${id}-description-hint`}
                {...register(`variables.${i}.description`)}
              />
              <p className="hint" id={`${id}-description-hint`}>
                Shown beside the input when the workflow is run.
              </p>
              {err?.description && (
                <p className="field-error" role="alert">
                  {err.description.message}
                </p>
              )}
            </div>
            <label className="check" style={{ marginTop: '2rem' }}>
              <input type="checkbox" {...register(`variables.${i}.required`)} /> Required
            </label>
            <button type="button" className="secondary small" style={{ marginTop: '1.9rem' }} onClick={() => remove(i)}>
              Remove<span className="visually-hidden"> variable {i + 1}</span>
            </button>
          </div>
        );
      })}
      <button type="button" className="secondary" onClick={() => append(emptyVariableRow())}>
        Add variable
      </button>
    </fieldset>
  );
}
