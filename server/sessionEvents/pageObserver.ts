import type { BusEvents } from '../events/bus.ts';
import type { CdpHub } from '../sessions/cdp/hub.ts';
import { CdpClient } from '../sessions/cdp/client.ts';

type PageEvent = BusEvents['session.page'] extends infer E
  ? E extends { session_id: string }
    ? Omit<E, 'session_id'>
    : never
  : never;

const MAX_TEXT = 1000;
const MAX_URL = 2000;
/** Console messages and errors kept per session: a page logging in a loop must not fill the store. */
export const MAX_PAGE_MESSAGES = 2000;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

interface RemoteObject {
  type: string;
  value?: unknown;
  description?: string;
}

function textOf(args: RemoteObject[]): string {
  return args
    .map((a) =>
      a.value !== undefined
        ? typeof a.value === 'string'
          ? a.value
          : JSON.stringify(a.value)
        : (a.description ?? a.type),
    )
    .join(' ');
}

/**
 * Watch a session's pages over its own hub channel for the session log: main-frame navigations,
 * console messages and uncaught errors, texts truncated, at most MAX_PAGE_MESSAGES messages. Runtime
 * is enabled on each page to hear them (as Puppeteer and Playwright do). Returns the stop function.
 */
export async function observePages(hub: CdpHub, emit: (e: PageEvent) => void): Promise<() => void> {
  const cdp = await CdpClient.open(hub);
  let messages = 0;
  const message = (e: PageEvent) => {
    messages++;
    if (messages < MAX_PAGE_MESSAGES) emit(e);
    else if (messages === MAX_PAGE_MESSAGES)
      emit({
        kind: 'console',
        level: 'warning',
        text: `More than ${MAX_PAGE_MESSAGES} console messages and errors: the rest are not logged`,
      });
  };
  const ignore = () => undefined;
  cdp.on('Target.attachedToTarget', (params) => {
    const { sessionId, targetInfo } = params as { sessionId: string; targetInfo: { type: string } };
    if (targetInfo.type !== 'page') return;
    cdp.send('Page.enable', {}, sessionId).catch(ignore);
    cdp.send('Runtime.enable', {}, sessionId).catch(ignore);
  });
  cdp.on('Page.frameNavigated', (params) => {
    const { frame } = params as { frame: { parentId?: string; url: string; urlFragment?: string } };
    if (!frame.parentId) emit({ kind: 'navigated', url: cut(frame.url + (frame.urlFragment ?? ''), MAX_URL) });
  });
  cdp.on('Runtime.consoleAPICalled', (params) => {
    const { type, args } = params as { type: string; args: RemoteObject[] };
    message({ kind: 'console', level: type, text: cut(textOf(args), MAX_TEXT) });
  });
  cdp.on('Runtime.exceptionThrown', (params) => {
    const { exceptionDetails: d } = params as { exceptionDetails: { text: string; exception?: RemoteObject } };
    message({ kind: 'error', text: cut(d.exception?.description ?? d.text, MAX_TEXT) });
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
  return () => cdp.close();
}
