import type { Log } from '../../log.ts';
import type { CdpClient } from '../cdp/client.ts';

/** Longest the first page's navigation may hold up the hand-out (the load itself goes on after). */
const NAVIGATE_MS = 15_000;

/**
 * Open `url` (create_workflow_session's start_url, an http(s) URL the contract checked) in the
 * session's first page. Answers once the navigation is under way or has failed: a page that does
 * not load (no such host, refused by the egress rules) shows Chromium's error page and the session
 * is still handed out, as it would be had the caller navigated there itself.
 */
export async function openStartUrl(cdp: CdpClient, url: string, log: Log): Promise<void> {
  try {
    const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets');
    const page = targetInfos.find((t) => t.type === 'page');
    if (!page) throw new Error('the browser has no page to open the start URL in');
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId: page.targetId,
      flatten: true,
    });
    try {
      const result = await cdp.send<{ errorText?: string }>('Page.navigate', { url }, sessionId, NAVIGATE_MS);
      if (result.errorText)
        log.info({ url, error: result.errorText }, 'the start URL did not load; the session shows the error page');
    } finally {
      await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    }
  } catch (err) {
    log.warn({ err, url }, 'the start URL could not be opened');
  }
}
