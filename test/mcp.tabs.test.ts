import { describe, expect, it } from 'vitest';
import { callTool, refOf, textOf } from './helpers/mcpClient.ts';
import { tabLines, tabsBed } from './helpers/tabsBed.ts';
import { waitForAsync } from './helpers/wait.ts';

/** Tabs, popups and dialogs over /api/mcp, as a playwright-mcp 0.0.83 client drives them. */
const { bed, newSession, ok } = tabsBed();

/**
 * After a click that opens a tab: the tab is announced and selected. Playwright reports a popup once
 * it is set up, which on a loaded host can come after the click's answer; the notice then rides on
 * the next answer (as the tools promise), so both are read, asking for the tab list until it shows.
 */
async function expectTabAnnounced(clicked: string, sessionId: string, path: RegExp): Promise<void> {
  let said = clicked;
  await waitForAsync('the new tab to be listed as selected', async () => {
    const list = await ok('browser_tabs', { session_id: sessionId, action: 'list' });
    said += `\n${list}`;
    return tabLines(list).some((line) => /^- 1: \(current\)/.test(line) && path.test(line)) || undefined;
  });
  expect(said).toMatch(/A new tab opened and is now selected: tab 1/);
}

describe('tabs and popups', () => {
  it('follows an OAuth-style popup login: the popup is selected as it opens, its form is filled, and closing it returns to the opener', async () => {
    const id = await newSession('/opener');
    try {
      const before = await ok('browser_snapshot', { session_id: id });
      const clicked = await ok('browser_click', {
        session_id: id,
        element: 'Log in with Provider',
        ref: refOf(before, /button "Log in with Provider"/),
      });
      await expectTabAnnounced(clicked, id, /\/login\)$/);

      const tabs = await ok('browser_tabs', { session_id: id, action: 'list' });
      expect(tabLines(tabs)).toHaveLength(2);
      expect(tabs).toMatch(/^- 1: \(current\) \[Provider login\]\(.*\/login\)$/m);
      expect(tabs).toMatch(/^- 0: \[Shop\]/m);

      // A ref of the opener's snapshot names nothing on the popup: stale, said so.
      const stale = await callTool(bed.client, 'browser_click', {
        session_id: id,
        element: 'Log in',
        ref: refOf(before, /button "Log in with Provider"/),
      });
      expect(stale.isError).toBe(true);
      expect(textOf(stale)).toMatch(/another tab was selected/);

      const login = await ok('browser_snapshot', { session_id: id });
      expect(login).toContain('Provider login');
      await ok('browser_type', {
        session_id: id,
        element: 'User name',
        ref: refOf(login, /textbox "User name"/),
        text: 'alice',
        submit: true,
      });
      // The popup posts to its opener and closes itself: the opener is selected again.
      const back = await waitForAsync('the popup to close', async () => {
        const list = await ok('browser_tabs', { session_id: id, action: 'list' });
        return tabLines(list).length === 1 ? list : undefined;
      });
      expect(back).toMatch(/^- 0: \(current\) \[Shop\]/m);
      expect(await ok('browser_snapshot', { session_id: id })).toContain('Signed in as alice');
    } finally {
      await callTool(bed.client, 'session_close', { session_id: id });
    }
  });

  it('opens, selects and closes tabs; browser_close keeps the session with a blank tab when the last one closes', async () => {
    const id = await newSession('/opener');
    try {
      const snap = await ok('browser_snapshot', { session_id: id });
      const clicked = await ok('browser_click', {
        session_id: id,
        element: 'Terms',
        ref: refOf(snap, /link "Terms in a new tab"/),
      });
      await expectTabAnnounced(clicked, id, /\/other\)$/);
      expect(await ok('browser_snapshot', { session_id: id })).toMatch(/heading "Terms"/);

      expect(await ok('browser_tabs', { session_id: id, action: 'select', index: 0 })).toMatch(/^- 0: \(current\)/m);
      expect(await ok('browser_snapshot', { session_id: id })).toContain('Not signed in');

      const opened = await ok('browser_tabs', { session_id: id, action: 'new' });
      expect(tabLines(opened)).toHaveLength(3);
      expect(opened).toMatch(/^- 2: \(current\) \[\]\(about:blank\)$/m);

      const closed = await ok('browser_tabs', { session_id: id, action: 'close', index: 1 });
      expect(tabLines(closed)).toHaveLength(2);
      expect(closed).not.toContain('/other');

      await ok('browser_close', { session_id: id });
      const last = await ok('browser_close', { session_id: id });
      // The last tab closed: a blank one takes its place, and the session goes on.
      expect(tabLines(last)).toEqual(['- 0: (current) [](about:blank)']);
      await ok('browser_navigate', { session_id: id, url: `${bed.site.origin}/other` });
      expect(await ok('browser_snapshot', { session_id: id })).toMatch(/heading "Terms"/);
    } finally {
      await callTool(bed.client, 'session_close', { session_id: id });
    }
  });
});

describe('dialogs', () => {
  it('says a dialog opened, refuses other tools until it is answered, and answers confirm and prompt as told', async () => {
    const id = await newSession('/dialogs');
    try {
      const snap = await ok('browser_snapshot', { session_id: id });
      const confirm = await ok('browser_click', {
        session_id: id,
        element: 'Confirm',
        ref: refOf(snap, /button "Confirm"/),
      });
      expect(confirm).toMatch(/A confirm dialog \("Delete it\?"\) opened while browser_click ran/);

      const blocked = await callTool(bed.client, 'browser_snapshot', { session_id: id });
      expect(blocked.isError).toBe(true);
      expect(textOf(blocked)).toMatch(
        /A confirm dialog \("Delete it\?"\) is open and blocks the page: answer it with browser_handle_dialog/,
      );

      expect(await ok('browser_handle_dialog', { session_id: id, accept: false })).toMatch(
        /^Dismissed the confirm dialog/,
      );
      const after = await ok('browser_snapshot', { session_id: id });
      expect(after).toContain('cancelled');

      await ok('browser_click', { session_id: id, element: 'Prompt', ref: refOf(after, /button "Prompt"/) });
      expect(await ok('browser_handle_dialog', { session_id: id, accept: true, promptText: 'Bob' })).toMatch(
        /^Accepted/,
      );
      expect(await ok('browser_snapshot', { session_id: id })).toContain('prompt: Bob');

      const none = await callTool(bed.client, 'browser_handle_dialog', { session_id: id, accept: true });
      expect(none.isError).toBe(true);
      expect(textOf(none)).toMatch(/No dialog is open/);
    } finally {
      await callTool(bed.client, 'session_close', { session_id: id });
    }
  });
});
