import { agentToolInputs } from '../../contract/agentTools.ts';
import type { ToolKit } from './kit.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';
import { locateTarget } from './targets.ts';

/** Widest image handed to a model: wider costs tokens and most vision models scale down to about this anyway. */
export const SCREENSHOT_MAX_WIDTH = 1280;
/** A full page is cut this tall (CSS pixels): an endless page must not make an endless image. */
const FULL_PAGE_MAX_HEIGHT = 8000;

interface LayoutMetrics {
  cssVisualViewport: { pageX: number; pageY: number; clientWidth: number; clientHeight: number };
  cssContentSize: { width: number; height: number };
  visualViewport: { clientWidth: number };
}

/**
 * browser_take_screenshot: a JPEG of the page, at most 1280 px wide. The browser scales it as it
 * captures (Page.captureScreenshot's clip scale), so no image library runs in the service. Sizes
 * come from Page.getLayoutMetrics, which the page's scripts cannot fake as they can innerWidth.
 */
export function screenshotTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_take_screenshot',
      description: `A picture of what the session's page shows (JPEG, at most ${SCREENSHOT_MAX_WIDTH} px wide, whatever \`type\` says); fullPage (or full_page) for the whole scrollable page, target (a ref or a CSS selector matching one element; ref is the older name) for one element. To act on elements, use browser_snapshot: screenshots have no refs.`,
      input: agentToolInputs.browser_take_screenshot,
      async run({ session_id, full_page: fullPageOld, fullPage, target, ref, element }) {
        const full_page = fullPage ?? fullPageOld;
        const page = await kit.browsers.page(session_id);
        // An element's box, where the page shows it now (viewport coordinates, CSS pixels).
        let box: { x: number; y: number; width: number; height: number } | null = null;
        let label = '';
        if (target !== undefined || ref !== undefined) {
          const located = await locateTarget(kit, session_id, page, { target, ref, element });
          label = located.label;
          await located.locator.scrollIntoViewIfNeeded({ timeout: 5_000 }).catch(() => undefined);
          box = await located.locator.boundingBox({ timeout: 5_000 }).catch(() => null);
          if (!box || box.width < 1 || box.height < 1)
            throw new ToolError(`${label} (${located.given}) is not shown on the page now: take a new snapshot`);
        }
        const cdp = await page.context().newCDPSession(page);
        try {
          const m = (await cdp.send('Page.getLayoutMetrics')) as unknown as LayoutMetrics;
          const view = m.cssVisualViewport;
          const devicePixels = view.clientWidth > 0 ? m.visualViewport.clientWidth / view.clientWidth : 1;
          const clip = box
            ? { x: view.pageX + box.x, y: view.pageY + box.y, width: box.width, height: box.height }
            : full_page
              ? {
                  x: 0,
                  y: 0,
                  width: Math.ceil(m.cssContentSize.width),
                  height: Math.min(Math.ceil(m.cssContentSize.height), FULL_PAGE_MAX_HEIGHT),
                }
              : { x: view.pageX, y: view.pageY, width: view.clientWidth, height: view.clientHeight };
          if (clip.width < 1 || clip.height < 1)
            throw new ToolError('The page has no size to capture (a window that is minimised or not drawn yet)');
          const scale = Math.min(1, SCREENSHOT_MAX_WIDTH / (clip.width * devicePixels));
          const shot = await cdp.send('Page.captureScreenshot', {
            format: 'jpeg',
            quality: 80,
            clip: { ...clip, scale },
            captureBeyondViewport: full_page === true || box !== null,
          });
          const width = Math.round(clip.width * scale * devicePixels);
          return {
            content: [
              { type: 'image', data: shot.data, mimeType: 'image/jpeg' },
              {
                type: 'text',
                text: `Screenshot of ${box ? `${label} on ` : ''}${page.url()} (${width} px wide${full_page && !box ? ', full page' : ''})`,
              },
            ],
            summary: `Screenshot${box ? ` of ${label}` : full_page ? ' of the full page' : ''}`,
          };
        } finally {
          await cdp.detach().catch(() => undefined);
        }
      },
    }),
  ];
}
