import fs from 'node:fs';
import path from 'node:path';
import type { Log } from '../log.ts';
import { Conflict } from '../domain/errors.ts';
import { StorageState } from '../../contract/sessions.ts';
import { CdpClient } from '../sessions/cdp/client.ts';
import type { SessionPhases } from '../sessions/lifecycle.ts';
import type { LiveSession, SessionManager } from '../sessions/types.ts';
import type { Bus } from '../events/bus.ts';
import type { SessionRow } from '../store/sessions.ts';
import { DownloadTracker, type DownloadOutcome } from './downloads.ts';
import { artifactsDirOf } from './paths.ts';
import { chooseExpired, heldUnder } from './retention.ts';
import { isSafeFileName } from './safeNames.ts';
import { OriginTracker, readStorageState } from './storageOut.ts';
import { open, seal } from '../secrets/aead.ts';

/** A file a session downloaded and kept, before its signed URL is added. */
export interface KeptFile {
  filename: string;
  file_size: number;
  download_timestamp: string;
}

export interface ArtifactsOptions {
  dataDir: string;
  maxDownloadBytes: number;
  maxBytes: number;
  ttlDays: number;
  sessions: SessionManager;
  /** The session's record, to tell live from ended for retention. */
  sessionRow(id: string): Promise<SessionRow | undefined>;
  bus: Bus;
  log: Log;
  /** Seals the storage state at rest (a key derived from the master key for this use alone). */
  storageKey: Buffer;
}

/** Of the 5 s a beforeEnd hook has, what reading localStorage may take (cookies and writing the file come around it). */
const STORAGE_READ_MS = 3_500;
/** A session that ended this recently keeps its artifacts whatever the limits: its recording may still be being finished. */
export const RETENTION_GRACE_MS = 60_000;
/** The files of one session: the service's own folder, inside DATA_DIR. */
const FILES = 'files';
/** Sealed (AES-256-GCM, the session's id as associated data): it holds the session's cookies. */
const STORAGE_STATE = 'storage-state.sealed';

interface Watch {
  cdp?: CdpClient;
  downloads: DownloadTracker;
  origins?: OriginTracker;
}

/**
 * app.artifacts: what a session leaves behind under DATA_DIR/artifacts/<session>/ — the files its
 * pages downloaded (files/) and its storage state at the end (storage-state.json); the screen
 * recording sits beside them. Fed by the session lifecycle hooks, bounded by retention.
 */
export class Artifacts {
  private readonly watches = new Map<string, Watch>();
  readonly root: string;

  constructor(private readonly opts: ArtifactsOptions) {
    this.root = path.join(opts.dataDir, 'artifacts');
  }

  dirOf(sessionId: string): string {
    return artifactsDirOf(this.opts.dataDir, sessionId);
  }

  /** Its part in each session's lifecycle (services.ts subscribes it). */
  readonly phases: SessionPhases = {
    live: (session) => this.watch(session),
    beforeEnd: (session) => this.collect(session),
    afterEnd: (id) => this.unwatch(id),
  };

  private async watch(session: LiveSession): Promise<void> {
    fs.mkdirSync(this.dirOf(session.id), { recursive: true, mode: 0o700 });
    const downloads = new DownloadTracker({
      session,
      filesDir: path.join(this.dirOf(session.id), FILES),
      maxBytes: this.opts.maxDownloadBytes,
      emit: (o) => {
        this.opts.bus.emit('session.download', { session_id: session.id, ...o });
        if (!o.ok)
          this.opts.log.warn(
            { session_id: session.id, filename: o.filename, reason: o.reason },
            'a download was not kept',
          );
      },
      warn: (err, message) => this.opts.log.warn({ err, session_id: session.id }, message),
    });
    const watch: Watch = { downloads };
    // Registered before the CDP set-up: a failure there still leaves the end-of-session sweep.
    this.watches.set(session.id, watch);
    const cdp = await CdpClient.open(session.hub);
    watch.cdp = cdp;
    watch.origins = new OriginTracker(cdp);
    // Together: right after its start the browser answers slowly, and each waits on its own answer.
    await Promise.all([downloads.start(cdp), cdp.send('Target.setDiscoverTargets', { discover: true })]);
  }

  /** beforeEnd: the browser is still up. Keep the last downloads and write the storage state, in parallel. */
  private async collect(session: LiveSession): Promise<void> {
    const watch = this.watches.get(session.id);
    const storage = async () => {
      const cdp = watch?.cdp && !watch.cdp.closed ? watch.cdp : await CdpClient.open(session.hub);
      try {
        const state = await readStorageState(cdp, watch?.origins, Date.now() + STORAGE_READ_MS);
        this.writeStorageState(session.id, state);
      } finally {
        if (cdp !== watch?.cdp) cdp.close();
      }
    };
    const results = await Promise.allSettled([watch?.downloads.finish(), storage()]);
    for (const r of results)
      if (r.status === 'rejected')
        this.opts.log.warn({ err: r.reason, session_id: session.id }, 'a session artifact was not kept');
    watch?.cdp?.close();
  }

  private writeStorageState(sessionId: string, state: StorageState): void {
    const dir = this.dirOf(sessionId);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = path.join(dir, `.${STORAGE_STATE}.tmp`);
    fs.writeFileSync(tmp, seal(this.opts.storageKey, Buffer.from(sessionId), Buffer.from(JSON.stringify(state))), {
      mode: 0o600,
    });
    fs.renameSync(tmp, path.join(dir, STORAGE_STATE));
  }

  private unwatch(sessionId: string): void {
    const watch = this.watches.get(sessionId);
    this.watches.delete(sessionId);
    watch?.downloads.close();
    watch?.cdp?.close();
  }

  /** Keep bytes the service made for a live session among its downloads (browser_pdf_save), under the downloads' limits. */
  async keepFile(sessionId: string, suggested: string, bytes: Buffer): Promise<DownloadOutcome> {
    const watch = this.watches.get(sessionId);
    if (!watch) throw new Conflict(`Session ${sessionId} is not live on this server: its files cannot be added to`);
    return watch.downloads.keepBytes(suggested, bytes);
  }

  /** The files a session kept, oldest first. */
  files(sessionId: string): KeptFile[] {
    const dir = path.join(this.dirOf(sessionId), FILES);
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return [];
    }
    const files: (KeptFile & { at: number })[] = [];
    for (const filename of names) {
      // Hidden names are copies still being written (hostileDir.ts), never a kept file.
      if (filename.startsWith('.')) continue;
      try {
        const st = fs.lstatSync(path.join(dir, filename));
        if (st.isFile())
          files.push({ filename, file_size: st.size, download_timestamp: st.mtime.toISOString(), at: st.mtimeMs });
      } catch {
        // removed meanwhile
      }
    }
    return files.sort((a, b) => a.at - b.at || a.filename.localeCompare(b.filename)).map(({ at: _at, ...f }) => f);
  }

  /** The path of one kept file, or undefined: only a name the session kept, never one that could leave the folder. */
  fileOf(sessionId: string, filename: string): string | undefined {
    if (!isSafeFileName(filename)) return undefined;
    const file = path.join(this.dirOf(sessionId), FILES, filename);
    try {
      return fs.lstatSync(file).isFile() ? file : undefined;
    } catch {
      return undefined;
    }
  }

  /** The storage state the session left, or undefined when none was kept (it never went live, or its artifacts are gone). */
  storageState(sessionId: string): StorageState | undefined {
    let text: string;
    try {
      const sealed = fs.readFileSync(path.join(this.dirOf(sessionId), STORAGE_STATE));
      text = open(this.opts.storageKey, Buffer.from(sessionId), sealed).toString('utf8');
    } catch {
      // None kept, or one that does not open (altered, or sealed under another key): none to give.
      return undefined;
    }
    const parsed = StorageState.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  }

  /** True while the session is starting or live: its artifacts are still being written. */
  async isLive(sessionId: string): Promise<boolean> {
    if (this.opts.sessions.get(sessionId)) return true;
    const row = await this.opts.sessionRow(sessionId);
    return row !== undefined && row.state !== 'ended';
  }

  /** Remove one session's artifacts at once. Returns whether there was anything. */
  async remove(sessionId: string): Promise<boolean> {
    const dir = this.dirOf(sessionId);
    const existed = fs.existsSync(dir);
    await fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 3 });
    return existed;
  }

  /** Retention: remove what is over ARTIFACTS_TTL_DAYS, then the oldest until under ARTIFACTS_MAX_BYTES. Returns the sessions removed. */
  async sweep(now = Date.now()): Promise<string[]> {
    const held = await heldUnder(this.root, async (id) => {
      if (await this.isLive(id)) return null;
      const ended = (await this.opts.sessionRow(id))?.ended_at;
      return ended ? new Date(ended) : undefined;
    });
    const gone = chooseExpired(
      held,
      { maxBytes: this.opts.maxBytes, ttlMs: this.opts.ttlDays * 86_400_000, graceMs: RETENTION_GRACE_MS },
      now,
    );
    for (const id of gone) {
      // Checked again: a session may have gone live under this id since the listing (never today: ids are new).
      if (!(await this.isLive(id))) await this.remove(id);
    }
    if (gone.length)
      this.opts.log.info({ sessions: gone.length }, 'removed session artifacts over the retention limits');
    return gone;
  }
}
