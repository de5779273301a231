import { lazy, Suspense, useMemo } from 'react';
import type { FieldControlProps } from '../../components/Field.tsx';
import type { LineIssue } from './flow-text.ts';

// CodeMirror is ~100 KB gzip: it loads only when a workflow is edited, never with the first page.
const FlowCodeEditor = lazy(() => import('./FlowCodeEditor.tsx'));

/** The flow's code editor, wired to its Field's label, hint and error (by id, as the content is no form control). */
export function FlowEditor({
  control,
  labelId,
  value,
  onChange,
  onBlur,
  issues,
}: {
  control: FieldControlProps;
  labelId: string;
  value: string;
  onChange: (text: string) => void;
  onBlur: () => void;
  issues: LineIssue[];
}) {
  const described = control['aria-describedby'];
  const invalid = control['aria-invalid'];
  const contentAttributes = useMemo(
    () => ({
      id: control.id,
      'aria-labelledby': labelId,
      'aria-invalid': String(invalid),
      ...(described ? { 'aria-describedby': described } : {}),
    }),
    [control.id, labelId, invalid, described],
  );
  return (
    <Suspense
      fallback={
        <p className="status flow-code-loading" role="status">
          Loading the editor…
        </p>
      }
    >
      <FlowCodeEditor
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        issues={issues}
        contentAttributes={contentAttributes}
      />
    </Suspense>
  );
}
