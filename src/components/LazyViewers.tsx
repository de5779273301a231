import { lazy } from 'react';

// The viewer components (and noVNC behind them) load only when a page shows a live view.
export const LazyVncViewer = lazy(() => import('../viewer/index.ts').then((m) => ({ default: m.VncViewer })));
export const LazyLiveStream = lazy(() => import('../viewer/index.ts').then((m) => ({ default: m.LiveStream })));
export const LazyScreencastViewer = lazy(() =>
  import('../viewer/index.ts').then((m) => ({ default: m.ScreencastViewer })),
);
