import fs from 'node:fs';
import path from 'node:path';
import type { CdpClient } from '../sessions/cdp/client.ts';
import type { LiveSession } from '../sessions/types.ts';
import { HostileDir, Refused, TooLarge } from '../sessions/isolation/hostileDir.ts';
import { safeFileName, uniqueName } from './safeNames.ts';

/** Files one session may keep, whatever their size: each is a line in its status and a zip entry. */
export const MAX_FILES_PER_SESSION = 1000;
/** Refused downloads reported (bus event and log) per session. */
const MAX_REFUSALS_REPORTED = 200;

export interface DownloadOutcome {
  filename: string;
  file_size: number;
  ok: boolean;
  reason?: string;
}

interface Download {
  guid: string;
  filename: string;
  /** The browser context of the page that started it, when known (Browser.cancelDownload needs it). */
  browserContextId?: string;
  received: number;
  state: 'inProgress' | 'completed' | 'canceled';
  /** Set when we cancelled it, to say why. */
  cutReason?: string;
}

export interface DownloadTrackerOptions {
  session: LiveSession;
  /** Where kept files go: the session's artifacts folder for files (the service's own). */
  filesDir: string;
  maxBytes: number;
  emit(outcome: DownloadOutcome): void;
  warn(err: unknown, message: string): void;
}

/**
 * Entries the end-of-session sweep looks at: it is for the few downloads whose events were missed,
 * and the page's user could fill the folder with millions of entries to slow the end down.
 */
const SWEEP_MAX_ENTRIES = 200;

/** Chromium's partial files: `<guid>.crdownload` (allowAndName) or `<name>.crdownload`, `Unconfirmed <n>.crdownload`. */
const PARTIAL = /\.crdownload$/;

/**
 * One session's downloads: what the page downloads lands in the session's own downloads folder
 * (the policy forces DevTools' download path there and the profile's own default is there too);
 * this follows each download over a channel of its own (Browser.downloadWillBegin and
 * Browser.downloadProgress), cuts one that takes the session over its byte cap, and copies each
 * finished file out of that hostile folder into the artifacts folder under a safe, unique name.
 * `finish()` (the session's beforeEnd) sweeps the folder once more for files whose events were
 * missed, then closes the channel.
 */
export class DownloadTracker {
  private cdp: CdpClient | undefined;
  private readonly downloads = new Map<string, Download>();
  /** Names in the downloads folder already dealt with (kept or refused), so the end's sweep does not take them twice. */
  private readonly handled = new Set<string>();
  /** Names kept, lower-cased, for uniqueness. */
  private readonly names = new Set<string>();
  /** Page target (= its main frame) → browser context, for cancelling in the right context. */
  private readonly contexts = new Map<string, string>();
  private keptBytes = 0;
  private keptFiles = 0;
  private refusals = 0;
  /** Copies run one after another, so sizes and names are counted without races. */
  private queue: Promise<void> = Promise.resolve();
  private finished = false;
  private readonly uid: number;

  constructor(private readonly opts: DownloadTrackerOptions) {
    this.uid = opts.session.user?.uid ?? process.getuid!();
    fs.mkdirSync(opts.filesDir, { recursive: true, mode: 0o700 });
    // A tracker for a folder that already has files (never today: ids are not reused) counts them.
    for (const name of fs.readdirSync(opts.filesDir)) {
      if (name.startsWith('.')) continue; // a copy cut short by a crash
      const st = fs.lstatSync(path.join(opts.filesDir, name));
      if (!st.isFile()) continue;
      this.names.add(name.toLowerCase());
      this.keptBytes += st.size;
      this.keptFiles++;
    }
  }

  /**
   * Follow downloads on `cdp` (a channel of the caller's, which also turns target discovery on:
   * page targets tell which browser context a download is in). Downloads before this still land
   * in the folder and are swept at the end.
   */
  async start(cdp: CdpClient): Promise<void> {
    this.cdp = cdp;
    cdp.on('Browser.downloadWillBegin', (p) => this.willBegin(p));
    cdp.on('Browser.downloadProgress', (p) => this.progress(p));
    const note = (p: Record<string, unknown>) => {
      const info = p.targetInfo as { targetId: string; type: string; browserContextId?: string } | undefined;
      if (info?.type === 'page' && info.browserContextId) this.contexts.set(info.targetId, info.browserContextId);
    };
    cdp.on('Target.targetCreated', note);
    cdp.on('Target.targetInfoChanged', note);
    cdp.on('Target.targetDestroyed', (p) => this.contexts.delete(p.targetId as string));
    // allowAndName: each file is saved under its guid, so a file is matched to its download
    // exactly, whatever name the page suggested. The policy fixes the folder.
    await cdp.send('Browser.setDownloadBehavior', {
      behavior: 'allowAndName',
      downloadPath: this.opts.session.folders.downloads,
      eventsEnabled: true,
    });
  }

  private willBegin(p: Record<string, unknown>): void {
    if (!this.cdp) return;
    const guid = typeof p.guid === 'string' ? p.guid : undefined;
    if (!guid || this.downloads.has(guid)) return;
    const frameId = typeof p.frameId === 'string' ? p.frameId : '';
    this.downloads.set(guid, {
      guid,
      filename: safeFileName(p.suggestedFilename),
      browserContextId: this.contexts.get(frameId),
      received: 0,
      state: 'inProgress',
    });
  }

  private progress(p: Record<string, unknown>): void {
    if (!this.cdp) return;
    const d = this.downloads.get(p.guid as string);
    if (!d || d.state !== 'inProgress') return;
    // The cancel's own event says 0 bytes: keep the most the download reached.
    if (typeof p.receivedBytes === 'number') d.received = Math.max(d.received, p.receivedBytes);
    if (p.state === 'inProgress') {
      if (this.keptFiles >= MAX_FILES_PER_SESSION)
        return this.cut(d, `the session already kept ${MAX_FILES_PER_SESSION} files`);
      if (this.keptBytes + this.inFlightBytes() > this.opts.maxBytes)
        return this.cut(d, `over the session's download limit of ${this.opts.maxBytes} bytes`);
    } else if (p.state === 'completed') {
      d.state = 'completed';
      const filePath = typeof p.filePath === 'string' ? p.filePath : undefined;
      // Only a file in the session's downloads folder; the browser names it, we never follow its path elsewhere.
      const onDisk =
        filePath && path.dirname(filePath) === this.opts.session.folders.downloads ? path.basename(filePath) : d.guid;
      // A new file, even under a name dealt with before (the browser reuses a name once we removed its file).
      this.handled.delete(onDisk);
      this.enqueue(() => this.keep(onDisk, d.filename));
    } else if (p.state === 'canceled') {
      d.state = 'canceled';
      if (d.cutReason) this.report({ filename: d.filename, file_size: d.received, ok: false, reason: d.cutReason });
      this.enqueue(async () => this.removePartials(d));
    }
  }

  /** Every kept file is reported; refusals up to MAX_REFUSALS_REPORTED, so a page downloading in a loop cannot flood the log. */
  /**
   * Keep a file the service made for the session (browser_pdf_save's PDF) as if the page had
   * downloaded it: the same name rules, file count and byte cap, and the same report. Written as a
   * hidden copy first and renamed, as copyOut does, so a crash leaves no half file listed.
   */
  keepBytes(suggested: string, bytes: Buffer): Promise<DownloadOutcome> {
    return new Promise<DownloadOutcome>((resolve, reject) => {
      this.enqueue(async () => {
        try {
          resolve(this.keepNow(suggested, bytes));
        } catch (err) {
          reject(err as Error);
        }
      });
    });
  }

  private keepNow(suggested: string, bytes: Buffer): DownloadOutcome {
    const refused = (reason: string): DownloadOutcome => {
      const outcome = { filename: safeFileName(suggested), file_size: bytes.length, ok: false, reason };
      this.report(outcome);
      return outcome;
    };
    if (this.keptFiles >= MAX_FILES_PER_SESSION)
      return refused(`the session already kept ${MAX_FILES_PER_SESSION} files`);
    if (bytes.length > this.opts.maxBytes - this.keptBytes)
      return refused(`over the session's download limit of ${this.opts.maxBytes} bytes`);
    const filename = uniqueName(safeFileName(suggested), this.names);
    const tmp = path.join(this.opts.filesDir, `.${filename}.tmp`);
    fs.writeFileSync(tmp, bytes, { flag: 'wx', mode: 0o600 });
    fs.renameSync(tmp, path.join(this.opts.filesDir, filename));
    this.keptBytes += bytes.length;
    this.keptFiles++;
    const outcome = { filename, file_size: bytes.length, ok: true };
    this.report(outcome);
    return outcome;
  }

  private report(outcome: DownloadOutcome): void {
    if (!outcome.ok && ++this.refusals > MAX_REFUSALS_REPORTED) return;
    if (!outcome.ok && this.refusals === MAX_REFUSALS_REPORTED) {
      outcome = { ...outcome, reason: `${outcome.reason ?? 'refused'}; further refused downloads are not reported` };
    }
    this.opts.emit(outcome);
  }

  private inFlightBytes(): number {
    let sum = 0;
    // A download already cut no longer counts, even before the browser confirms the cancel.
    for (const d of this.downloads.values()) if (d.state === 'inProgress' && !d.cutReason) sum += d.received;
    return sum;
  }

  /** Cancel a download in the browser; its partial file goes when the browser says it is cancelled (or at the end). */
  private cut(d: Download, reason: string): void {
    if (d.cutReason) return;
    d.cutReason = reason;
    const params = { guid: d.guid, ...(d.browserContextId ? { browserContextId: d.browserContextId } : {}) };
    this.cdp
      ?.send('Browser.cancelDownload', params)
      .catch((err: unknown) => this.opts.warn(err, 'a download over the limit could not be cancelled'));
  }

  private enqueue(job: () => Promise<void>): void {
    this.queue = this.queue.then(job).catch((err: unknown) => this.opts.warn(err, 'a download was not kept'));
  }

  /** Open the downloads folder as the session's (checked) folder for one job. */
  private withFolder<T>(fn: (dir: HostileDir) => T): T {
    const dir = HostileDir.open(this.opts.session.folders.downloads, this.uid);
    try {
      return fn(dir);
    } finally {
      dir.close();
    }
  }

  /** Copy one finished file out (or refuse it, saying why), then remove it from the session's folder. */
  private async keep(onDisk: string, suggested: string): Promise<void> {
    if (this.handled.has(onDisk)) return;
    this.handled.add(onDisk);
    const dir = HostileDir.open(this.opts.session.folders.downloads, this.uid);
    const refuse = (reason: string, size = 0) => {
      dir.remove(onDisk);
      this.report({ filename: suggested, file_size: size, ok: false, reason });
    };
    try {
      if (this.keptFiles >= MAX_FILES_PER_SESSION)
        return refuse(`the session already kept ${MAX_FILES_PER_SESSION} files`);
      const room = this.opts.maxBytes - this.keptBytes;
      const filename = uniqueName(suggested, this.names);
      const dest = path.join(this.opts.filesDir, filename);
      let size: number;
      try {
        size = await dir.copyOut(onDisk, dest, Math.max(0, room));
      } catch (err) {
        this.names.delete(filename.toLowerCase());
        if (err instanceof TooLarge)
          return refuse(`over the session's download limit of ${this.opts.maxBytes} bytes`, err.size);
        if (err instanceof Refused) return refuse(`not copied: ${err.message}`);
        throw err;
      }
      const now = new Date();
      fs.utimesSync(dest, now, now);
      this.keptBytes += size;
      this.keptFiles++;
      dir.remove(onDisk);
      this.report({ filename, file_size: size, ok: true });
    } finally {
      dir.close();
    }
  }

  /** After a cancel: the partial `<guid>.crdownload` (and `<guid>`, should the browser have renamed it). */
  private removePartials(d: Download): void {
    this.withFolder((dir) => {
      dir.remove(`${d.guid}.crdownload`);
      dir.remove(d.guid);
    });
  }

  /**
   * The session is ending (its browser still up): keep every finished file still in the folder,
   * including those whose events were missed, report downloads cut short by the end, then close.
   */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    await this.queue;
    const byGuid = new Map([...this.downloads.values()].map((d) => [d.guid, d]));
    let names: string[] = [];
    try {
      names = this.withFolder((dir) => dir.list(SWEEP_MAX_ENTRIES)).sort();
    } catch (err) {
      this.opts.warn(err, 'the downloads folder could not be read');
    }
    for (const name of names) {
      if (this.handled.has(name)) continue;
      const known = byGuid.get(name);
      if (PARTIAL.test(name) || known?.state === 'inProgress' || known?.state === 'canceled') continue;
      this.enqueue(() => this.keep(name, known?.filename ?? safeFileName(name)));
    }
    await this.queue;
    for (const d of this.downloads.values()) {
      if (d.state === 'inProgress')
        this.report({
          filename: d.filename,
          file_size: d.received,
          ok: false,
          reason: d.cutReason ?? 'the session ended before the download finished',
        });
    }
    this.close();
  }

  /** Stop acting on events (the caller closes the channel). */
  close(): void {
    this.finished = true;
    this.cdp = undefined;
  }
}
