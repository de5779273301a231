import type { Browser, CDPSession, Protocol } from 'puppeteer-core';
import type { DialogType } from '../../../contract/sessionEvents.ts';
import type { DialogSeen } from '../../domain/runFacts.ts';

const MAX_TEXT = 500;
/** Dialogs a run tells its session's log; it answers the rest too. */
export const MAX_DIALOGS_LOGGED = 100;
/** contract/sessionEvents.ts's DialogType, without loading zod into the run's thread for it. */
const DIALOG_TYPES: ReadonlySet<string> = new Set<DialogType>(['alert', 'confirm', 'prompt', 'beforeunload']);

/**
 * The rule for dialogs during a run: every one is accepted (OK; a prompt with its default value,
 * a beforeunload lets the page go). A dialog blocks the page until answered, so leaving it would
 * fail the step at its timeout with nothing said; and a recorded flow went on past it, which a
 * person who recorded it did by pressing OK. Each one is reported, so a run's log says it happened.
 *
 * Answered over the run's own CDP session, which attaches to every tab and holds a new one
 * (waitForDebuggerOnStart) until it listens: Puppeteer's `dialog` event is told on a Page object
 * that a new tab (a popup) gets only after its script ran, so a popup's alert on load was told to
 * no one and held the tab until the step's timeout ("the page stopped answering").
 */
export async function answerDialogs(browser: Browser, seen: (dialog: DialogSeen) => void): Promise<void> {
  const root = await browser.target().createCDPSession();
  const ignore = () => undefined;
  root.on('Target.attachedToTarget', (e: Protocol.Target.AttachedToTargetEvent) => {
    const tab = root.connection()?.session(e.sessionId);
    if (!tab) return;
    const listening = e.targetInfo.type === 'page' ? listen(tab, seen).catch(ignore) : Promise.resolve();
    // Every target the session holds goes on, listened to or not.
    if (e.waitingForDebugger) void listening.then(() => tab.send('Runtime.runIfWaitingForDebugger')).catch(ignore);
  });
  await root.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
}

/** Accept each dialog `tab` opens, and tell it. Resolves once it listens. */
async function listen(tab: CDPSession, seen: (dialog: DialogSeen) => void): Promise<void> {
  tab.on('Page.javascriptDialogOpening', (e: Protocol.Page.JavascriptDialogOpeningEvent) => {
    const type = (DIALOG_TYPES.has(e.type) ? e.type : 'alert') as DialogType;
    seen({ type, message: e.message.slice(0, MAX_TEXT), answer: 'accepted' });
    // The tab may be gone by the time the answer arrives: nothing to answer then.
    tab
      .send('Page.handleJavaScriptDialog', {
        accept: true,
        ...(type === 'prompt' ? { promptText: e.defaultPrompt ?? '' } : {}),
      })
      .catch(() => undefined);
  });
  await tab.send('Page.enable');
}

/** Distinct dialogs a step's failure names; the rest are counted. */
const MAX_DESCRIBED = 3;

/**
 * "the page opened an alert: 'boo' (accepted)", for a step's failure: the same dialog again is
 * counted ("… 417 times"), so a page opening alerts in a loop reads as one line.
 */
export function describeDialogs(dialogs: readonly DialogSeen[]): string {
  const counted = new Map<string, { dialog: DialogSeen; times: number }>();
  for (const d of dialogs) {
    const key = JSON.stringify([d.type, d.message, d.answer]);
    const seen = counted.get(key);
    if (seen) seen.times++;
    else counted.set(key, { dialog: d, times: 1 });
  }
  const groups = [...counted.values()];
  const described = groups.slice(0, MAX_DESCRIBED).map(({ dialog: d, times }) => {
    const text = d.message ? `: '${d.message.slice(0, 100)}'` : '';
    return `the page opened ${d.type === 'alert' ? 'an' : 'a'} ${d.type}${text} (${d.answer})${times > 1 ? ` ${times} times` : ''}`;
  });
  const more = groups.length - described.length;
  return [...described, ...(more ? [`${more} other dialog${more > 1 ? 's' : ''}`] : [])].join('; ');
}
