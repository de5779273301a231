import os from 'node:os';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Browser as PBrowser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Flow } from '../contract/steps.ts';
import { StepRecorder } from '../server/agent/stepRecorder.ts';
import { replayFlow } from '../server/runs/engine/replay.ts';
import { launchChromium } from './fixtures/chromium.ts';
import { CHROMIUM_ARGS } from './fixtures/chromiumArgs.ts';
import { startPopupSite, type PopupSite } from './fixtures/popupSite.ts';

/**
 * An OAuth-style popup login recorded as the agent's tools drive it (the popup selected once it
 * opens), replayed with @puppeteer/replay and no model: the popup's steps carry Recorder's `target`.
 */
let site: PopupSite;
let pw: Browser;
let pp: PBrowser;

beforeAll(async () => {
  site = await startPopupSite();
  [pw, pp] = await Promise.all([
    chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS }),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await Promise.all([pw?.close(), pp?.close()]);
  await site?.close();
});

/** One tool call through the recorder, on the page the tools would act on. */
const call = (
  recorder: StepRecorder,
  page: Page,
  tool: string,
  args: Record<string, unknown>,
  act: () => Promise<unknown>,
) =>
  recorder.record(
    page,
    tool,
    args,
    (ref) => page.locator(ref),
    async () => {
      await act();
      return { isError: false };
    },
  );

describe('a popup login, recorded and replayed', () => {
  it('gives the popup steps its URL as target, and the replay signs in through the popup', async () => {
    const main = await pw.newPage();
    const recorder = new StepRecorder();
    await call(recorder, main, 'browser_navigate', { url: `${site.origin}/opener` }, () =>
      main.goto(`${site.origin}/opener`),
    );
    const opened = main.waitForEvent('popup');
    await call(recorder, main, 'browser_click', { ref: '#login' }, () => main.locator('#login').click());
    const popup = await opened;
    await popup.waitForLoadState('load');
    await call(recorder, popup, 'browser_type', { ref: '#user', text: 'alice' }, () =>
      popup.locator('#user').fill('alice'),
    );
    await call(recorder, popup, 'browser_click', { ref: 'button[type=submit]' }, () =>
      popup.locator('button[type=submit]').click(),
    );
    await expect.poll(() => main.locator('#status').textContent()).toBe('Signed in as alice');
    await call(recorder, main, 'browser_snapshot', {}, () => main.title());

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
  });
});
