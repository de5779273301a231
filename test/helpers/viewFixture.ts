import { chromium, type Browser } from 'playwright-core';
import { startServer, type TestServer } from './server.ts';
import { CdpPage, ensureViewerBuilt, openViewSession, startPageServer, type ViewSession } from './viewSession.ts';

export type PageServer = Awaited<ReturnType<typeof startPageServer>>;

/** What the view tests (vnc, livestream) stand on; close() ends all of it. */
export interface ViewFixture {
  server: TestServer;
  pages: PageServer;
  session: ViewSession;
  /** Drives the session's own page. */
  cdp: CdpPage;
  /** A separate Chromium that opens the viewer pages, as a person's browser would. */
  browser: Browser;
  close(): Promise<void>;
}

/** A server, a page server, one session showing `firstPage` (a page server path), and a viewer browser. */
export async function startViewFixture(firstPage: string): Promise<ViewFixture> {
  ensureViewerBuilt();
  const server = await startServer();
  const pages = await startPageServer();
  const session = await openViewSession(server);
  const cdp = await CdpPage.attach(session.connectUrl);
  await cdp.goto(`${pages.url}${firstPage}`);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  return {
    server,
    pages,
    session,
    cdp,
    browser,
    close: async () => {
      await browser.close();
      cdp.close();
      await server.close();
      await pages.close();
    },
  };
}
