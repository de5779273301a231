import { GENERATION_LIMIT_REACHED, type WriteResponse } from '../../../contract/write.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { downloadMarkdown } from './download.ts';

/** The prose (streaming or done) with its figures, copy and download. */
export function WriteResult({ text, result, streaming, prompt }: { text: string; result?: WriteResponse; streaming: boolean; prompt: string }) {
  return (
    <section aria-labelledby="result-title" className="card">
      <div className="row spread">
        <h2 id="result-title">Result</h2>
        {result && (
          <div className="row">
            <CopyButton text={result.text} />
            <button type="button" className="secondary small" onClick={() => downloadMarkdown(result.text, prompt)}>
              Download .md
            </button>
          </div>
        )}
      </div>
      {streaming && (
        <p className="status" role="status">
          Writing… the text appears as it is generated{text ? '' : ' (usually within a few seconds)'}.
        </p>
      )}
      <div className="prose" data-testid="prose" aria-busy={streaming}>
        {result ? result.text : text}
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
                <strong>The text was cut off:</strong> the model reached its output limit (generation limit reached). Ask for a shorter piece,
                or write the rest in a second request.
              </p>
            </div>
          )}
        </>
      )}
    </section>
  );
}
