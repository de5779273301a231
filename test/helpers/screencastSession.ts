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
 * A real session (from the API) whose live view is its screencast with input, as a context
 * session's is: its VNC is withdrawn from the session the server holds (vncSocket null, what a
 * context session has), so GET /s/:id/vnc serves the screencast page and stream. The session's
 * page shows INPUT_PAGE.
 */
export async function openScreencastSession(server: TestServer): Promise<{ session: ViewSession; cdp: CdpPage }> {
  const session = await openViewSession(server);
  server.app.sessions.get(session.id)!.vncSocket = null;
  const cdp = await CdpPage.attach(session.connectUrl);
  await cdp.call('Page.navigate', { url: INPUT_PAGE });
  await waitForAsync('the input page', async () =>
    (await cdp.evaluate('!!document.getElementById("f") && Array.isArray(window.keys)')) ? true : undefined,
  );
  return { session, cdp };
}
