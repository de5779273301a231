import type { Browser, BrowserContext, Dialog, Page } from 'playwright-core';
import { ToolError } from './registry.ts';
import { within } from '../domain/within.ts';

/**
 * Tabs tracked per session: a page that opens popups without end (200 `window.open`s) gets the
 * ones past this closed as they open, so the session's browser and the tools stay bounded.
 */
export const TABS_MAX = 50;

/**
 * How long an open dialog waits for browser_handle_dialog before it is answered the runs' way
 * (accepted; a prompt with its default: runs/engine/dialogs.ts). A dialog blocks its page, so an
 * agent that never answers must not leave the session stuck; long enough for a model's turn.
 */
export const DIALOG_FALLBACK_MS = 20_000;

const TEXT_MAX = 500;
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s).replace(/[\r\n]+/g, ' ');

/** A dialog a page opened that nobody has answered yet. */
export interface OpenDialog {
  type: string;
  message: string;
  defaultValue: string;
  /** The tab it blocks. */
  page: Page;
  dialog: Dialog;
  timer: NodeJS.Timeout;
}

/** One tab as browser_tabs lists it. */
export interface TabLine {
  index: number;
  title: string;
  url: string;
  selected: boolean;
}

/**
 * The tabs of one session as the tools see them, over the tools' Playwright connection: every page
 * of every context (popups, `target=_blank`, `window.open` included, as Playwright reports them),
 * in the order they opened, and the selected one, which every tool acts on. A page opening is
 * selected and brought to front (the live view, the recording and the livestream show the screen's
 * front tab); what happened between two calls (a tab opened or closed, a dialog answered for want
 * of an answer) is kept as notices the next tool answer carries.
 */
export class SessionTabs {
  private readonly pages: Page[] = [];
  private selected: Page | undefined;
  private readonly notices: (() => string)[] = [];
  private readonly dialogs: OpenDialog[] = [];
  private readonly dialogListeners = new Set<(d: OpenDialog) => void>();
  /** browser_tabs new is opening this tab itself: it is selected, not announced. */
  private openingOurs = false;
  private refusedSaid = false;

  constructor(
    private readonly browser: Browser,
    /** The selected tab changed: the session's snapshot refs point at another page now. */
    private readonly onSelect: () => void,
  ) {
    for (const context of browser.contexts()) this.watch(context);
    this.selected = this.pages.at(-1);
  }

  private watch(context: BrowserContext): void {
    for (const page of context.pages()) if (!page.isClosed()) this.track(page);
    context.on('page', (page) => this.opened(page));
  }

  private track(page: Page): void {
    this.pages.push(page);
    page.on('close', () => this.closed(page));
    page.on('dialog', (dialog) => this.dialogOpened(page, dialog));
  }

  private opened(page: Page): void {
    if (this.pages.includes(page)) return;
    if (this.pages.length >= TABS_MAX) {
      page.close().catch(() => undefined);
      if (!this.refusedSaid) {
        this.refusedSaid = true;
        this.notices.push(
          () =>
            `The page opened more than ${TABS_MAX} tabs: the ones past ${TABS_MAX} were closed as they opened. Close tabs with browser_tabs to make room.`,
        );
      }
      return;
    }
    this.track(page);
    if (this.openingOurs) return;
    this.select(page);
    this.notices.push(() =>
      page.isClosed()
        ? 'A new tab opened and closed again since.'
        : `A new tab opened and is now selected: tab ${this.pages.indexOf(page)}, ${clip(page.url(), 300)}`,
    );
  }

  private closed(page: Page, quiet = false): void {
    const at = this.pages.indexOf(page);
    if (at < 0) return;
    this.pages.splice(at, 1);
    for (const d of this.dialogs.filter((x) => x.page === page)) this.forgetDialog(d);
    if (this.selected !== page) return;
    const next = this.pages[Math.min(at, this.pages.length - 1)];
    this.selected = undefined;
    if (next) {
      this.select(next);
      if (!quiet)
        this.notices.push(
          () => `The selected tab closed; tab ${this.pages.indexOf(next)} is now selected: ${clip(next.url(), 300)}`,
        );
    }
  }

  private select(page: Page): void {
    if (this.selected === page) return;
    this.selected = page;
    this.onSelect();
    // The screen's front tab is what the live view, the recording and the livestream show.
    page.bringToFront().catch(() => undefined);
  }

  /** The selected tab; when the last one closed, a new blank one, so the session always has a page. */
  async current(): Promise<Page> {
    if (this.selected && !this.selected.isClosed()) return this.selected;
    const last = this.pages.at(-1);
    if (last) {
      this.select(last);
      return last;
    }
    return this.open();
  }

  /** A new tab, selected. */
  async open(): Promise<Page> {
    const context = this.browser.contexts()[0];
    if (!context) throw new ToolError("The session's browser has no window open");
    this.openingOurs = true;
    let page: Page;
    try {
      page = await context.newPage();
    } finally {
      this.openingOurs = false;
    }
    if (!this.pages.includes(page)) this.track(page);
    this.select(page);
    return page;
  }

  async list(): Promise<TabLine[]> {
    return Promise.all(
      this.pages.map(async (page, index) => ({
        index,
        // A tab blocked by a dialog does not answer its title: none then.
        title: this.dialogs.some((d) => d.page === page)
          ? ''
          : await within(page.title(), 2_000, 'late').catch(() => ''),
        url: page.url(),
        selected: page === this.selected,
      })),
    );
  }

  private at(index: number): Page {
    const page = this.pages[index];
    if (!page)
      throw new ToolError(
        `There is no tab ${index}: the session has ${this.pages.length} tab${this.pages.length === 1 ? '' : 's'} (0 to ${this.pages.length - 1}); browser_tabs with action "list" shows them`,
      );
    return page;
  }

  selectIndex(index: number): Page {
    const page = this.at(index);
    this.select(page);
    return page;
  }

  /** Close a tab (the selected one by default); the session keeps a page: the last one is replaced by a blank one. */
  async close(index?: number): Promise<void> {
    const page = index === undefined ? await this.current() : this.at(index);
    // The last tab's window would close with it, and the browser with no window can open no tab:
    // the blank one that takes its place opens first.
    if (this.pages.length === 1) await this.open();
    // Forgotten first, quietly: the caller's answer says it closed.
    this.closed(page, true);
    await page.close().catch(() => undefined);
  }

  /** What happened since the last answer, once. */
  takeNotices(): string[] {
    return this.notices.splice(0).map((n) => n());
  }

  /** The oldest dialog nobody answered, if any. */
  dialog(): OpenDialog | undefined {
    return this.dialogs[0];
  }

  /** Called when a dialog opens; returns the unsubscriber. */
  onDialog(listener: (d: OpenDialog) => void): () => void {
    this.dialogListeners.add(listener);
    return () => this.dialogListeners.delete(listener);
  }

  /** Answer the oldest open dialog. */
  async answer(accept: boolean, promptText?: string): Promise<OpenDialog> {
    const open = this.dialogs[0];
    if (!open) throw new ToolError('No dialog is open: nothing to answer');
    this.forgetDialog(open);
    const text = open.type === 'prompt' ? (promptText ?? open.defaultValue) : undefined;
    await (accept ? open.dialog.accept(text) : open.dialog.dismiss()).catch(() => undefined);
    return open;
  }

  private dialogOpened(page: Page, dialog: Dialog): void {
    const open: OpenDialog = {
      type: dialog.type(),
      message: dialog.message().slice(0, TEXT_MAX),
      defaultValue: dialog.defaultValue(),
      page,
      dialog,
      timer: setTimeout(() => this.fallback(open), DIALOG_FALLBACK_MS),
    };
    this.dialogs.push(open);
    for (const listener of this.dialogListeners) listener(open);
  }

  /** Nobody answered within DIALOG_FALLBACK_MS: answered as a run would, and said so in the next answer. */
  private fallback(open: OpenDialog): void {
    if (!this.dialogs.includes(open)) return;
    this.forgetDialog(open);
    open.dialog.accept(open.type === 'prompt' ? open.defaultValue : undefined).catch(() => undefined);
    this.notices.push(
      () =>
        `${describeDialog(open)} was not answered within ${DIALOG_FALLBACK_MS / 1000} s and was accepted${open.type === 'prompt' ? ' with its default value' : ''}, as runs answer dialogs.`,
    );
  }

  private forgetDialog(open: OpenDialog): void {
    clearTimeout(open.timer);
    const at = this.dialogs.indexOf(open);
    if (at >= 0) this.dialogs.splice(at, 1);
  }

  /** The connection ended: no timer outlives it. */
  dispose(): void {
    for (const d of [...this.dialogs]) this.forgetDialog(d);
    this.dialogListeners.clear();
  }
}

/** `An alert ("Saved")`, for the agent. */
export const describeDialog = (d: Pick<OpenDialog, 'type' | 'message'>) =>
  `A${d.type === 'alert' ? 'n' : ''} ${d.type} dialog${d.message ? ` (${JSON.stringify(clip(d.message, 200))})` : ''}`;
