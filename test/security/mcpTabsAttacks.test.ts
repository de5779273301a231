import { describe, expect, it } from 'vitest';
import { DIALOG_FALLBACK_MS, TABS_MAX } from '../../server/agentTools/tabs.ts';
import { callTool, refOf, textOf } from '../helpers/mcpClient.ts';
import { tabLines, tabsBed } from '../helpers/tabsBed.ts';
import { waitForAsync } from '../helpers/wait.ts';

/**
 * Tabs and dialogs as an attacker (or a hostile page) uses them: tab indexes out of range, a ref
 * from another tab or session, a page that opens 200 popups, a dialog nobody answers.
 */
const { bed, newSession, ok, refused } = tabsBed();
const tabCount = (text: string) => tabLines(text).length;

describe('tabs under attack', () => {
  it('refuses tab indexes out of range and select without one; a ref of another session or another tab acts on nothing', async () => {
    const id = await newSession('/opener');
    const other = await newSession('/opener');
    try {
      expect(await refused('browser_tabs', { session_id: id, action: 'select', index: 5 })).toMatch(
        /There is no tab 5: the session has 1 tab \(0 to 0\)/,
      );
      expect(await refused('browser_tabs', { session_id: id, action: 'close', index: 1 })).toMatch(/There is no tab 1/);
      expect(await refused('browser_tabs', { session_id: id, action: 'select' })).toMatch(/select needs index/);
      expect(await refused('browser_tabs', { session_id: id, action: 'list', index: -1 })).toMatch(/Invalid arguments/);
      expect(await refused('browser_tabs', { session_id: id, action: 'open' })).toMatch(/Invalid arguments/);

      const theirs = await ok('browser_snapshot', { session_id: other });
      const ref = refOf(theirs, /button "Log in with Provider"/);
      expect(await refused('browser_click', { session_id: id, element: 'x', ref })).toMatch(
        /another session's snapshot/,
      );

      const mine = await ok('browser_snapshot', { session_id: id });
      await ok('browser_tabs', { session_id: id, action: 'new' });
      expect(
        await refused('browser_click', { session_id: id, element: 'x', ref: refOf(mine, /button "Log in/) }),
      ).toMatch(/another tab was selected/);
      // Nothing was clicked on the first tab: no popup opened.
      expect(tabCount(await ok('browser_tabs', { session_id: id, action: 'list' }))).toBe(2);
    } finally {
      await callTool(bed.client, 'session_close', { session_id: id });
      await callTool(bed.client, 'session_close', { session_id: other });
    }
  });

  it(`keeps at most ${TABS_MAX} tabs of a page that opens 200 popups, says so, and the server goes on`, async () => {
    const id = await newSession('/flood');
    try {
      const snap = await ok('browser_snapshot', { session_id: id });
      // 200 window.open()s in one handler keep the click busy: on a loaded host it may run past the
      // action's 5 s. Either way the popups open, and every answer from then on is kept.
      const said = [
        textOf(
          await callTool(
            bed.client,
            'browser_click',
            {
              session_id: id,
              element: 'Flood',
              ref: refOf(snap, /button "Flood"/),
            },
            180_000,
          ),
        ),
      ];
      await waitForAsync('the popups to open', async () => {
        const text = await ok('browser_tabs', { session_id: id, action: 'list' });
        said.push(text);
        return tabCount(text) === TABS_MAX ? text : undefined;
      });
      // Give the rest of the 200 the time to open and be closed; the count stays at the cap.
      await new Promise((r) => setTimeout(r, 2_000));
      said.push(await ok('browser_tabs', { session_id: id, action: 'list' }));
      expect(tabCount(said.at(-1)!)).toBe(TABS_MAX);
      expect(said.join('\n')).toMatch(
        new RegExp(`The page opened more than ${TABS_MAX} tabs: the ones past ${TABS_MAX} were closed`),
      );
      // The session and the server answer as before.
      expect(await ok('session_status', { session_id: id })).toMatch(/"state":\s*"live"/);
      expect((await bed.server.api('/healthz')).status).toBeLessThan(500);
      expect(await ok('browser_tabs', { session_id: id, action: 'select', index: 0 })).toMatch(
        /^- 0: \(current\) \[Flood\]/m,
      );
    } finally {
      await callTool(bed.client, 'session_close', { session_id: id });
    }
  }, 400_000); // a hang guard: 12 s alone, 86 s once with the whole suite on 2 cores

  it('answers a dialog nobody answers the runs way after the fallback, and says so in the next answer', async () => {
    const id = await newSession('/dialogs');
    try {
      const snap = await ok('browser_snapshot', { session_id: id });
      expect(
        await ok('browser_click', { session_id: id, element: 'Alert', ref: refOf(snap, /button "Alert"/) }),
      ).toMatch(/An alert dialog \("Saved!"\) opened/);
      // Other tools answer at once that it is open, instead of hanging on the blocked page.
      const started = Date.now();
      expect(await refused('browser_navigate', { session_id: id, url: `${bed.site.origin}/other` })).toMatch(
        /is open and blocks/,
      );
      expect(Date.now() - started).toBeLessThan(DIALOG_FALLBACK_MS / 2);

      await new Promise((r) => setTimeout(r, DIALOG_FALLBACK_MS + 1_000));
      const after = await ok('browser_snapshot', { session_id: id });
      expect(after).toContain('alert done');
      expect(after).toMatch(
        /An alert dialog \("Saved!"\) was not answered within 20 s and was accepted, as runs answer dialogs/,
      );
    } finally {
      await callTool(bed.client, 'session_close', { session_id: id });
    }
  }, 90_000);
});
