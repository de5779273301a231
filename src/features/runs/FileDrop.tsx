import { useId, useRef, useState } from 'react';

/** Files by drag and drop or picker; the list can be edited before sending. */
export function FileDrop({ files, onChange }: { files: File[]; onChange(files: File[]): void }) {
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const [over, setOver] = useState(false);
  const add = (list: FileList | null) => {
    if (!list?.length) return;
    const byName = new Map(files.map((f) => [f.name, f]));
    for (const f of Array.from(list)) byName.set(f.name, f); // uploadFile steps match by name: the newest wins
    onChange([...byName.values()]);
  };
  return (
    <div className="field">
      <span className="label" id={`${id}-label`}>
        Files
      </span>
      <div
        className={`dropzone${over ? ' over' : ''}`}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          add(e.dataTransfer.files);
        }}
      >
        <p style={{ margin: 0 }}>
          Drop files here, or{' '}
          <button type="button" className="secondary small" onClick={() => input.current?.click()}>
            choose files
          </button>
        </p>
        <input
          ref={input}
          id={id}
          type="file"
          multiple
          hidden
          aria-labelledby={`${id}-label`}
          onChange={(e) => {
            add(e.target.files);
            e.target.value = '';
          }}
        />
      </div>
      <p className="hint">For the workflow&apos;s uploadFile steps, which pick a file by its name.</p>
      {files.length > 0 && (
        <ul className="steps" aria-label="Files to send">
          {files.map((f) => (
            <li key={f.name} className="row spread">
              <span>
                {f.name} <span className="hint">({formatBytes(f.size)})</span>
              </span>
              <button type="button" className="secondary small" onClick={() => onChange(files.filter((x) => x !== f))}>
                Remove<span className="visually-hidden"> {f.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
