/**
 * The connect panel's snippets: a script per client, filled with this server's API address and
 * the session's connect_url and id. Pure, so a test can read every snippet. The API key is never
 * written into one: scripts read it from BROWSERDESK_API_KEY.
 */
export interface SnippetFacts {
  /** The API's absolute base address, e.g. https://desk.example.com/api (what Simplex's clients call base URL). */
  apiBase: string;
  /** ws(s)://HOST/s/{id}/cdp?token=…: drives this session's browser. */
  connectUrl: string;
  sessionId: string;
}

export type SnippetKey = 'playwright-js' | 'playwright-python' | 'puppeteer' | 'curl' | 'simplex-ts' | 'simplex-python';

export interface Snippet {
  key: SnippetKey;
  /** The tab's name. */
  label: string;
  /** What to install, shown above the script. */
  install: string;
  code: string;
}

/** The environment variable every snippet reads the key from. */
export const API_KEY_ENV = 'BROWSERDESK_API_KEY';

// A JSON string is a valid JavaScript and Python string literal, whatever the URL holds.
const str = (s: string) => JSON.stringify(s);
// A POSIX shell word in single quotes: a quote inside is closed, escaped and reopened.
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const trimBase = (base: string) => base.replace(/\/+$/, '');

export function playwrightJs({ connectUrl }: SnippetFacts): string {
  return `import { chromium } from 'playwright';

const browser = await chromium.connectOverCDP(${str(connectUrl)});
const context = browser.contexts()[0];
const page = context.pages()[0] ?? (await context.newPage());
await page.goto('https://example.com');
console.log(await page.title());
await browser.close(); // disconnects; the session lives until its timeout or End session
`;
}

export function playwrightPython({ connectUrl }: SnippetFacts): string {
  return `from playwright.sync_api import sync_playwright

with sync_playwright() as p:
    browser = p.chromium.connect_over_cdp(${str(connectUrl)})
    context = browser.contexts[0]
    page = context.pages[0] if context.pages else context.new_page()
    page.goto("https://example.com")
    print(page.title())
    browser.close()  # disconnects; the session lives until its timeout or End session
`;
}

export function puppeteerJs({ connectUrl }: SnippetFacts): string {
  return `import puppeteer from 'puppeteer-core';

const browser = await puppeteer.connect({
  browserWSEndpoint: ${str(connectUrl)},
  defaultViewport: null, // keep the session's window size
});
const page = (await browser.pages())[0] ?? (await browser.newPage());
await page.goto('https://example.com');
console.log(await page.title());
await browser.disconnect(); // the session lives until its timeout or End session
`;
}

export function curl({ apiBase, sessionId }: SnippetFacts): string {
  const base = trimBase(apiBase);
  const id = encodeURIComponent(sessionId);
  return `# The API key: Settings in this dashboard, or DATA_DIR/api-key on the server.
export ${API_KEY_ENV}='your-api-key'

# The session: state, times, workflow
curl -H "X-API-Key: $${API_KEY_ENV}" \\
  ${sh(`${base}/sessions/${id}`)}

# Its status as Simplex's clients read it (in_progress, outputs, files)
curl -H "X-API-Key: $${API_KEY_ENV}" \\
  ${sh(`${base}/session/${id}/status`)}

# End it: the browser closes, what it recorded stays
curl -X DELETE -H "X-API-Key: $${API_KEY_ENV}" \\
  ${sh(`${base}/sessions/${id}`)}
`;
}

export function simplexTs({ apiBase, sessionId }: SnippetFacts): string {
  return `import { SimplexClient } from 'simplex-ts';

const client = new SimplexClient({
  apiKey: process.env.${API_KEY_ENV}!,
  baseURL: ${str(trimBase(apiBase))},
});

const status = await client.getSessionStatus(${str(sessionId)});
console.log(status.in_progress, status.final_message);
`;
}

export function simplexPython({ apiBase, sessionId }: SnippetFacts): string {
  return `import os
from simplex import SimplexClient

client = SimplexClient(
    api_key=os.environ["${API_KEY_ENV}"],
    base_url=${str(trimBase(apiBase))},
)

status = client.get_session_status(${str(sessionId)})
print(status["in_progress"], status["final_message"])
`;
}

/** Every snippet, in the order of the panel's tabs. */
export function connectSnippets(facts: SnippetFacts): Snippet[] {
  return [
    { key: 'playwright-js', label: 'Playwright (JS)', install: 'npm i playwright', code: playwrightJs(facts) },
    {
      key: 'playwright-python',
      label: 'Playwright (Python)',
      install: 'pip install playwright',
      code: playwrightPython(facts),
    },
    { key: 'puppeteer', label: 'Puppeteer', install: 'npm i puppeteer-core', code: puppeteerJs(facts) },
    { key: 'curl', label: 'curl', install: '', code: curl(facts) },
    { key: 'simplex-ts', label: 'simplex-ts', install: 'npm i simplex-ts', code: simplexTs(facts) },
    { key: 'simplex-python', label: 'Python client', install: 'pip install simplex', code: simplexPython(facts) },
  ];
}
