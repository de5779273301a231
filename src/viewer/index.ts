// The viewer components the dashboard and the embed pages share. noVNC itself loads lazily.
export { VncViewer, type VncViewerHandle, type VncViewerProps } from './VncViewer.tsx';
export { LiveStream, type LiveStreamProps } from './LiveStream.tsx';
export { ScreencastViewer, type ScreencastViewerProps } from './ScreencastViewer.tsx';
export { describe as describeStatus, type ConnectionStatus, type ViewerState } from './connection.ts';
export { toWebSocketUrl, toPageUrl } from './streamUrl.ts';
