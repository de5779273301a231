import { useId } from 'react';
import { CopyButton } from './CopyButton.tsx';

/**
 * A labelled block of text to copy whole: an address, a snippet. Long lines wrap rather than widen
 * the page; `code` keeps a script's lines as written (indentation matters in Python) and scrolls
 * them sideways inside the block instead, which the keyboard can reach.
 */
export function CopyableText({
  label,
  copyLabel,
  text,
  testId,
  code = false,
}: {
  label: string;
  copyLabel: string;
  text: string;
  testId?: string;
  code?: boolean;
}) {
  const id = useId();
  return (
    <>
      <div className="row spread">
        <span className="label" id={id}>
          {label}
        </span>
        <CopyButton text={text} label={copyLabel} />
      </div>
      <pre
        className={code ? 'code-scroll' : 'wrap-anywhere'}
        aria-labelledby={id}
        data-testid={testId}
        tabIndex={code ? 0 : undefined}
      >
        {text}
      </pre>
    </>
  );
}
