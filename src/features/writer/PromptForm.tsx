import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { codePointLength } from '../../../contract/common.ts';
import { PROMPT_MAX_CHARS, WriteRequest } from '../../../contract/write.ts';
import { applyIssues } from '../../api/form-issues.ts';
import { Field } from '../../components/Field.tsx';
import { contractResolver } from '../../lib/contract-resolver.ts';

export interface PromptFormProps {
  busy: boolean;
  /** Write is off (no model is configured on the server): the page says why, once. */
  writeDisabled?: boolean;
  /** Stop the write under way (shown while busy). */
  onStop(): void;
  /** A prompt to put back in the box (History's Show); changes of `restore.at` apply it. */
  restore?: { prompt: string; at: number };
  /** Rejects with the API error; a 422's issues land on the prompt field. */
  onWrite(body: WriteRequest): Promise<unknown>;
}

/** The prompt box: live code-point count against the server's 8000, validated with the contract. */
export function PromptForm({ busy, writeDisabled = false, onWrite, onStop, restore }: PromptFormProps) {
  const { register, handleSubmit, control, setError, formState, reset } = useForm<WriteRequest>({
    // The contract's checks, with their messages in words ("Enter a prompt.").
    resolver: contractResolver(WriteRequest, (v: WriteRequest) => v),
    defaultValues: { prompt: '' },
    mode: 'onChange',
  });
  const prompt = useWatch({ control, name: 'prompt' }) ?? '';
  const count = codePointLength(prompt);
  const over = count > PROMPT_MAX_CHARS;

  useEffect(() => {
    if (restore) reset({ prompt: restore.prompt });
  }, [restore, reset]);

  const onSubmit = handleSubmit(async (body) => {
    try {
      await onWrite(body);
    } catch (err) {
      applyIssues(err, ['prompt'], setError);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="card">
      <Field
        label="Prompt"
        name="prompt"
        error={formState.errors.prompt?.message ?? formState.errors.root?.server?.message}
        hint="A request or notes to write from. Say how long you want it, e.g. “about 300 words” or “three short paragraphs”."
        extra={
          <span className={`counter${over ? ' over' : ''}`} id="prompt-count">
            {count.toLocaleString()} / {PROMPT_MAX_CHARS.toLocaleString()} characters
          </span>
        }
      >
        {(p) => (
          <textarea
            {...p}
            rows={8}
            {...register('prompt')}
            onKeyDown={(e) => {
              // Ctrl+Enter (Cmd+Enter on a Mac) writes, as in most chat and mail tools.
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !busy && !writeDisabled) {
                e.preventDefault();
                void onSubmit();
              }
            }}
          />
        )}
      </Field>
      <div className="row">
        <button type="submit" disabled={busy || writeDisabled}>
          {busy ? 'Writing…' : 'Write'}
        </button>
        {busy && (
          <button type="button" className="secondary" onClick={onStop}>
            Stop
          </button>
        )}
        <span className="hint">Ctrl+Enter or ⌘+Enter to write</span>
      </div>
    </form>
  );
}
