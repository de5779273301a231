import type { ReactNode } from 'react';

export interface FieldControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

/** A labelled form field with its hint and error wired up for screen readers. */
export function Field(props: {
  label: ReactNode;
  name: string;
  error?: string;
  hint?: ReactNode;
  children: (control: FieldControlProps) => ReactNode;
  extra?: ReactNode;
}) {
  const id = `f-${props.name.replace(/[^\w-]/g, '-')}`;
  const described =
    [props.hint ? `${id}-hint` : null, props.error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <div className="row spread">
        {/* The id names a control that is no form element (the flow's code editor) through aria-labelledby. */}
        <label htmlFor={id} id={`${id}-label`}>
          {props.label}
        </label>
        {props.extra}
      </div>
      {props.children({ id, 'aria-invalid': Boolean(props.error), 'aria-describedby': described })}
      {props.hint && (
        <p className="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}
