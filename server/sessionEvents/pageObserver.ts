import type { BusEvents } from '../events/bus.ts';
import type { SessionCdp } from '../sessions/cdp/hub.ts';
import { CdpClient } from '../sessions/cdp/client.ts';
import { consoleLevelOf, type NetworkLog } from '../network/networkLog.ts';
import { NetworkObserver } from '../network/observeNetwork.ts';
import { RequestEventGate } from '../network/requestEvents.ts';

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

/** Targets whose requests and console are recorded: tabs, their out-of-process frames, and workers. */
const RECORDED = new Set(['page', 'iframe', 'worker', 'shared_worker', 'service_worker']);

/**
 * Watch a session's pages over its own hub channel for the session log: main-frame navigations,
 * console messages and uncaught errors, texts truncated, at most MAX_PAGE_MESSAGES messages; and,
 * given the session's `network` record, every request of its tabs and workers (a compact line of
 * each in the log, rate-limited). Runtime is enabled on each page to hear them (as Puppeteer and
 * Playwright do). Returns the stop function.
 */
export async function observePages(
  hub: SessionCdp,
  emit: (e: PageEvent) => void,
  network?: NetworkLog,
): Promise<() => void> {
  const cdp = await CdpClient.open(hub);
  const gate = new RequestEventGate();
  const requests =
    network &&
    new NetworkObserver(cdp, {
      log: network,
      finished: (entry) => {
        if (entry.url.startsWith('blob:')) return;
        const event = gate.pass(entry);
        if (event) emit(event);
      },
    });
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
    const { sessionId, targetInfo } = params as { sessionId: string; targetInfo: { type: string; targetId: string } };
    if (requests && RECORDED.has(targetInfo.type)) {
      requests.enable(sessionId, targetInfo.targetId).catch(ignore);
      // A tab's dedicated workers and out-of-process frames attach under it.
      if (targetInfo.type === 'page')
        cdp
          .send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, sessionId)
          .catch(ignore);
    }
    if (targetInfo.type !== 'page') return;
    cdp.send('Page.enable', {}, sessionId).catch(ignore);
    cdp.send('Runtime.enable', {}, sessionId).catch(ignore);
  });
  cdp.on('Page.frameNavigated', (params) => {
    const { frame } = params as { frame: { parentId?: string; url: string; urlFragment?: string } };
    if (frame.parentId) return;
    network?.navigated();
    emit({ kind: 'navigated', url: cut(frame.url + (frame.urlFragment ?? ''), MAX_URL) });
  });
  cdp.on('Runtime.consoleAPICalled', (params) => {
    const { type, args, stackTrace } = params as {
      type: string;
      args: RemoteObject[];
      stackTrace?: { callFrames: { url: string; lineNumber: number }[] };
    };
    const text = cut(textOf(args), MAX_TEXT);
    const frame = stackTrace?.callFrames[0];
    network?.addConsole({
      level: consoleLevelOf(type),
      text,
      ...(frame?.url ? { url: `${cut(frame.url, MAX_URL)}:${frame.lineNumber + 1}` } : {}),
    });
    message({ kind: 'console', level: type, text });
  });
  cdp.on('Runtime.exceptionThrown', (params) => {
    const { exceptionDetails: d } = params as { exceptionDetails: { text: string; exception?: RemoteObject } };
    const text = cut(d.exception?.description ?? d.text, MAX_TEXT);
    network?.addConsole({ level: 'error', text });
    message({ kind: 'error', text });
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
  return () => cdp.close();
}
