import fs from 'node:fs';
import path from 'node:path';
import type { CredentialsService } from '../credentials/service.ts';
import type { Log } from '../log.ts';
import { redactor } from '../credentials/redact.ts';
import { artifactsDirOf } from '../artifacts/paths.ts';
import type { SessionPhases } from '../sessions/lifecycle.ts';
import type { Har } from '../../contract/har.ts';
import { harOf } from './har.ts';
import { NetworkLog } from './networkLog.ts';

/** The HAR's name in the session's artifacts folder. */
const HAR_FILE = 'network.har';

export interface SessionNetworksOptions {
  dataDir: string;
  /** NETWORK_LOG_MAX_BYTES: what one session's record may hold. */
  maxBytes: number;
  credentials: Pick<CredentialsService, 'list' | 'reveal'>;
  log: Log;
}

/**
 * Every live session's network and console record on this node (filled by the page observer,
 * server/sessionEvents/pageObserver.ts), and the HAR each leaves in its artifacts at its end.
 */
export class SessionNetworks {
  private readonly logs = new Map<string, NetworkLog>();

  constructor(private readonly opts: SessionNetworksOptions) {}

  /** A new, empty record for a session going live. */
  open(sessionId: string): NetworkLog {
    const log = new NetworkLog(this.opts.maxBytes);
    this.logs.set(sessionId, log);
    return log;
  }

  /** The live session's record on this node, or undefined. */
  get(sessionId: string): NetworkLog | undefined {
    return this.logs.get(sessionId);
  }

  /** The last redactor made, and the credentials (names and change times) it was made from. */
  private redaction: { made: string; redact: (text: string) => string } | undefined;

  /**
   * Hides every stored credential's value (the rule of server/credentials/redact.ts): what a run typed
   * may come back in a URL, a body or an echoed header. One that does not decrypt is skipped.
   * Asked for every session event, so the values are decrypted again only when the list of
   * credentials (id, name, a value's change time) is not the one the last redactor was made from.
   */
  async redact(): Promise<(text: string) => string> {
    const listed = await this.opts.credentials.list();
    const made = JSON.stringify(listed.map((c) => [c.id, c.name, c.updated_at]));
    if (this.redaction?.made === made) return this.redaction.redact;
    const values = new Map<string, string>();
    for (const { name } of listed) {
      try {
        for (const [n, v] of await this.opts.credentials.reveal([name])) values.set(n, v);
      } catch {
        // Unreadable under this key: startup already warned of it, and it cannot have been typed.
      }
    }
    const redact = redactor(values);
    this.redaction = { made, redact };
    return redact;
  }

  /**
   * A live session's record on this node as HAR now, said to be a snapshot (it goes on recording);
   * undefined when the session is not live here. The end's file is written the same way.
   */
  async snapshot(sessionId: string): Promise<Har | undefined> {
    const log = this.logs.get(sessionId);
    if (!log) return undefined;
    // The redaction first: the list and its dropped count are then read together, with nothing in between.
    const redact = await this.redact();
    const har = await harOf(log.list(), log.dropped, redact);
    const at = new Date().toISOString();
    const taken = `A snapshot of a live session at ${at}: its requests after it are not here`;
    har.log.comment = har.log.comment ? `${taken}. ${har.log.comment}` : taken;
    har.log._snapshotAt = at;
    return har;
  }

  /** The session's HAR file, or undefined when none was written (or retention removed it). */
  harPath(sessionId: string): string | undefined {
    const file = path.join(artifactsDirOf(this.opts.dataDir, sessionId), HAR_FILE);
    try {
      return fs.lstatSync(file).isFile() ? file : undefined;
    } catch {
      return undefined;
    }
  }

  /** beforeEnd, or afterEnd when there was none (a crash): the record is written once and dropped. */
  readonly phases: SessionPhases = {
    beforeEnd: (session) => this.finish(session.id),
    afterEnd: (id) => this.finish(id),
  };

  private async finish(sessionId: string): Promise<void> {
    const log = this.logs.get(sessionId);
    // Taken out first: what the service does in the browser at the end (its storage-state tab) is not recorded.
    this.logs.delete(sessionId);
    if (!log) return;
    try {
      const har = await harOf(log.list(), log.dropped, await this.redact());
      const dir = artifactsDirOf(this.opts.dataDir, sessionId);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const tmp = path.join(dir, `.${HAR_FILE}.tmp`);
      await fs.promises.writeFile(tmp, JSON.stringify(har), { mode: 0o600 });
      await fs.promises.rename(tmp, path.join(dir, HAR_FILE));
    } catch (err) {
      this.opts.log.warn({ err, session_id: sessionId }, "the session's HAR was not written");
    }
  }
}
