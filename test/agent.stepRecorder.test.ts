import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { selectorToPElementSelector } from '@puppeteer/replay';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Browser as PBrowser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Flow, type Step } from '../contract/steps.ts';
import { roleAndName } from '../server/agent/elementSelectors.ts';
import { StepRecorder } from '../server/agent/stepRecorder.ts';
import { replayFlow } from '../server/runs/engine/replay.ts';
import { launchChromium } from './fixtures/chromium.ts';
import { CHROMIUM_ARGS } from './fixtures/chromiumArgs.ts';
import { startPopupSite } from './fixtures/popupSite.ts';

const EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Two same-text buttons, a labelled input without id, a select, a checkbox; the clicks write into
// the hidden `clicked` field, so the submitted form shows which buttons a replay hit.
const HOME = `<!doctype html><title>Home</title><body>
<nav><a href="/about">About</a> <a href="/more">More information...</a></nav>
<form action="/submit" method="get">
  <input type="hidden" name="clicked" value="">
  <button type="button" id="go" onclick="this.form.clicked.value += 'go,'">Go</button>
  <section><button type="button" onclick="this.form.clicked.value += 'a,'">Save</button></section>
  <section><button type="button" onclick="this.form.clicked.value += 'b,'">Save</button></section>
  <div><label>Email <input name="email"></label></div>
  <div><label>Name <input name="name"></label></div>
  <label>Size <select name="size"><option value="s">Small</option><option value="l">Large</option></select></label>
  <label><input type="checkbox" name="agree"> I agree</label>
  <button>Send</button>
</form></body>`;
const SUBMITTED = `<!doctype html><title>Thanks</title><body><p>Thanks</p><a href="/done">Continue</a></body>`;
const DONE = `<!doctype html><title>Done</title><body><h1>Done</h1></body>`;

let server: http.Server;
let origin: string;
const submissions: Record<string, string>[] = [];
let pw: Browser;
let pp: PBrowser;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/submit') submissions.push(Object.fromEntries(url.searchParams));
    const body = { '/': HOME, '/submit': SUBMITTED, '/done': DONE }[url.pathname];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html' }).end(body ?? 'not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  [pw, pp] = await Promise.all([
    chromium.launch({ executablePath: EXECUTABLE, args: CHROMIUM_ARGS }),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await Promise.all([pw?.close(), pp?.close()]);
  await new Promise((resolve) => server?.close(resolve));
});

/** Drive the page as an agent tool would (Playwright), through the recorder; a throw is an error result. */
function toolOf(page: Page, recorder: StepRecorder) {
  return (tool: string, args: Record<string, unknown>, act: () => Promise<unknown>) =>
    recorder.record(
      page,
      tool,
      args,
      (ref) => page.locator(ref),
      async () => {
        await act();
        // A popup's button may close its own tab: nothing to wait for then.
        if (!page.isClosed()) await page.waitForLoadState('load');
        return { isError: false };
      },
    );
}

describe('StepRecorder', () => {
  it('reads role and name from an aria snapshot line', () => {
    expect(roleAndName('- link "More information..."')).toEqual({ role: 'link', name: 'More information...' });
    expect(roleAndName('- textbox "Say \\"hi\\"": x')).toEqual({ role: 'textbox', name: 'Say "hi"' });
    expect(roleAndName(`- 'button "a: b"'`)).toEqual({ role: 'button', name: 'a: b' });
    expect(roleAndName('- generic')).toBeUndefined();
  });

  it('records an agent session that replays to the same end state', async () => {
    const page = await pw.newPage();
    const recorder = new StepRecorder();
    const emitted: number[] = [];
    recorder.onStep((_step, index) => emitted.push(index));
    const tool = toolOf(page, recorder);
    const $ = (css: string) => page.locator(css);

    await tool('browser_navigate', { url: `${origin}/` }, () => page.goto(`${origin}/`));
    await tool('browser_click', { ref: '#go' }, () => $('#go').click());
    await tool('browser_click', { ref: 'section:nth-of-type(2) button' }, () =>
      $('section:nth-of-type(2) button').click(),
    );
    await tool('browser_hover', { ref: 'text=More information...' }, () => $('text=More information...').hover());
    await tool('browser_type', { ref: 'input[name=email]', text: 'ada@example.org' }, () =>
      $('input[name=email]').fill('ada@example.org'),
    );
    await tool('browser_select_option', { ref: 'select', values: ['Large'] }, () => $('select').selectOption('Large'));
    const fields = [
      { element: 'agree', ref: 'input[name=agree]', value: 'true' },
      { element: 'name', ref: 'input[name=name]', value: 'Ada' },
    ];
    await tool('browser_fill_form', { fields }, async () => {
      await $('input[name=agree]').setChecked(true);
      await $('input[name=name]').fill('Ada');
    });
    await tool('browser_press_key', { key: 'Shift+Tab' }, () => page.keyboard.press('Shift+Tab'));
    await tool('browser_type', { ref: 'input[name=name]', text: 'Ada L', submit: true }, async () => {
      await $('input[name=name]').fill('Ada L');
      await $('input[name=name]').press('Enter');
    });
    await tool('browser_click', { ref: 'a[href="/done"]' }, () => $('a[href="/done"]').click());
    await tool('browser_snapshot', {}, () => page.title()); // not a step
    await tool('browser_back', {}, () => page.goBack());
    // A failed call records nothing; a ref that names nothing records nothing but the call stands.
    await recorder.record(
      page,
      'browser_click',
      { ref: '#go' },
      (r) => page.locator(r),
      async () => ({ isError: true }),
    );
    const out = await recorder.record(
      page,
      'browser_click',
      { ref: '#nothing' },
      (r) => page.locator(r),
      async () => ({
        isError: false,
        said: 'fine',
      }),
    );
    expect(out.said).toBe('fine');

    const steps = recorder.steps();
    expect(emitted).toEqual(steps.map((_, i) => i));
    expect(steps.map((s) => s.type)).toEqual([
      'navigate',
      'click',
      'click',
      'hover',
      'change',
      'change',
      'click',
      'change',
      'keyDown',
      'keyDown',
      'keyUp',
      'keyUp',
      'change',
      'keyDown',
      'keyUp',
      'click',
      'navigate',
    ]);
    const recorded = submissions.at(-1)!;
    expect(recorded).toEqual({ clicked: 'go,b,', email: 'ada@example.org', name: 'Ada L', size: 'l', agree: 'on' });
    expect(steps[1]).toMatchObject({ selectors: expect.arrayContaining([['aria/Go[role="button"]'], ['#go']]) });
    expect(steps[3]).toMatchObject({ selectors: expect.arrayContaining([['text/More information...']]) });
    expect(steps[5]).toMatchObject({ value: 'l' });
    expect(steps[13]).toMatchObject({ key: 'Enter', assertedEvents: [{ url: expect.stringContaining('/submit?') }] });
    expect(steps[15]).toMatchObject({ assertedEvents: [{ url: `${origin}/done`, title: 'Done' }] });
    expect(steps[16]).toMatchObject({ type: 'navigate', url: expect.stringContaining('/submit?') });
    const flow = Flow.parse({ title: 'agent', steps });
    await page.close();

    // Replay on a fresh browser; before each step, each of its selectors must find exactly one element there.
    let index = 0;
    const notAlone: string[] = [];
    const replayPage = (await pp.pages())[0]!;
    const outcome = await replayFlow({
      connect: async () => ({ browserWSEndpoint: pp.wsEndpoint() }),
      flow,
      filesDir: os.tmpdir(),
      beforeStep: async () => {
        const step = flow.steps[index++] as Step & { selectors?: (string | string[])[] };
        for (const sel of step.selectors ?? []) {
          const found = await replayPage.$$(selectorToPElementSelector(sel));
          if (found.length !== 1) notAlone.push(`${index - 1} ${JSON.stringify(sel)}: ${found.length}`);
          await Promise.all(found.map((h) => h.dispose()));
        }
      },
    });
    expect(outcome.message).toBe(`All ${steps.length} steps succeeded`);
    expect(notAlone).toEqual([]);
    expect(submissions.at(-1)).toEqual(recorded);
    expect(replayPage.url()).toBe((steps[16] as { url: string }).url);
  });

  it('keeps a placeholder as the agent typed it', async () => {
    const page = await pw.newPage();
    await page.goto(`${origin}/`);
    const recorder = new StepRecorder();
    await recorder.record(
      page,
      'browser_type',
      { ref: 'input[name=email]', text: '{{credentials.PASSWORD}}' },
      (r) => page.locator(r),
      async () => ({ isError: false }),
    );
    expect(recorder.steps()).toMatchObject([{ type: 'change', value: '{{credentials.PASSWORD}}' }]);
    recorder.clear();
    expect(recorder.steps()).toEqual([]);
    await page.close();
  });

  it("records an OAuth-style popup login with the popup URL as its steps' target, and the replay signs in through the popup", async () => {
    const site = await startPopupSite();
    const main = await pw.newPage();
    const recorder = new StepRecorder();
    const onMain = toolOf(main, recorder);
    await onMain('browser_navigate', { url: `${site.origin}/opener` }, () => main.goto(`${site.origin}/opener`));
    const opened = main.waitForEvent('popup');
    await onMain('browser_click', { ref: '#login' }, () => main.locator('#login').click());
    const popup = await opened;
    await popup.waitForLoadState('load');
    const onPopup = toolOf(popup, recorder);
    await onPopup('browser_type', { ref: '#user', text: 'alice' }, () => popup.locator('#user').fill('alice'));
    await onPopup('browser_click', { ref: 'button[type=submit]' }, () => popup.locator('button[type=submit]').click());
    await expect.poll(() => main.locator('#status').textContent()).toBe('Signed in as alice');
    await onMain('browser_snapshot', {}, () => main.title());

    const steps = recorder.steps();
    expect(steps.map((s) => [s.type, (s as { target?: string }).target])).toEqual([
      ['navigate', undefined],
      ['click', undefined],
      ['change', `${site.origin}/login`],
      ['click', `${site.origin}/login`],
    ]);
    await main.close();

    const flow = Flow.parse({ title: 'popup login', steps });
    const replayPage = (await pp.pages())[0]!;
    const outcome = await replayFlow({
      connect: async () => ({ browserWSEndpoint: pp.wsEndpoint() }),
      flow,
      filesDir: os.tmpdir(),
    });
    expect(outcome.message).toBe(`All ${steps.length} steps succeeded`);
    await expect.poll(() => replayPage.$eval('#status', (e) => e.textContent)).toBe('Signed in as alice');
    await site.close();
  });
});
