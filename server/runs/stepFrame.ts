import type { ChangeStep } from '@puppeteer/replay';
import type { Browser, Frame, Page } from 'puppeteer-core';

/** The page or frame a Recorder step acts in, found as @puppeteer/replay finds it (its `target`, then its `frame` indices). */
export async function frameOfStep(
  browser: Browser,
  page: Page,
  step: Pick<ChangeStep, 'target' | 'frame'>,
  timeout: number,
): Promise<Frame> {
  let pageOrFrame: Page | Frame = page;
  if (step.target && step.target !== 'main') {
    const target = await browser.waitForTarget((t) => t.url() === step.target, { timeout });
    pageOrFrame = (await target.page()) ?? (await page.waitForFrame(step.target, { timeout }));
  }
  let frame = 'mainFrame' in pageOrFrame ? pageOrFrame.mainFrame() : pageOrFrame;
  for (const index of step.frame ?? []) {
    const child = frame.childFrames()[index];
    if (!child) throw new Error(`the page has no frame ${step.frame!.join('.')}`);
    frame = child;
  }
  return frame;
}
