import type { Browser, Page } from 'puppeteer-core';

/**
 * Run `work` (one step), failing it at once when a page's renderer crashes or the browser goes away
 * meanwhile: puppeteer's own waits would otherwise go on until their timeout, or forever.
 */
export async function untilCrashed<T>(browser: Browser, work: () => Promise<T>): Promise<T> {
  const pages: Page[] = await browser.pages().catch(() => []);
  let off = () => undefined as void;
  const crashed = new Promise<never>((_, reject) => {
    const onCrash = () => reject(new Error('Page crashed'));
    const onGone = () => reject(new Error('Browser disconnected'));
    for (const page of pages) page.on('error', onCrash);
    browser.on('disconnected', onGone);
    off = () => {
      for (const page of pages) page.off('error', onCrash);
      browser.off('disconnected', onGone);
    };
  });
  crashed.catch(() => undefined); // lost the race: nobody awaits it then
  try {
    return await Promise.race([work(), crashed]);
  } finally {
    off();
  }
}
