import { Fragment } from 'react';
import { credentialOf } from '../../../contract/placeholders.ts';
import { splitPlaceholders } from './describe-step.ts';
import './placeholders.css';

/** Text with its `{{…}}` placeholders marked: a variable, or a stored credential. */
export function WithPlaceholders({ text }: { text: string }) {
  return (
    <>
      {splitPlaceholders(text).map((part, i) =>
        part.placeholder === undefined ? (
          <Fragment key={i}>{part.text}</Fragment>
        ) : (
          <span
            key={i}
            className={`flow-placeholder${credentialOf(part.placeholder) !== undefined ? ' credential' : ''}`}
          >
            {part.text}
          </span>
        ),
      )}
    </>
  );
}
