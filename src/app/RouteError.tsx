import { useState } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { reloadForStaleChunk } from './chunk-reload.ts';

/** A page that failed to load (a chunk missing after a deploy, or a render error). */
export function RouteError() {
  const error = useRouteError();
  // A page's chunk gone after an upgrade: reload into the new version instead of showing this
  // (unless a reload for this address was just tried: then the error is real). Asked once per
  // error page; a second ask while the reload is under way answers true again.
  const [reloading] = useState(() => reloadForStaleChunk(error));
  if (reloading) {
    return (
      <main id="main" className="page">
        <p className="status" role="status">
          Loading the new version of the dashboard…
        </p>
      </main>
    );
  }
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
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
