import { CopyableText } from '../../components/CopyableText.tsx';

export function playwrightSnippet(connectUrl: string): string {
  return `import { chromium } from 'playwright';

const browser = await chromium.connectOverCDP(${JSON.stringify(connectUrl)});
const context = browser.contexts()[0];
const page = context.pages()[0] ?? (await context.newPage());
await page.goto('https://example.com');
console.log(await page.title());
await browser.close(); // disconnects; the session lives until its timeout or End session
`;
}

/** The CDP address with a copy button and a Playwright script that uses it. */
export function ConnectPanel({ connectUrl }: { connectUrl: string }) {
  const snippet = playwrightSnippet(connectUrl);
  return (
    <section className="card" aria-labelledby="connect-title">
      <h2 id="connect-title">Connect with code</h2>
      <CopyableText label="connect_url" copyLabel="Copy connect_url" text={connectUrl} testId="connect-url" />
      <p className="hint">Works with Playwright&apos;s chromium.connectOverCDP() and Puppeteer&apos;s connect({'{ browserWSEndpoint }'}). Keep it secret: it drives the browser.</p>
      <CopyableText label="Playwright" copyLabel="Copy script" text={snippet} />
    </section>
  );
}
