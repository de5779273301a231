import type { Browser, Handler, HTTPRequest, Page, PageEvents } from 'puppeteer-core';
import type { PageHeartbeat } from './pageHeartbeat.ts';

/** A main-frame navigation that failed during the step: the browser's own error for it, as it happened. */
export interface FailedNavigation {
  url: string;
  /** net::ERR_… */
  errorText: string;
}

/**
 * How long a page may leave a ping unanswered before it counts as not answering. A renderer merely
 * starved of CPU on a busy host answers a ping of `1` well within this; one running a script that
 * never ends does not answer at all. It is also the most a step can end after its timeout.
 */
export const SILENT_AFTER_MS = 2000;

/** How often, once a step is past its timeout, its pages are checked for one that stopped answering. */
const CHECK_EVERY_MS = 250;

/** What a step that was ended because its page stopped answering fails with (stepCauses.ts reads it). */
export const PAGE_SILENT_ERROR = 'Page stopped answering';

/**
 * What the run watches while one step runs, on the pages there are when it starts. A renderer that
 * crashes or a browser that goes away fails the step at once, and a page that stopped answering
 * fails it once the step's timeout has passed: puppeteer's own waits would otherwise go on until
 * the protocol timeout (30 s), or for ever. A main-frame navigation's failure is kept as it happens
 * (the browser's net::ERR_…), so the cause is known without asking the page afterwards.
 */
export class StepWatch {
  /** The last main-frame navigation of the step that failed, if one did. */
  failedNavigation: FailedNavigation | undefined;
  private readonly off: (() => void)[] = [];
  private readonly crashed: Promise<never>;
  private readonly hung: Promise<never>;

  private constructor(
    browser: Browser,
    pages: Page[],
    private readonly beats: PageHeartbeat[],
    timeoutMs: number | null,
  ) {
    this.crashed = new Promise<never>((_, reject) => {
      const onCrash = () => reject(new Error('Page crashed'));
      const onGone = () => reject(new Error('Browser disconnected'));
      for (const page of pages) this.listen(page, 'error', onCrash);
      browser.on('disconnected', onGone);
      this.off.push(() => browser.off('disconnected', onGone));
    });
    this.hung = new Promise<never>((_, reject) => {
      if (timeoutMs === null) return;
      let timer: NodeJS.Timeout;
      const check = () => {
        if (this.silent()) reject(new Error(PAGE_SILENT_ERROR));
        else timer = setTimeout(check, CHECK_EVERY_MS);
      };
      timer = setTimeout(check, timeoutMs);
      this.off.push(() => clearTimeout(timer));
    });
    // Lost the race: nobody awaits them then.
    this.crashed.catch(() => undefined);
    this.hung.catch(() => undefined);
    for (const page of pages) {
      const ours = (req: HTTPRequest) => req.isNavigationRequest() && req.frame() === page.mainFrame();
      this.listen(page, 'requestfailed', (req) => {
        const errorText = req.failure()?.errorText;
        // ERR_ABORTED: a navigation another one replaced, or the page stopped itself; not a cause.
        if (ours(req) && errorText && errorText !== 'net::ERR_ABORTED')
          this.failedNavigation = { url: req.url(), errorText };
      });
    }
    for (const beat of beats) beat.start();
  }

  /**
   * Watch the step about to run on `browser`'s pages, each pinged by its heartbeat; `timeoutMs` is
   * the step's own timeout (null: a step that waits for a person or a model, never taken for hung).
   */
  static async start(
    browser: Browser,
    heartbeatOf: (page: Page) => PageHeartbeat,
    timeoutMs: number | null,
  ): Promise<StepWatch> {
    const pages: Page[] = await browser.pages().catch(() => []);
    return new StepWatch(browser, pages, pages.map(heartbeatOf), timeoutMs);
  }

  /** Run the step, failing it at once on a crash or a lost browser, and past its timeout when a page stopped answering. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return Promise.race([work(), this.crashed, this.hung]);
  }

  /**
   * Whether the step's pages answer: false when one has been silent SILENT_AFTER_MS. One silent for
   * less is given the rest of that time to answer, so this takes at most SILENT_AFTER_MS.
   */
  async answering(): Promise<boolean> {
    const answers = this.beats.map(async (beat) => {
      const silent = beat.silentFor();
      if (silent > 0 && silent < SILENT_AFTER_MS) await beat.nextAnswer(SILENT_AFTER_MS - silent);
      return beat.silentFor() < SILENT_AFTER_MS;
    });
    return (await Promise.all(answers)).every(Boolean);
  }

  /** True when a page of the step has been silent SILENT_AFTER_MS or more, now. */
  silent(): boolean {
    return this.beats.some((beat) => beat.silentFor() >= SILENT_AFTER_MS);
  }

  /** Stop watching: listeners off, heartbeats paused until the next step. */
  stop(): void {
    for (const off of this.off) off();
    for (const beat of this.beats) beat.stop();
  }

  private listen<E extends 'error' | 'requestfailed'>(page: Page, event: E, handler: Handler<PageEvents[E]>): void {
    page.on(event, handler);
    this.off.push(() => page.off(event, handler));
  }
}
