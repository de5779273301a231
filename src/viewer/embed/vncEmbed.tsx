import { VncViewer } from '../VncViewer.tsx';
import { mountEmbed } from './EmbedFrame.tsx';

// The page is its own stream: no iframe fallback, which would only embed this page again.
mountEmbed((options, url) => (
  <VncViewer url={url} viewOnly={options.view_only} scale={options.scale} background={options.background} fallback="none" />
));
