import { lazy, Suspense } from 'react';
import { apiUrl } from '../../api/client.ts';
import { useOpenApi } from '../../api/meta/get-openapi.ts';
import { loadSettings } from '../../api/settings.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';

// Scalar is several times the rest of the dashboard: it loads only here, after the page's heading.
const ApiReference = lazy(() => import('./ApiReference.tsx'));

/** The API reference, rendered from this server's /openapi.json. */
export function DocsPage() {
  const spec = useOpenApi();
  const settings = loadSettings();
  const documentUrl = apiUrl('/openapi.json', settings);
  const serverUrl = apiUrl('', settings).replace(/\/+$/, '');
  const loading = (
    <p className="status" role="status">
      Loading the reference…
    </p>
  );
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
        <Suspense fallback={loading}>
          <ApiReference spec={spec.data} serverUrl={serverUrl} />
        </Suspense>
      ) : (
        loading
      )}
    </>
  );
}
