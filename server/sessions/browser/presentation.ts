import type { Presentation } from '../../../contract/sessions.ts';
import { CdpClient } from '../cdp/client.ts';
import type { CdpHub } from '../cdp/hub.ts';

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
 * Put a warm-pool browser's window in the presentation asked for (a browser started for the
 * session is launched in it instead: ChromiumOptions.kiosk). Pool browsers are started before
 * anyone has asked, so for them this is a switch at hand-out time, not a launch flag: `kiosk` makes
 * the window fullscreen (CDP Browser.setWindowBounds), which hides the tab strip, the address bar
 * and any infobar, and gives the page the whole display; `browser` is Chromium's full window.
 * Answers once the window is in that state, so the URLs handed out show it.
 *
 * Chromium shows "To exit full screen, press and hold Esc" for a few seconds on entering
 * fullscreen; warm-pool browsers are made kiosk while they wait (WarmPoolOptions.prepare), so a
 * kiosk session from the pool is handed out with that notice long gone, and a browser one leaves
 * fullscreen, which shows nothing.
 */
export async function applyPresentation(hub: CdpHub, presentation: Presentation): Promise<void> {
  const want = presentation === 'kiosk' ? 'fullscreen' : 'normal';
  const cdp = await CdpClient.open(hub);
  try {
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
  } finally {
    cdp.close();
  }
}
