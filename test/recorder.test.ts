import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { RecorderState } from '../contract/recorder.ts';
import { SessionEvent } from '../contract/sessionEvents.ts';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { startRecorderSite, tabOn, type RecorderSite } from './fixtures/recorderSite.ts';
import { createWorkflow, runWorkflow, untilCompleted } from './helpers/runs.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { callTool, mcpClient, textOf } from './helpers/mcpClient.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';
import { storeBytes } from './helpers/testDatabase.ts';
import { waitForAsync } from './helpers/wait.ts';

/**
 * Issue 47: a person's input in a live session, recorded as a workflow. Playwright's mouse and
 * keyboard drive the session over its connect_url (CDP Input events: trusted, as a person's through
 * the live view are); the recorded flow is saved and replayed with no model configured, and must
 * give the same submission. The password typed never lands in the flow, the events or the store.
 */
const SECRET = 'hunter2-recorded-secret';
let server: TestServer;
let site: RecorderSite;

beforeAll(async () => {
  [server, site] = await Promise.all([startServer(), startRecorderSite()]);
});
afterAll(async () => {
  await closeLeavingNothing(server);
  await site?.close();
});

async function newSession(startUrl: string) {
  const res = await postJson(server, '/api/create_workflow_session', {
    workflow_name: 'recorder-test',
    start_url: startUrl,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return CreateWorkflowSessionResponse.parse(await res.json());
}

const recorder = (id: string, method = 'GET') => server.api(`/api/sessions/${id}/recorder`, { method });

async function recorded(id: string): Promise<RecorderState> {
  const res = await recorder(id);
  expect(res.status, await res.clone().text()).toBe(200);
  return RecorderState.parse(await res.json());
}

/**
 * A click that navigates, named as Chrome's Recorder names it: its aria selector first, then CSS
 * and XPath. The aria one is read over CDP at the press, while the page is still there, and a busy
 * host can lose that read to the navigation: the step then has the others, and still replays. So
 * the aria selector is checked when it was read, and the others always.
 */
function expectNamedAsRecorderDoes(step: Record<string, unknown>, aria: string) {
  const selectors = step.selectors as string[][];
  const others = selectors.filter((chain) => !chain[0]!.startsWith('aria/'));
  if (others.length < selectors.length) expect(selectors[0]).toEqual([aria]);
  expect(selectors.length - others.length).toBeLessThanOrEqual(1);
  expect(others.some((chain) => chain[0]!.startsWith('xpath/'))).toBe(true);
  expect(others.some((chain) => !/^(xpath|text|pierce)\//.test(chain[0]!))).toBe(true);
}

/** The recording once `done` says its steps are all in (steps arrive as the page tells them). */
const recordedUntil = (id: string, done: (s: RecorderState) => boolean) =>
  waitForAsync('the recorded steps', async () => {
    const s = await recorded(id);
    return done(s) ? s : undefined;
  });

describe('the recorder', () => {
  let browser: Browser;
  let sessionId: string;
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
  });

  it('records a form filled by hand, across a link, an iframe and a popup, as a flow that replays to the same submission', async () => {
    // This test's own submissions (a retry of it finds the first try's there).
    const before = site.submissions.length;
    const mine = () => site.submissions.slice(before);
    const session = await newSession(`${site.origin}/`);
    sessionId = session.session_id!;
    const started = await recorder(sessionId, 'POST');
    expect(started.status, await started.clone().text()).toBe(201);
    const first = RecorderState.parse(await started.json());
    expect(first.recording).toBe(true);
    expect(first.flow.steps.map((s) => s.type)).toEqual(['setViewport', 'navigate']);
    expect(first.flow.steps[1]).toMatchObject({ url: `${site.origin}/` });

    // A second recorder on the same session is refused.
    const twice = await recorder(sessionId, 'POST');
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as { message: string }).message).toMatch(/already recording/);

    browser = await chromium.connectOverCDP(session.connect_url!);
    const page: Page = tabOn(browser, site.origin);
    // A person holds a click's button down for a moment (the clicks here hold it 100 ms): the aria
    // selector is read from the press, before a navigating click takes its page away.
    const click = { delay: 100 };
    await page.getByRole('link', { name: 'Order something' }).click(click);
    await page.waitForURL(`${site.origin}/form`);
    await page.getByLabel('Name').click();
    await page.keyboard.type('Ada');
    await page.keyboard.press('Tab');
    // The select keeps the focus Tab gave it: a key chooses Large (its change is the person's).
    await page.keyboard.press('ArrowDown');
    await page.getByLabel('Newsletter').click();
    await page.getByLabel('Password').click();
    await page.keyboard.type(SECRET);
    await page.frameLocator('iframe').getByLabel('Comment').click();
    await page.keyboard.type('Lovely');
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Read the terms' }).click();
    const popup = await popupOpened;
    await popup.waitForLoadState();
    const popupClosed = popup.waitForEvent('close');
    // Enter in the popup's field sends its form, which tells the opener and closes the popup.
    await popup.getByLabel('Initials').click(click);
    await popup.keyboard.type('AL');
    // Its release goes nowhere: the popup closed on the key's press.
    await popup.keyboard.down('Enter');
    await popupClosed;
    await page.getByRole('button', { name: 'Send' }).click(click);
    await page.waitForURL(`${site.origin}/submit`);
    expect(mine()).toEqual([
      { name: 'Ada', size: 'large', newsletter: 'yes', password: SECRET, comment: 'Lovely', accepted: 'AL' },
    ]);

    const last = await recordedUntil(sessionId, (s) => s.flow.steps.at(-1)?.assertedEvents !== undefined);
    const stopped = await recorder(sessionId, 'DELETE');
    expect(stopped.status).toBe(200);
    const { flow, variables, recording, warnings } = RecorderState.parse(await stopped.json());
    expect(recording).toBe(false);
    expect(warnings).toEqual([]);
    expect(flow.steps).toEqual(last.flow.steps);
    const text = JSON.stringify(flow);
    expect(text).not.toContain(SECRET);

    const steps = flow.steps as Record<string, unknown>[];
    const summary = steps.map((s) => `${String(s.type)}${s.type === 'change' ? `=${String(s.value)}` : ''}`);
    expect(summary).toEqual([
      'setViewport',
      'navigate',
      'click',
      'click',
      'change=Ada',
      'keyDown',
      'keyUp',
      'change=large',
      'click',
      'click',
      'change={{password}}',
      'click',
      'change=Lovely',
      'click',
      'click',
      'change=AL',
      'keyDown',
      'keyUp',
      'click',
    ]);
    // The link's click carries the navigation it caused; the clicks name their element as Chrome's Recorder does.
    expect(steps[2]).toMatchObject({ assertedEvents: [{ type: 'navigation', url: `${site.origin}/form` }] });
    expectNamedAsRecorderDoes(steps[2]!, 'aria/Order something[role="link"]');
    expect(steps[4]).toMatchObject({ selectors: expect.arrayContaining([['#name']]) as unknown });
    // The iframe's field carries Recorder's frame; the popup's click its tab's URL.
    expect(steps[12]).toMatchObject({ frame: [0], value: 'Lovely' });
    // The popup's steps, its Enter too, carry its tab's URL: on replay the key goes to the popup.
    for (const s of steps.slice(14, 18)) expect(s).toMatchObject({ target: `${site.origin}/terms` });
    expect(steps[14]!.selectors as string[][]).toContainEqual(['#initials']);
    expect(steps[16]).toMatchObject({ type: 'keyDown', key: 'Enter' });
    expectNamedAsRecorderDoes(steps[18]!, 'aria/Send[role="button"]');
    expect(steps[18]).toMatchObject({ assertedEvents: [{ type: 'navigation', url: `${site.origin}/submit` }] });
    expect(steps.slice(0, 14).some((s) => 'target' in s)).toBe(false);
    expect(variables).toEqual([expect.objectContaining({ name: 'password', type: 'string', required: true })]);

    // The session's log told each step as it came, the password's as its placeholder.
    const events = await server.api(`/api/session/${sessionId}/events?limit=1000`);
    const { events: log } = (await events.json()) as { events: SessionEvent[] };
    const told = log.filter((e) => e.event === 'RecorderStep');
    expect(told.length).toBeGreaterThanOrEqual(flow.steps.length);
    expect(JSON.stringify(log)).not.toContain(SECRET);

    // Nor in the store, before the replay below is given it as a variable (a run keeps its variables).
    // (SQLite's files, or on the Postgres pass the cluster's data files.)
    const stored = await storeBytes(server);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.includes(SECRET)).toBe(false);

    // Saved as is, replayed with no model: the same submission.
    const workflowId = await createWorkflow(server, { name: 'Recorded order', flow, variables });
    const run = await runWorkflow(server, {
      workflow_id: workflowId,
      variables: JSON.stringify({ password: SECRET }),
    });
    expect(run.status).toBe(200);
    const status = await untilCompleted(server, run.body.session_id!);
    expect(status.succeeded, status.message).toBe(true);
    expect(mine()).toHaveLength(2);
    expect(mine()[1]).toEqual(mine()[0]);
  });

  it('stops with its session, whose flow is still answered', async () => {
    await browser.close();
    const ended = await server.api(`/api/sessions/${sessionId}`, { method: 'DELETE' });
    expect(ended.status).toBeLessThan(300);
    const after = await recorded(sessionId);
    expect(after.recording).toBe(false);
    expect(after.flow.steps).toHaveLength(19);
  });

  it('records the scrolls a person made (not the page’s), hovers that open a menu, and fields and clicks in a shadow root, as a flow that replays', async () => {
    const session = await newSession(`${site.origin}/extras`);
    const id = session.session_id!;
    const before = site.extras.length;
    expect((await recorder(id, 'POST')).status).toBe(201);
    const own = await chromium.connectOverCDP(session.connect_url!);
    try {
      const page = tabOn(own, site.origin);
      // The address fields are in <address-box>'s open shadow root (Playwright's locators pierce it).
      await page.getByLabel('Street').click();
      await page.keyboard.type('1 Rue Haute');
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowDown');
      await page.getByLabel('Gift wrap').click();
      // Two menus whose item shows only while the pointer rests on them (CSS :hover, a script's mouseenter).
      await page.getByRole('button', { name: 'Delivery' }).hover();
      await page.getByRole('button', { name: 'Fast options' }).hover();
      await page.getByRole('button', { name: 'Express delivery' }).click();
      await page.getByRole('button', { name: 'More' }).hover();
      await page.getByRole('button', { name: 'Add a gift card' }).click();
      await page.getByRole('button', { name: 'Paper' }).hover();
      await page.getByRole('menuitem', { name: 'Gold paper' }).click();
      // Moving on from a menu, and clicking outside any, records no hover.
      await page.mouse.move(0, 0);
      // The wheel over the terms box reads it to its end, which enables its checkbox.
      const box = (await page.locator('#terms').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, 300);
      await page.mouse.wheel(0, 300);
      await expect.poll(() => page.locator('#agreed').isEnabled()).toBe(true);
      await page.getByLabel('I read the terms').click();
      // The wheel beside it scrolls the window past the fold, where the offer shows.
      await page.mouse.move(box.x + box.width + 200, box.y + box.height / 2);
      await page.mouse.wheel(0, 600);
      await page.locator('#offer').waitFor();
      // A person reads before clicking: the page's own scroll of the terms box when the offer is
      // taken comes well after the wheel, and is the page's, not a step.
      await new Promise((r) => setTimeout(r, 1500));
      await page.getByRole('button', { name: 'Take the offer' }).click();
      await page.getByRole('button', { name: 'Finish' }).click({ delay: 100 });
      await expect.poll(() => site.extras.length).toBe(before + 1);
      expect(site.extras[before]).toEqual({
        street: '1 Rue Haute',
        country: 'de',
        gift: 'yes',
        agreed: 'yes',
        offer: 'yes',
        delivery: 'express',
        card: 'yes',
        paper: 'gold',
      });

      await recordedUntil(id, (s) => s.flow.steps.at(-1)?.assertedEvents !== undefined);
      const stopped = await recorder(id, 'DELETE');
      const { flow, warnings } = RecorderState.parse(await stopped.json());
      expect(warnings).toEqual([]);
      const steps = flow.steps as Record<string, unknown>[];
      expect(steps.map((s) => `${String(s.type)}${s.type === 'change' ? `=${String(s.value)}` : ''}`)).toEqual([
        'setViewport',
        'navigate',
        'click',
        'change=1 Rue Haute',
        'keyDown',
        'keyUp',
        'change=de',
        'click',
        'hover',
        'hover',
        'click',
        'hover',
        'click',
        'hover',
        'click',
        'scroll',
        'click',
        'scroll',
        'click',
        'click',
      ]);
      // A field in the shadow root is named through its host (a chain of per-root CSS) and by pierce/.
      const street = steps[3]!.selectors as string[][];
      expect(street).toContainEqual(['pierce/#street']);
      expect(street.some((chain) => chain.length === 2 && chain[1] === '#street')).toBe(true);
      expect(steps[6]!.selectors as string[][]).toContainEqual(['pierce/#country']);
      expect(steps[7]!.selectors as string[][]).toContainEqual(['pierce/#gift']);
      // Each menu (and submenu) hovered where its :hover or its mouseenter is, then its item clicked.
      expect((steps[8]!.selectors as string[][])[0]).toEqual(['#delivery']);
      expect((steps[9]!.selectors as string[][])[0]).toEqual(['#fast']);
      expect((steps[11]!.selectors as string[][])[0]).toEqual(['aria/More[role="button"]']);
      // The portal's menu is tied to its button by aria-controls alone (their common ancestor is the body).
      expect(steps[13]!.selectors as string[][]).toContainEqual(['#paper']);
      // The terms box scrolled to its end (its wheels merged into one step), then the window.
      const terms = steps[15]!;
      expect(terms.selectors as string[][]).toContainEqual(['#terms']);
      expect(terms.x).toBe(0);
      expect(terms.y).toBeGreaterThan(300);
      expect(steps[17]).toEqual({ type: 'scroll', x: 0, y: expect.any(Number) as unknown });
      expect(steps[17]!.y).toBeGreaterThan(300);

      // Replayed with no model: without its hovers the menus' items stay hidden, without its scrolls
      // the checkbox stays disabled and the offer hidden.
      const workflowId = await createWorkflow(server, { name: `Recorded extras ${id}`, flow });
      const run = await runWorkflow(server, { workflow_id: workflowId });
      expect(run.status).toBe(200);
      const status = await untilCompleted(server, run.body.session_id!);
      expect(status.succeeded, status.message).toBe(true);
      expect(site.extras).toHaveLength(before + 2);
      expect(site.extras[before + 1]).toEqual(site.extras[before]);

      // The hovers are what opens the menus: the same flow without them stops at the first item.
      const unhovered = { ...flow, steps: flow.steps.filter((s) => s.type !== 'hover') };
      const withoutId = await createWorkflow(server, { name: `Recorded extras unhovered ${id}`, flow: unhovered });
      const without = await runWorkflow(server, { workflow_id: withoutId });
      const failed = await untilCompleted(server, without.body.session_id!);
      expect(failed.succeeded).toBe(false);
      expect(failed.message).toMatch(/^Step 9 \(click aria\/Express delivery/);
      expect(site.extras).toHaveLength(before + 2);
    } finally {
      await own.close();
      await server.api(`/api/sessions/${id}`, { method: 'DELETE' });
    }
  });

  it('records a press on a scrollbar as a scroll of its element, and no click', async () => {
    const session = await newSession(`${site.origin}/extras`);
    const id = session.session_id!;
    expect((await recorder(id, 'POST')).status).toBe(201);
    const own = await chromium.connectOverCDP(session.connect_url!);
    try {
      const page = tabOn(own, site.origin);
      // The terms box's own scrollbar is at its right edge, inside its border, beside its content.
      const bar = await page.locator('#terms').evaluate((el) => {
        const box = el.getBoundingClientRect();
        const left = box.left + el.clientLeft + el.clientWidth;
        return {
          x: (left + box.right - el.clientLeft) / 2,
          y: box.top + el.clientTop + el.clientHeight / 2,
          width: box.right - left,
        };
      });
      expect(bar.width).toBeGreaterThan(0);
      // Pressed on its track below the thumb, which pages it down.
      await page.mouse.move(bar.x, bar.y);
      await page.mouse.down();
      await new Promise((r) => setTimeout(r, 200));
      await page.mouse.up();
      expect(await page.locator('#terms').evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
      const state = await recordedUntil(id, (s) => s.flow.steps.some((step) => step.type === 'scroll'));
      // Nothing else comes after it settles.
      await new Promise((r) => setTimeout(r, 500));
      const steps = (await recorded(id)).flow.steps as Record<string, unknown>[];
      expect(steps).toEqual(state.flow.steps);
      expect(steps.map((s) => s.type)).toEqual(['setViewport', 'navigate', 'scroll']);
      expect(steps[2]!.selectors as string[][]).toContainEqual(['#terms']);
      expect(steps[2]!.y).toBeGreaterThan(0);
    } finally {
      await own.close();
      await server.api(`/api/sessions/${id}`, { method: 'DELETE' });
    }
  });

  it('an agent starts, reads and stops the recorder over MCP while a person clicks', async () => {
    const client = await mcpClient(server);
    const session = await newSession(`${site.origin}/form`);
    const id = session.session_id!;
    const own = await chromium.connectOverCDP(session.connect_url!);
    try {
      const started = await callTool(client, 'recorder_start', { session_id: id });
      expect(started.isError, textOf(started)).toBeFalsy();
      expect(RecorderState.parse(JSON.parse(textOf(started))).flow.steps).toHaveLength(2);
      const again = await callTool(client, 'recorder_start', { session_id: id });
      expect(again.isError).toBe(true);
      expect(textOf(again)).toMatch(/already recording/);
      const page = tabOn(own, site.origin);
      await page.getByLabel('Newsletter').click();
      const read = await waitForAsync('the click over MCP', async () => {
        const res = await callTool(client, 'recorder_read', { session_id: id });
        const state = RecorderState.parse(JSON.parse(textOf(res)));
        return state.flow.steps.length === 3 ? state : undefined;
      });
      expect(read.flow.steps[2]).toMatchObject({ type: 'click' });
      expect((read.flow.steps[2] as { selectors: string[][] }).selectors.slice(0, 2)).toEqual([
        ['aria/Newsletter[role="checkbox"]'],
        ['#newsletter'],
      ]);
      const stopped = await callTool(client, 'recorder_stop', { session_id: id });
      expect(RecorderState.parse(JSON.parse(textOf(stopped))).recording).toBe(false);
    } finally {
      await own.close();
      await client.close();
      await server.api(`/api/sessions/${id}`, { method: 'DELETE' });
    }
  });

  it('refuses a recorder on an unknown or ended session, and answers none where none ran', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const a = await recorder(unknown, 'POST');
    expect(a.status).toBe(404);
    const b = await recorder(sessionId, 'POST');
    expect(b.status).toBe(409);
    expect(((await b.json()) as { message: string }).message).toMatch(/has ended/);
    expect((await recorder(unknown)).status).toBe(404);
    const session = await newSession(`${site.origin}/`);
    const none = await recorder(session.session_id!);
    expect(none.status).toBe(404);
    expect(((await none.json()) as { message: string }).message).toMatch(/has no recorder/);
    await server.api(`/api/sessions/${session.session_id}`, { method: 'DELETE' });
  });
});
