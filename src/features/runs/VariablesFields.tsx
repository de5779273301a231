import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { Variable } from '../../../contract/workflows.ts';
import type { RunFormValues } from './run-form.ts';

/** One input per variable of the workflow's schema, typed and marked required. */
export function VariablesFields({ schema, register, errors }: { schema: Variable[]; register: UseFormRegister<RunFormValues>; errors: FieldErrors<RunFormValues>['vars'] }) {
  if (schema.length === 0) return <p className="status">This workflow takes no variables.</p>;
  return (
    <fieldset className="card">
      <legend className="label">Variables</legend>
      {schema.map((v) => {
        const id = `var-${v.name}`;
        const err = errors?.[v.name];
        if (v.type === 'boolean')
          return (
            <label key={v.name} className="check" htmlFor={id}>
              <input id={id} type="checkbox" {...register(`vars.${v.name}`)} /> {v.name}
            </label>
          );
        return (
          <div key={v.name} className="field">
            <label htmlFor={id}>
              {v.name}
              {v.required && <span aria-hidden="true"> *</span>}
              <span className="hint"> ({v.type}{v.required ? ', required' : ''})</span>
            </label>
            <input
              id={id}
              inputMode={v.type === 'number' ? 'decimal' : undefined}
              aria-invalid={Boolean(err)}
              aria-required={v.required}
              aria-describedby={err ? `${id}-error` : undefined}
              {...register(`vars.${v.name}`)}
            />
            {err && (
              <p className="field-error" id={`${id}-error`} role="alert">
                {err.message}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
