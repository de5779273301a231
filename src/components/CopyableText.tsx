import { useId } from 'react';
import { CopyButton } from './CopyButton.tsx';

/** A labelled block of text to copy whole: an address, a snippet. Long lines wrap rather than widen the page. */
export function CopyableText({ label, copyLabel, text, testId }: { label: string; copyLabel: string; text: string; testId?: string }) {
  const id = useId();
  return (
    <>
      <div className="row spread">
        <span className="label" id={id}>
          {label}
        </span>
        <CopyButton text={text} label={copyLabel} />
      </div>
      <pre className="wrap-anywhere" aria-labelledby={id} data-testid={testId}>
        {text}
      </pre>
    </>
  );
}
