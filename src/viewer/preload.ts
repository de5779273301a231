import { loadRfb } from './loadRfb.ts';

/**
 * Fetch the viewer and noVNC ahead of the view tokens: a page that will show a live view (a run
 * under way) starts both while it reads its state, instead of one after the other once the tokens
 * are in. A failed load is reported by the viewer when it mounts and loads again.
 */
export function preloadVncViewer(): void {
  import('./index.ts').catch(() => {});
  loadRfb().catch(() => {});
}
