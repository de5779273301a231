import { useId, useRef, useState } from 'react';
import { readRecorderFile } from './read-recorder-file.ts';

/** A file picker for a Chrome Recorder JSON export; reports a bad file in words. */
export function ImportRecorderButton({
  onImport,
  label = 'Import Chrome Recorder JSON',
}: {
  onImport(title: string, text: string): void;
  label?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  return (
    <span>
      <label htmlFor={id} className="visually-hidden">
        {label} file
      </label>
      <input
        id={id}
        ref={input}
        type="file"
        accept="application/json,.json"
        hidden
        onChange={async (e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          const r = await readRecorderFile(file);
          if (r.ok) {
            setError(null);
            onImport(r.title, r.text);
          } else setError(r.message);
        }}
      />
      <button type="button" className="secondary" onClick={() => input.current?.click()}>
        {label}
      </button>
      {error && (
        <span className="notice error field-error" role="alert" style={{ display: 'block', marginTop: '0.5rem' }}>
          {error}
        </span>
      )}
    </span>
  );
}
