import { lazy, Suspense, useCallback, useState } from 'react';
import { apiUrl } from '../../api/client.ts';
import { useOpenApi } from '../../api/meta/get-openapi.ts';
import { loadSettings } from '../../api/settings.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ReferenceContents } from './ReferenceContents.tsx';

// Scalar is several times the rest of the dashboard: it loads only here, once the document is in
// and its contents are painted (loaded sooner, its evaluation held the contents' paint back).
const ApiReference = lazy(() => import('./ApiReference.tsx'));

/**
 * The API reference, rendered from this server's /openapi.json. Scalar takes seconds to load and
 * to read a document this size, so the calls' contents, read from the document itself, are shown
 * first and give way once Scalar has drawn its operations (below them, so nothing above moves).
 */
export function DocsPage() {
  const spec = useOpenApi();
  const [rendered, setRendered] = useState(false);
  const onRendered = useCallback(() => setRendered(true), []);
  const settings = loadSettings();
  const documentUrl = apiUrl('/openapi.json', settings);
  const serverUrl = apiUrl('', settings).replace(/\/+$/, '');
  return (
    <>
      <h1>API reference</h1>
      <p className="lead">
        Every call of this server&apos;s API, from <a href={documentUrl}>openapi.json</a>. Calls send the key in the{' '}
        <code>X-API-Key</code> header; to try one here, type the key into its Authentication (it is not saved).
      </p>
      {spec.isError ? (
        <ErrorNotice error={spec.error} title="Could not load the API's description.">
          <button type="button" className="secondary small" onClick={() => void spec.refetch()}>
            Try again
          </button>
        </ErrorNotice>
      ) : spec.data ? (
        <>
          <Suspense fallback={null}>
            <ApiReference spec={spec.data} serverUrl={serverUrl} onRendered={onRendered} />
          </Suspense>
          {!rendered && (
            <>
              <p className="status" role="status">
                Loading the full reference (schemas, examples, trying calls)…
              </p>
              <ReferenceContents spec={spec.data} />
            </>
          )}
        </>
      ) : (
        <p className="status" role="status">
          Loading the reference…
        </p>
      )}
    </>
  );
}
