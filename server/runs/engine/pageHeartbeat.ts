import type { CDPSession, HTTPRequest, Page } from 'puppeteer-core';

/** The pause between one answer and the next ping, while a step runs. */
const PING_EVERY_MS = 500;

/**
 * Pings one page's renderer (Runtime.evaluate of `1` on a CDP session of its own) while a step
 * runs, so that when the step fails how long the page has been silent is already known: no probe
 * after the failure, with a timeout a busy host exceeds (stepWatch.ts reads it). The session is
 * attached once, while the page still answers, and kept for the run; a page whose attach has not
 * been answered counts as silent since it was asked.
 *
 * Chromium holds a page's protocol commands while its main frame navigates, until the new
 * document (or the error page) commits: a ping then goes unanswered however healthy the renderer,
 * for as long as the site takes to answer, or, on a busy host, the error page to commit. So the
 * page's silence counts from the moment its navigation got an answer or failed, and not at all
 * while the site has not answered yet: that is a slow site, not a page that stopped answering.
 */
export class PageHeartbeat {
  private session: CDPSession | undefined;
  /** When the oldest question still unanswered was asked (the attach, then a ping); null while none is. */
  private sentAt: number | null = performance.now();
  private inFlight = false;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly waiting = new Set<() => void>();
  /** The main frame's navigation waits for its site's answer (response headers) or failure. */
  private navigating = false;
  /** When the main frame's last navigation got its answer or failed. */
  private settledAt = 0;

  constructor(page: Page) {
    const ours = (req: HTTPRequest) => req.isNavigationRequest() && req.frame() === page.mainFrame();
    const settled = (req: HTTPRequest) => {
      if (!ours(req)) return;
      this.navigating = false;
      this.settledAt = performance.now();
    };
    page.on('request', (req) => {
      if (ours(req)) this.navigating = true;
    });
    page.on('response', (res) => settled(res.request()));
    page.on('requestfailed', settled);
    page.createCDPSession().then(
      (session) => {
        this.session = session;
        this.answered();
        this.ping();
      },
      // A page closed before it could be attached is gone, not hung.
      () => this.answered(),
    );
  }

  /** Ping until stop(), starting now. */
  start(): void {
    this.running = true;
    this.ping();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * How long the page has left a question unanswered, now, counted from its navigation's answer
   * when that came later; 0 when it has answered them all, or its navigation waits for the site.
   */
  silentFor(): number {
    if (this.sentAt === null || this.navigating) return 0;
    return performance.now() - Math.max(this.sentAt, this.settledAt);
  }

  /** Resolves when the page next answers, or after `ms`. */
  nextAnswer(ms: number): Promise<void> {
    let wake = () => undefined as void;
    let timer: NodeJS.Timeout | undefined;
    return new Promise<void>((resolve) => {
      wake = resolve;
      this.waiting.add(wake);
      timer = setTimeout(resolve, ms);
    }).finally(() => {
      clearTimeout(timer);
      this.waiting.delete(wake);
    });
  }

  private ping(): void {
    if (!this.running || !this.session || this.inFlight) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.inFlight = true;
    this.sentAt ??= performance.now();
    this.session.send('Runtime.evaluate', { expression: '1' }).then(
      () => {
        this.inFlight = false;
        this.answered();
      },
      (err: unknown) => {
        this.inFlight = false;
        // The protocol's own timeout is no answer: still silent since then, asked again. Any other
        // error is one (the page closed, or navigated away meanwhile).
        if (/timed out/i.test(err instanceof Error ? err.message : '')) this.ping();
        else this.answered();
      },
    );
  }

  private answered(): void {
    this.sentAt = null;
    for (const wake of this.waiting) wake();
    clearTimeout(this.timer);
    if (this.running) this.timer = setTimeout(() => this.ping(), PING_EVERY_MS);
  }
}

/** One heartbeat per page for the whole run, made when a step first watches the page. */
export function heartbeats(): (page: Page) => PageHeartbeat {
  const made = new WeakMap<Page, PageHeartbeat>();
  return (page) => made.get(page) ?? made.set(page, new PageHeartbeat(page)).get(page)!;
}
