import type RFB from '@novnc/novnc';

let loading: Promise<typeof RFB> | undefined;

/** noVNC is loaded on first use, as its own chunk, so pages without a viewer never pay for it. */
export function loadRfb(): Promise<typeof RFB> {
  loading ??= import('@novnc/novnc').then((m) => m.default);
  // A failed chunk load (offline, redeploy) should be retried by the next viewer, not remembered.
  loading.catch(() => (loading = undefined));
  return loading;
}
