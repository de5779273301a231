import type { ReactNode } from 'react';
import { errorMessage } from '../api/errors.ts';

/** An error in words, with an optional action (retry). */
export function ErrorNotice({ error, title, children }: { error: unknown; title?: string; children?: ReactNode }) {
  return (
    <div className="notice error" role="alert">
      {title && (
        <p>
          <strong>{title}</strong>
        </p>
      )}
      <p>{errorMessage(error)}</p>
      {children}
    </div>
  );
}
