import { GENERATION_LIMIT_REACHED, type WriteResponse } from '../../../contract/write.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { downloadMarkdown } from './download.ts';

/** The prose (streaming or done) with its figures, copy and download. */
export function WriteResult({
  text,
  result,
  streaming,
  prompt,
  incomplete,
}: {
  text: string;
  result?: WriteResponse;
  streaming: boolean;
  prompt: string;
  /** The write stopped (by the person or a failure) after some text arrived: say so, keep it copyable. */
  incomplete?: 'stopped' | 'failed';
}) {
  const shown = result ? result.text : text;
  return (
    <section aria-labelledby="result-title" className="card">
      <div className="row spread">
        <h2 id="result-title">{incomplete ? 'Result (incomplete)' : 'Result'}</h2>
        {(result || (incomplete && shown)) && (
          <div className="row">
            <CopyButton text={shown} />
            <button type="button" className="secondary small" onClick={() => downloadMarkdown(shown, prompt)}>
              Download .md
            </button>
          </div>
        )}
      </div>
      {incomplete && (
        <div className="notice warn" role="status">
          <p>
            <strong>{incomplete === 'stopped' ? 'You stopped the write.' : 'The write broke off.'}</strong> The text
            below is what arrived before that; it is not finished and was not saved to the history.
          </p>
        </div>
      )}
      {streaming && (
        <p className="status" role="status">
          Writing… the text appears as it is generated{text ? '' : ' (usually within a few seconds)'}.
        </p>
      )}
      <div className="prose" data-testid="prose" aria-busy={streaming}>
        {shown}
      </div>
      {result && (
        <>
          <ul className="stats" aria-label="Figures">
            <li>
              Words: <strong data-testid="word-count">{result.word_count.toLocaleString()}</strong>
            </li>
            <li>
              Input tokens: <strong>{result.usage.input_tokens.toLocaleString()}</strong>
            </li>
            <li>
              Output tokens: <strong>{result.usage.output_tokens.toLocaleString()}</strong>
            </li>
          </ul>
          {result.error === GENERATION_LIMIT_REACHED && (
            <div className="notice warn" role="status">
              <p>
                <strong>The text was cut off:</strong> the model reached its output limit (generation limit reached).
                Ask for a shorter piece, or write the rest in a second request.
              </p>
            </div>
          )}
        </>
      )}
    </section>
  );
}
