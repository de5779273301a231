import type { Presentation } from '../../../contract/sessions.ts';
import type { CdpClient } from '../cdp/client.ts';

interface TargetInfo {
  targetId: string;
  type: string;
}

interface WindowBounds {
  windowState?: 'normal' | 'minimized' | 'maximized' | 'fullscreen';
}

/** How long the window may take to reach its state (an X round trip or two; generous for a loaded host). */
const SETTLE_MS = 5_000;

/**
 * Put a browser's window in the presentation asked for, when it was launched in another (a
 * warm-pool browser is launched before anyone has asked, in the default, kiosk): `kiosk` makes the
 * window fullscreen (CDP Browser.setWindowBounds), which hides the tab strip, the address bar and
 * any infobar, and gives the page the whole display; `browser` is Chromium's full window, with the
 * same chrome as a browser launched that way. Answers once the window is in that state, so the URLs
 * handed out show it.
 *
 * Entering fullscreen this way makes Chromium show "To exit full screen, press and hold Esc" for a
 * few seconds, so every browser is launched kiosk (ChromiumOptions.kiosk) unless it is asked for
 * `browser`: in practice this only ever takes a window out of fullscreen.
 */
export async function applyPresentation(cdp: CdpClient, presentation: Presentation): Promise<void> {
  const want = presentation === 'kiosk' ? 'fullscreen' : 'normal';
  const { targetInfos } = await cdp.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
  const page = targetInfos.find((t) => t.type === 'page');
  if (!page) throw new Error('the browser has no window to present');
  const { windowId, bounds } = await cdp.send<{ windowId: number; bounds: WindowBounds }>(
    'Browser.getWindowForTarget',
    { targetId: page.targetId },
  );
  if (bounds.windowState === want) return;
  await cdp.send('Browser.setWindowBounds', { windowId, bounds: { windowState: want } });
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const now = await cdp.send<{ bounds: WindowBounds }>('Browser.getWindowBounds', { windowId });
    if (now.bounds.windowState === want) return;
    if (Date.now() > deadline)
      throw new Error(`the window did not become ${want} (it is ${now.bounds.windowState ?? 'unknown'})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
