import { useState } from 'react';
import type { WriteRecord, WriteRequest, WriteResponse } from '../../../contract/write.ts';
import { ApiError } from '../../api/errors.ts';
import { useServerInfo } from '../../api/meta/get-server-info.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PromptForm } from './PromptForm.tsx';
import { useWrite } from './use-write.ts';
import { WriteHistory } from './WriteHistory.tsx';
import { WriteResult } from './WriteResult.tsx';

const HOW_TO_CONFIGURE = (
  <p>
    On the server, set <code>MODEL_PROVIDER</code> (openai-compatible, openai or anthropic), <code>MODEL_NAME</code>,{' '}
    <code>MODEL_BASE_URL</code> for an OpenAI-compatible endpoint and <code>MODEL_API_KEY</code> if it needs one, then
    restart the server.
  </p>
);

export function WriterPage() {
  const write = useWrite();
  // Said once, before anyone types a prompt: no model means no Write (not a 503 after each try).
  const noModel = useServerInfo().data?.writer_configured === false;
  const [last, setLast] = useState<WriteRequest | null>(null);
  const [opened, setOpened] = useState<{ prompt: string; result: WriteResponse } | null>(null);
  const [restore, setRestore] = useState<{ prompt: string; at: number }>();
  const [stopped, setStopped] = useState(false);

  const run = (body: WriteRequest) => {
    setLast(body);
    setOpened(null);
    setStopped(false);
    return write.mutateAsync(body);
  };
  const stop = () => {
    setStopped(true);
    write.stop();
  };
  const open = (r: WriteRecord) => {
    write.reset();
    setStopped(false);
    setOpened({
      prompt: r.prompt,
      result: { succeeded: true, text: r.text, word_count: r.word_count, error: r.error, usage: r.usage },
    });
    setRestore({ prompt: r.prompt, at: Date.now() });
  };
  const status = write.error instanceof ApiError ? write.error.status : undefined;
  // A stop is the person's choice, not an error to show.
  const failed = write.isError && !stopped;

  return (
    <>
      <h1>Writer</h1>
      <p className="lead">
        Write prose from a request or from notes. Generation usually takes 10 to 20 seconds; the text streams in as it
        is written.
      </p>
      {noModel && (
        <div className="notice warn" role="status">
          <p>
            <strong>No model is configured, so Write is off.</strong>
          </p>
          {HOW_TO_CONFIGURE}
        </div>
      )}
      <div className="grid-2">
        <div>
          <PromptForm busy={write.isPending} writeDisabled={noModel} onWrite={run} onStop={stop} restore={restore} />
          {failed && status !== 422 && (
            <ErrorNotice
              error={write.error}
              title={
                status === 502
                  ? 'The model failed.'
                  : status === 503
                    ? 'No model is configured.'
                    : 'The write did not finish.'
              }
            >
              {status === 503 && !noModel && HOW_TO_CONFIGURE}
              {status !== 503 && last && (
                <p>
                  <button type="button" onClick={() => void run(last).catch(() => undefined)}>
                    Try again
                  </button>
                </p>
              )}
            </ErrorNotice>
          )}
        </div>
        <div>
          {(write.isPending || write.data || (write.isError && write.streamed)) && (
            <WriteResult
              text={write.streamed}
              result={write.data}
              streaming={write.isPending}
              prompt={last?.prompt ?? ''}
              incomplete={write.isError ? (stopped ? 'stopped' : 'failed') : undefined}
            />
          )}
          {opened && !write.isPending && !write.data && (
            <WriteResult text="" result={opened.result} streaming={false} prompt={opened.prompt} />
          )}
          {!noModel && !write.isPending && !write.data && !opened && !write.streamed && !write.isError && (
            <p className="card status">Nothing written yet. Enter a prompt and choose Write.</p>
          )}
          {stopped && write.isError && !write.streamed && (
            <p className="card status">Stopped before any text arrived.</p>
          )}
        </div>
      </div>
      <WriteHistory onOpen={open} />
    </>
  );
}
