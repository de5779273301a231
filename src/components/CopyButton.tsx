import { useState } from 'react';

/**
 * Copy text to the clipboard and say so. `text` may be a function that fetches it, so a secret can
 * be copied without ever being shown or kept in the page.
 */
export function CopyButton({ text, label = 'Copy' }: { text: string | (() => Promise<string>); label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(typeof text === 'string' ? text : await text());
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2000);
  };
  return (
    <button type="button" className="secondary small" onClick={() => void copy()}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select and copy by hand' : label}
      <span className="visually-hidden" role="status">
        {state === 'copied' ? 'Copied to the clipboard' : ''}
      </span>
    </button>
  );
}
