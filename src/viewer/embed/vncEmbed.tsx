import { SCREENCAST_META, VIEW_ONLY_META } from '../../../contract/viewer.ts';
import { ScreencastViewer } from '../ScreencastViewer.tsx';
import type { ConnectionStatus } from '../connection.ts';
import { VncViewer } from '../VncViewer.tsx';
import { mountEmbed } from './EmbedFrame.tsx';

const meta = (name: string) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content');
// A view token is view-only whatever the query says (the server enforces it; this spares the grab).
const viewTokenOnly = meta(VIEW_ONLY_META) === 'true';
// A session with no display of its own (a context session): its stream is a screencast, not RFB.
const screencast = meta(SCREENCAST_META) === 'screencast';
// A queued run's session, not started: which kind it will be is not known yet.
const pending = meta(SCREENCAST_META) === 'pending';

/**
 * Served while its run was queued: once the run has a browser and the RFB stream does not hold (a
 * context session's is a screencast), load the page again, which the server now serves for its kind.
 */
let waited = false;
function reloadWhenStarted(status: ConnectionStatus): void {
  if (status.state === 'waiting') waited = true;
  else if (waited && (status.state === 'reconnecting' || status.state === 'unavailable')) location.reload();
}

// The page is its own stream: no iframe fallback, which would only embed this page again.
mountEmbed((options, url) =>
  screencast ? (
    <ScreencastViewer url={url} viewOnly={options.view_only || viewTokenOnly} background={options.background} />
  ) : (
    <VncViewer
      url={url}
      viewOnly={options.view_only || viewTokenOnly}
      scale={options.scale}
      background={options.background}
      fallback="none"
      onStatusChange={pending ? reloadWhenStarted : undefined}
    />
  ),
);
