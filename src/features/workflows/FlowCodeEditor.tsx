import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Compartment, EditorState } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useEffect, useRef } from 'react';
import { changedSpan } from './flow-steps.ts';
import type { LineIssue } from './flow-text.ts';

export interface FlowCodeEditorProps {
  value: string;
  onChange: (text: string) => void;
  onBlur: () => void;
  /** Problems to mark at their lines (the same ones the field lists under the editor). */
  issues: LineIssue[];
  /** Attributes of the editable element: its id, name (aria-labelledby) and description. */
  contentAttributes: Record<string, string>;
}

// Colours from the stylesheet's variables, so light and dark schemes both keep AA contrast.
const highlight = HighlightStyle.define([
  { tag: tags.propertyName, color: 'var(--accent)' },
  { tag: tags.string, color: 'var(--ok)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--warn)' },
  { tag: tags.invalid, color: 'var(--danger)' },
]);

const theme = EditorView.theme({
  '&': {
    background: 'var(--surface)',
    color: 'var(--text)',
    border: '1px solid var(--border)',
    borderRadius: 'var(--radius)',
    fontSize: '0.9rem',
  },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '2px' },
  // Grows with its text and the page scrolls (CodeMirror still draws only what is in view): an inner
  // scrolling box would be one more region to reach by keyboard. Lines wrap, so nothing scrolls sideways.
  '.cm-scroller': { fontFamily: 'var(--mono)', minHeight: '18lh' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-gutters': { background: 'var(--bg)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  // --bg, not --accent-soft: the string colour keeps AA contrast on it.
  '.cm-activeLine, .cm-activeLineGutter': { background: 'var(--bg)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { background: 'var(--accent-soft)' },
  '.cm-lintRange-error': {
    backgroundImage: 'none',
    textDecoration: 'underline wavy var(--danger)',
    textUnderlineOffset: '3px',
  },
  '.cm-tooltip': { background: 'var(--surface)', color: 'var(--text)', border: '1px solid var(--border)' },
});

/** Each problem as a diagnostic over its whole line (a line past the end, after an edit, is clamped to the last). */
function diagnosticsOf(state: EditorState, issues: LineIssue[]): Diagnostic[] {
  return issues.map(({ line, message }) => {
    const at = state.doc.line(Math.min(Math.max(line, 1), state.doc.lines));
    return { from: at.from, to: at.to, severity: 'error', message, markClass: 'flow-error' };
  });
}

/**
 * The flow's JSON in CodeMirror 6: line numbers, the problems marked in the gutter and under their
 * line, and the text handed back unchanged on every edit. Tab is left to move focus (no
 * indent-with-Tab), so the editor never traps keyboard users; Ctrl/Cmd+] and [ indent.
 * Loaded on its own (React.lazy) so the dashboard's first page does not carry CodeMirror.
 */
export default function FlowCodeEditor({ value, onChange, onBlur, issues, contentAttributes }: FlowCodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const attributes = useRef(new Compartment());
  // The view is made once; its listeners read the latest callbacks through these.
  const callbacks = useRef({ onChange, onBlur });
  useEffect(() => {
    callbacks.current = { onChange, onBlur };
  });

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          lintGutter(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          syntaxHighlighting(highlight),
          json(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorView.lineWrapping,
          theme,
          attributes.current.of(EditorView.contentAttributes.of(contentAttributes)),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) callbacks.current.onChange(u.state.doc.toString());
            if (u.focusChanged && !u.view.hasFocus) callbacks.current.onBlur();
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // Made once: later values, attributes and issues are applied by the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A value set from outside (Import file, the step list) goes in as the one span that differs, so
  // the cursor, the scroll and undo keep their place; the editor's own edits are already in it.
  useEffect(() => {
    const editor = view.current;
    const current = editor?.state.doc.toString();
    if (editor && current !== undefined && current !== value) editor.dispatch({ changes: changedSpan(current, value) });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({
      effects: attributes.current.reconfigure(EditorView.contentAttributes.of(contentAttributes)),
    });
  }, [contentAttributes]);

  useEffect(() => {
    const editor = view.current;
    if (editor) editor.dispatch(setDiagnostics(editor.state, diagnosticsOf(editor.state, issues)));
  }, [issues, value]);

  return <div ref={host} className="flow-code-editor" />;
}
