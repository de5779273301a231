import { VIEW_ONLY_META } from '../../../contract/viewer.ts';
import { VncViewer } from '../VncViewer.tsx';
import { mountEmbed } from './EmbedFrame.tsx';

// A view token is view-only whatever the query says (the server enforces it; this spares the grab).
const viewTokenOnly = document.querySelector(`meta[name="${VIEW_ONLY_META}"]`)?.getAttribute('content') === 'true';

// The page is its own stream: no iframe fallback, which would only embed this page again.
mountEmbed((options, url) => (
  <VncViewer
    url={url}
    viewOnly={options.view_only || viewTokenOnly}
    scale={options.scale}
    background={options.background}
    fallback="none"
  />
));
