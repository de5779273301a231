import { isRouteErrorResponse, useRouteError } from 'react-router';

/** A page that failed to load (a chunk missing after a deploy, or a render error). */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : 'Unknown error';
  return (
    <main id="main" className="page">
      <h1>This page could not be shown</h1>
      <p role="alert">{message}</p>
      <p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </p>
    </main>
  );
}
