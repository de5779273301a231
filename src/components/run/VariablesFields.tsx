import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { Variable } from '../../../contract/variables.ts';
import type { RunFormValues } from './run-form.ts';

/** How a variable's type reads beside its name. */
const kindOf = (v: Variable) => (v.type === 'enum' ? `one of ${v.enumValues?.length ?? 0}` : v.type);

/**
 * One input per variable of the workflow's schema, typed and marked required: a checkbox for a
 * boolean, a select of its values for an enum, a text input otherwise. A variable's description is
 * shown under its input and is the input's accessible description. `secret`: the variables typed
 * hidden, as a password is (never shown back, nor offered by the browser's autofill memory).
 */
export function VariablesFields({
  schema,
  register,
  errors,
  secret,
}: {
  schema: Variable[];
  register: UseFormRegister<RunFormValues>;
  errors: FieldErrors<RunFormValues>['vars'];
  secret?: (v: Variable) => boolean;
}) {
  if (schema.length === 0) return <p className="status">This workflow takes no variables.</p>;
  return (
    <fieldset className="card">
      <legend className="label">Variables</legend>
      {schema.map((v) => {
        const id = `var-${v.name}`;
        const err = errors?.[v.name];
        const described =
          [v.description ? `${id}-hint` : null, err ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
        const hint = v.description && (
          <p className="hint" id={`${id}-hint`}>
            {v.description}
          </p>
        );
        const error = err && (
          <p className="field-error" id={`${id}-error`} role="alert">
            {err.message}
          </p>
        );
        if (v.type === 'boolean')
          return (
            <div key={v.name} className="field">
              <label className="check" htmlFor={id}>
                <input id={id} type="checkbox" aria-describedby={described} {...register(`vars.${v.name}`)} /> {v.name}
              </label>
              {hint}
              {error}
            </div>
          );
        const control = {
          id,
          'aria-invalid': Boolean(err),
          'aria-required': v.required,
          'aria-describedby': described,
          ...register(`vars.${v.name}`),
        };
        return (
          <div key={v.name} className="field">
            <label htmlFor={id}>
              {v.name}
              {v.required && <span aria-hidden="true"> *</span>}
              <span className="hint">
                {' '}
                ({kindOf(v)}
                {v.required ? ', required' : ''})
              </span>
            </label>
            {v.type === 'enum' ? (
              <select {...control}>
                {/* Without a default there is no choice yet: required, one must be picked; optional, none is sent. */}
                {v.default === undefined && <option value="">{v.required ? 'Choose…' : '(none)'}</option>}
                {(v.enumValues ?? []).map((value) => (
                  <option key={value} value={value}>
                    {value}
                  </option>
                ))}
              </select>
            ) : v.type === 'string' && secret?.(v) ? (
              <input type="password" autoComplete="off" spellCheck={false} {...control} />
            ) : (
              <input inputMode={v.type === 'number' ? 'decimal' : undefined} {...control} />
            )}
            {hint}
            {error}
          </div>
        );
      })}
    </fieldset>
  );
}
