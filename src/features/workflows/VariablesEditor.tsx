import { useFieldArray, useWatch, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import type { WorkflowInput } from '../../../contract/workflows.ts';
import type { WorkflowFormValues } from './workflow-form.ts';

/** The variables schema as a form: one row per variable (name, type, required, default). */
export function VariablesEditor({
  control,
  register,
  errors,
}: {
  control: Control<WorkflowFormValues, unknown, WorkflowInput>;
  register: UseFormRegister<WorkflowFormValues>;
  errors: FieldErrors<WorkflowFormValues>['variables'];
}) {
  const { fields, append, remove } = useFieldArray({ control, name: 'variables' });
  const rows = useWatch({ control, name: 'variables' });
  return (
    <fieldset className="card">
      <legend className="label">Variables</legend>
      <p className="hint">
        Values a run fills into <code>{'{{name}}'}</code> placeholders of the flow&apos;s <code>url</code> and <code>value</code> fields.
      </p>
      {fields.length === 0 && <p className="status">No variables yet.</p>}
      {fields.map((f, i) => {
        const err = errors?.[i];
        const type = rows?.[i]?.type ?? f.type;
        const id = `var-${i}`;
        return (
          <div key={f.id} className="row" style={{ alignItems: 'flex-start', marginBottom: '0.75rem' }} role="group" aria-label={`Variable ${i + 1}`}>
            <div className="field" style={{ flex: '2 1 10rem' }}>
              <label htmlFor={`${id}-name`}>Name</label>
              <input id={`${id}-name`} aria-invalid={Boolean(err?.name)} {...register(`variables.${i}.name`)} />
              {err?.name && <p className="field-error" role="alert">{err.name.message}</p>}
            </div>
            <div className="field" style={{ flex: '1 1 7rem' }}>
              <label htmlFor={`${id}-type`}>Type</label>
              <select id={`${id}-type`} {...register(`variables.${i}.type`)}>
                <option value="string">string</option>
                <option value="number">number</option>
                <option value="boolean">boolean</option>
              </select>
            </div>
            <div className="field" style={{ flex: '2 1 8rem' }}>
              <label htmlFor={`${id}-default`}>Default</label>
              {type === 'boolean' ? (
                <select id={`${id}-default`} aria-invalid={Boolean(err?.default)} {...register(`variables.${i}.default`)}>
                  <option value="">(none)</option>
                  <option value="true">true</option>
                  <option value="false">false</option>
                </select>
              ) : (
                <input
                  id={`${id}-default`}
                  inputMode={type === 'number' ? 'decimal' : undefined}
                  aria-invalid={Boolean(err?.default)}
                  {...register(`variables.${i}.default`)}
                />
              )}
              {err?.default && <p className="field-error" role="alert">{err.default.message}</p>}
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
      <button type="button" className="secondary" onClick={() => append({ name: '', type: 'string', required: false, default: '' })}>
        Add variable
      </button>
    </fieldset>
  );
}
