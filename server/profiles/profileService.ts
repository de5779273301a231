import { randomUUID } from 'node:crypto';
import { pipeline, Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { Profile, ProfileVersion } from '../../contract/profiles.ts';
import { PROFILE_VERSIONS_KEPT } from '../../contract/profiles.ts';
import type { ProfileUse } from '../../contract/profileUse.ts';
import { StorageState } from '../../contract/sessions.ts';
import { Conflict, Invalid, NotFound, TooLarge } from '../domain/errors.ts';
import type { Bus } from '../events/bus.ts';
import type { Log } from '../log.ts';
import { subKey } from '../secrets/secretKey.ts';
import type { ProfileLease, ProfileOpening } from '../sessions/types.ts';
import type { ProfileKind, ProfilesRepo, VersionRow, VersionSource } from '../store/profiles.ts';
import { packProfile, TooManyEntries, unpackProfile } from './profileArchive.ts';
import { openChunks, ProfileUnreadableError, sealChunks } from './sealedChunks.ts';

export interface ProfileServiceOptions {
  repo: ProfilesRepo;
  master: Buffer;
  /** PROFILE_MAX_BYTES: a version's stored size. */
  maxBytes: number;
  bus: Bus;
  log: Log;
}

/** A blob over the limit, found while it was written. */
class OverLimit extends Error {}

/** Unpacked, a profile may hold this many times its stored limit (it is compressed). */
const UNPACKED_FACTOR = 20;

/**
 * app.profiles: named browser states, sealed at rest, versioned, that sessions start from
 * (open → take) and persisting sessions save back to as they end.
 */
export class ProfileService {
  private readonly key: Buffer;

  constructor(private readonly opts: ProfileServiceOptions) {
    this.key = subKey(opts.master, 'profiles');
  }

  async create(name: string, storageState?: StorageState): Promise<Profile> {
    const { repo } = this.opts;
    if (!(await repo.insert(name))) throw new Conflict(`A profile named ${name} exists already`);
    if (storageState) {
      try {
        const bytes = through([Buffer.from(JSON.stringify(storageState))], zlib.createGzip());
        await this.store(name, 'storage_state', 'import', null, bytes);
      } catch (err) {
        await repo.delete(name);
        if (err instanceof OverLimit)
          throw new TooLarge(`storage_state is over PROFILE_MAX_BYTES (${this.opts.maxBytes} bytes stored)`);
        throw err;
      }
    }
    return this.get(name);
  }

  async exists(name: string): Promise<boolean> {
    return (await this.opts.repo.get(name)) !== undefined;
  }

  async list(): Promise<Profile[]> {
    return Promise.all((await this.opts.repo.list()).map((p) => this.get(p.name)));
  }

  async get(name: string): Promise<Profile> {
    const { repo } = this.opts;
    const row = await repo.get(name);
    if (!row) throw new NotFound(`Profile ${name}`);
    const [versions, uses] = await Promise.all([repo.versionsOf(name), repo.usesOf(name)]);
    return {
      name: row.name,
      size: versions[0]?.size ?? 0,
      version: versions[0]?.version ?? null,
      versions: versions.map(versionView),
      created_at: row.created_at,
      last_used_at: row.last_used_at,
      in_use_by: uses.map((u) => ({ session_id: u.session_id, persist: u.persist === 1, since: u.since })),
    };
  }

  async delete(name: string): Promise<void> {
    const { deleted, usedBy } = await this.opts.repo.delete(name);
    if (usedBy) throw new Conflict(`Profile ${name} is in use by session ${usedBy}: end that session first`);
    if (!deleted) throw new NotFound(`Profile ${name}`);
  }

  /** The older version copied as the newest (same sealed bytes, a new row): nothing is lost. */
  async restore(name: string, version: number): Promise<Profile> {
    const { repo } = this.opts;
    await this.get(name);
    const holder = (await repo.usesOf(name)).find((u) => u.persist === 1);
    if (holder)
      throw new Conflict(`Profile ${name} is being persisted by session ${holder.session_id}: end that session first`);
    const old = await repo.version(name, version);
    if (!old) {
      const kept = (await repo.versionsOf(name)).map((v) => v.version);
      throw new NotFound(
        `Version ${version} of profile ${name}`,
        kept.length ? `it keeps ${kept.join(', ')}` : 'it has no versions',
      );
    }
    await repo.addVersion(
      { ...old, source: 'restore', session_id: null, restored_from: old.version },
      PROFILE_VERSIONS_KEPT,
    );
    return this.get(name);
  }

  /** For a session about to start: NotFound naming the profile, and nothing starts. */
  async open(use: ProfileUse): Promise<ProfileOpening> {
    const { repo } = this.opts;
    if (!(await repo.get(use.name)))
      throw new NotFound({ message: `Profile ${use.name} not found: create it with POST /api/profiles` });
    const version = await repo.latest(use.name);
    return {
      name: use.name,
      coldStart: version?.kind === 'browser',
      take: async (sessionId) => {
        const { heldBy } = await repo.take(use.name, sessionId, use.persist);
        if (heldBy)
          throw new Conflict(
            `Profile ${use.name} is already persisted by session ${heldBy}: one session at a time may save to a profile (start with persist: false to use it read-only)`,
          );
        return this.lease(use, sessionId, version);
      },
    };
  }

  private lease(use: ProfileUse, sessionId: string, version: VersionRow | undefined): ProfileLease {
    const { repo, bus, log } = this.opts;
    let ended = false;
    return {
      name: use.name,
      persist: use.persist,
      seed:
        version?.kind === 'browser'
          ? (dir, user) =>
              this.readable(version, (plain) =>
                unpackProfile(through(plain, zlib.createGunzip()), dir, user, this.opts.maxBytes * UNPACKED_FACTOR),
              )
          : undefined,
      storageState:
        version?.kind === 'storage_state'
          ? () =>
              this.readable(version, async (plain) => {
                const parts: Buffer[] = [];
                for await (const piece of through(plain, zlib.createGunzip())) parts.push(piece);
                return StorageState.parse(JSON.parse(Buffer.concat(parts).toString('utf8')));
              })
          : undefined,
      end: async (outcome) => {
        if (ended) return;
        ended = true;
        try {
          if (use.persist) {
            const said = { session_id: sessionId, profile: use.name };
            if ('unsaved' in outcome) {
              bus.emit('session.profileSaved', { ...said, version: null, size: null, reason: outcome.unsaved });
            } else {
              const saved = await this.saveBrowser(use.name, sessionId, outcome.userDataDir, outcome.owner).catch(
                (err: unknown) => {
                  const reason =
                    err instanceof OverLimit
                      ? `the profile is over PROFILE_MAX_BYTES (${this.opts.maxBytes} bytes stored); the previous version stays`
                      : err instanceof TooManyEntries
                        ? `${err.message}; the previous version stays`
                        : 'it could not be written; the previous version stays';
                  log.warn({ err, session_id: sessionId, profile: use.name }, `profile not saved: ${reason}`);
                  return { reason };
                },
              );
              bus.emit('session.profileSaved', {
                ...said,
                ...('reason' in saved ? { version: null, size: null, reason: saved.reason } : saved),
              });
            }
          }
        } finally {
          await repo.release(use.name, sessionId);
        }
      },
    };
  }

  /** The version's plaintext handed to `use`; a version that does not open is a clear refusal of the start. */
  private async readable<T>(version: VersionRow, use: (plain: AsyncIterable<Buffer>) => Promise<T>): Promise<T> {
    const { repo } = this.opts;
    async function* chunks() {
      for (let seq = 0; ; seq++) {
        const chunk = await repo.chunk(version.blob_id, seq);
        if (!chunk) return;
        yield chunk;
      }
    }
    try {
      return await use(openChunks(this.key, version.blob_id, chunks()));
    } catch (err) {
      const why = err instanceof ProfileUnreadableError ? err.message : 'its contents do not unpack';
      this.opts.log.warn({ err, profile: version.profile, version: version.version }, 'a profile did not open');
      throw new Invalid([
        {
          path: 'profile.name',
          message: `profile ${version.profile} (version ${version.version}) could not be read: ${why}. It was altered or cut short, or the server's secret key changed; restore an earlier version (POST /api/profiles/${version.profile}/restore)`,
        },
      ]);
    }
  }

  private async saveBrowser(name: string, sessionId: string, userDataDir: string, owner: number) {
    const bytes = through(
      packProfile(userDataDir, owner, this.opts.maxBytes * UNPACKED_FACTOR),
      zlib.createGzip({ level: 6 }),
    );
    const row = await this.store(name, 'browser', 'session', sessionId, bytes);
    return {
      version: row?.version ?? null,
      size: row?.size ?? null,
      ...(row ? {} : { reason: 'the profile was deleted' }),
    };
  }

  /** Seal `bytes` chunk by chunk into the store, then add the version; OverLimit (nothing kept) past PROFILE_MAX_BYTES. */
  private async store(
    name: string,
    kind: ProfileKind,
    source: VersionSource,
    sessionId: string | null,
    bytes: AsyncIterable<Buffer>,
  ): Promise<VersionRow | undefined> {
    const { repo, maxBytes } = this.opts;
    const blobId = randomUUID();
    let size = 0;
    let seq = 0;
    try {
      for await (const sealed of sealChunks(this.key, blobId, bytes)) {
        size += sealed.length;
        if (size > maxBytes) throw new OverLimit();
        await repo.addChunk(blobId, name, seq++, sealed);
      }
      return await repo.addVersion(
        { profile: name, blob_id: blobId, kind, size, source, session_id: sessionId, restored_from: null },
        PROFILE_VERSIONS_KEPT,
      );
    } catch (err) {
      await repo.dropBlob(blobId).catch(() => undefined);
      throw err;
    }
  }
}

/**
 * `source` through a zlib transform, as pieces. pipeline(), not pipe(): a source that fails (a chunk
 * that does not open, a file that cannot be read) fails the reader instead of leaving it waiting,
 * and a reader that stops early (over the limit) stops the source.
 */
function through(source: Iterable<Buffer> | AsyncIterable<Buffer>, transform: Transform): AsyncIterable<Buffer> {
  pipeline(Readable.from(source), transform, () => undefined);
  return transform;
}

const versionView = (v: VersionRow): ProfileVersion => ({
  version: v.version,
  size: v.size,
  source: v.source,
  session_id: v.session_id,
  restored_from: v.restored_from,
  created_at: v.created_at,
});
