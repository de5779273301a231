import fs from 'node:fs';
import { EgressFilter, removeStaleTables } from './egress.ts';
import { canMakeIpcNamespaces, removeSegmentsOf } from './ipcNamespace.ts';
import { createSessionDirs, removeSessionDirs, sessionDirsOf, type SessionDirs } from './sessionDirs.ts';
import { SessionUsers, type SessionUser } from './sessionUsers.ts';

export interface IsolationOptions {
  dataDir: string;
  uids: { first: number; last: number };
  allowPrivateNetworks: boolean;
}

/** What one browser tree runs as and in. */
export interface TreeSandbox {
  dirs: SessionDirs;
  /** null: the service is not root and the tree runs as the service's own user. */
  user: SessionUser | null;
  /** The tree gets a System V IPC namespace of its own (IpcNamespace). */
  ownIpc: boolean;
}

/**
 * How sessions are kept apart on this host: each tree as its own user (when the service is root),
 * in folders only that user can enter, with its egress filtered by uid. What cannot be had here is
 * listed in `gaps` and said once at start.
 */
export class Isolation {
  readonly gaps: string[] = [];

  private constructor(
    private readonly opts: IsolationOptions,
    private readonly users: SessionUsers | null,
    private readonly egress: EgressFilter | null,
    private readonly ownIpc: boolean,
  ) {}

  static async start(opts: IsolationOptions): Promise<Isolation> {
    const root = process.getuid?.() === 0;
    const gaps: string[] = [];
    const users = root ? new SessionUsers(opts.uids.first, opts.uids.last) : null;
    // Rules of servers that died would filter uids this server is about to hand out.
    if (root) await removeStaleTables();
    if (!root)
      gaps.push(
        "the service is not root, so every session runs as the service's own user: a session's browser can read what this user can read (DATA_DIR included) and the files of other sessions, and sessions share the host's System V IPC namespace (the shared memory of a killed browser is never freed)",
      );
    const ownIpc = root && canMakeIpcNamespaces();
    if (root && !ownIpc)
      gaps.push(
        "IPC namespaces cannot be made here (no CAP_SYS_ADMIN, as in a default container): sessions share the host's System V shared memory, and what a killed browser left is removed only when its uid is next handed out",
      );
    let egress: EgressFilter | null = null;
    if (opts.allowPrivateNetworks) {
      gaps.push(
        'BROWSER_ALLOW_PRIVATE_NETWORKS is set: sessions can reach loopback, link-local and private addresses and every address of this host, this service included',
      );
    } else if (root) {
      const installed = await EgressFilter.install();
      egress = installed.filter;
      if (!egress)
        gaps.push(
          `network egress is not filtered (${installed.problem}): sessions can reach loopback, link-local and private addresses and every address of this host`,
        );
    } else {
      gaps.push(
        'network egress is not filtered (needs root for nftables): sessions can reach loopback, link-local and private addresses and every address of this host',
      );
    }
    const isolation = new Isolation(opts, users, egress, ownIpc);
    isolation.gaps.push(...gaps);
    // DATA_DIR holds the database and the keys: the service's alone.
    fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    fs.chmodSync(opts.dataDir, 0o700);
    return isolation;
  }

  /** A fresh user and folders for a tree; undone by release(). */
  async prepare(id: string): Promise<TreeSandbox> {
    const dirs = sessionDirsOf(this.opts.dataDir, id);
    const user = this.users?.claim() ?? null;
    try {
      // No process runs as a fresh claim: its segments in the host's namespace are leftovers, of
      // this server or of another on the host that could not make namespaces (a container without
      // SYS_ADMIN), and the new session must not see a former one's frames. Cleared either way.
      if (user) removeSegmentsOf(user.uid);
      if (user?.tookOver) await removeStaleTables();
      createSessionDirs(this.opts.dataDir, dirs, user);
      if (user && this.egress) await this.egress.add(user.uid);
    } catch (e) {
      await this.release({ dirs, user });
      throw e;
    }
    return { dirs, user, ownIpc: this.ownIpc && user !== null };
  }

  /** After the tree's processes are gone: folders removed, user and its filter entry given back. */
  async release({ dirs, user }: Pick<TreeSandbox, 'dirs' | 'user'>): Promise<void> {
    await removeSessionDirs(this.opts.dataDir, dirs);
    if (user) {
      // Without a namespace of its own, what the tree's processes left in the host's stays there.
      if (!this.ownIpc) removeSegmentsOf(user.uid);
      await this.egress?.remove(user.uid);
      this.users?.release(user);
    }
  }

  async close(): Promise<void> {
    await this.egress?.uninstall();
  }
}
