import { SCREENCAST_META, VIEW_ONLY_META } from '../../../contract/viewer.ts';
import { ScreencastViewer } from '../ScreencastViewer.tsx';
import { VncViewer } from '../VncViewer.tsx';
import { mountEmbed } from './EmbedFrame.tsx';

const meta = (name: string) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content');
// A view token is view-only whatever the query says (the server enforces it; this spares the grab).
const viewTokenOnly = meta(VIEW_ONLY_META) === 'true';
// A session with no display of its own (a context session): its stream is a screencast, not RFB.
const screencast = meta(SCREENCAST_META) === 'screencast';

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
    />
  ),
);
