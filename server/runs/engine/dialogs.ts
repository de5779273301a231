import type { Browser, Dialog, Page } from 'puppeteer-core';
import type { DialogType } from '../../../contract/sessionEvents.ts';
import type { DialogSeen } from '../../domain/runFacts.ts';

const MAX_TEXT = 500;

/**
 * The rule for dialogs during a run: every one is accepted (OK; a prompt with its default value,
 * a beforeunload lets the page go). A dialog blocks the page until answered, so leaving it would
 * fail the step at its timeout with nothing said; and a recorded flow went on past it, which a
 * person who recorded it did by pressing OK. Each one is reported, so a run's log says it happened.
 */
export function answerDialogs(browser: Browser, seen: (dialog: DialogSeen) => void): void {
  const watched = new WeakSet<Page>();
  const watch = (page: Page | null) => {
    if (!page || watched.has(page)) return;
    watched.add(page);
    page.on('dialog', (dialog: Dialog) => {
      const type = dialog.type() as DialogType;
      seen({ type, message: dialog.message().slice(0, MAX_TEXT), answer: 'accepted' });
      // The page may be gone by the time the answer arrives: nothing to answer then.
      dialog.accept(type === 'prompt' ? dialog.defaultValue() : undefined).catch(() => undefined);
    });
  };
  browser.on('targetcreated', (target) => void target.page().then(watch, () => undefined));
  browser.pages().then(
    (pages) => pages.forEach(watch),
    () => undefined,
  );
}

/** "the page opened an alert: 'boo'", for a step's failure. */
export function describeDialogs(dialogs: readonly DialogSeen[]): string {
  return dialogs
    .map(
      (d) =>
        `the page opened ${d.type === 'alert' ? 'an' : 'a'} ${d.type}${d.message ? `: '${d.message.slice(0, 100)}'` : ''} (${d.answer})`,
    )
    .join('; ');
}
