import type { TestServer } from './server.ts';
import { CdpPage, openViewSession, waitForAsync, type ViewSession } from './viewSession.ts';

/**
 * A page that records every mousedown and keydown, with one text field at CSS (200..500, 150..190)
 * and a form whose submit stores the field's value in window.submitted.
 */
export const INPUT_PAGE = `data:text/html,${encodeURIComponent(`<!doctype html><title>input page</title><body style="margin:0;height:4000px;background:#f4f1e8">
<form id=form style="position:fixed;left:200px;top:150px" onsubmit="window.submitted=f.value;return false">
<label for=f style="font:16px sans-serif">Field</label><br><input id=f style="width:300px;height:40px;font:20px monospace"></form>
<script>window.clicks=[];window.keys=[];addEventListener('mousedown',e=>clicks.push([e.clientX,e.clientY,e.button,e.detail]));addEventListener('keydown',e=>keys.push(e.key))</script>`)}`;

/**
 * A context session from the API (its live view is a screencast of its own pages that takes input),
 * its page showing INPUT_PAGE. The server needs room for a shared browser.
 */
export async function openScreencastSession(server: TestServer): Promise<{ session: ViewSession; cdp: CdpPage }> {
  const session = await openViewSession(server, { isolation: 'context' });
  if (server.app.sessions.get(session.id)?.isolation !== 'context') throw new Error('not a context session');
  const cdp = await CdpPage.attach(session.connectUrl);
  await cdp.call('Page.navigate', { url: INPUT_PAGE });
  await waitForAsync('the input page', async () =>
    (await cdp.evaluate('!!document.getElementById("f") && Array.isArray(window.keys)')) ? true : undefined,
  );
  return { session, cdp };
}
