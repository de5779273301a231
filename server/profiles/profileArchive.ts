import { closeSync, constants as fsc } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { HostileDir } from '../sessions/isolation/hostileDir.ts';
import type { SessionUser } from '../sessions/isolation/sessionUsers.ts';

/**
 * The parts of a Chromium user-data folder that keep a login across a restart of the browser, as
 * paths under it. Cookies (HttpOnly and partitioned ones included: they are rows of the one
 * database), Local Storage, IndexedDB, the storage buckets' and quota's WebStorage, the origin
 * private file system, and service workers' registrations and scripts. Left out: every cache (HTTP,
 * code, GPU, shader, and service workers' CacheStorage, which a site refills), Session Storage (it
 * dies with the tab by definition), history, preferences (the launch writes its own) and the
 * password manager (never used by automation).
 */
const KEPT = [
  'Default/Cookies',
  'Default/Cookies-journal',
  'Default/Network/Cookies',
  'Default/Network/Cookies-journal',
  'Default/Local Storage',
  'Default/IndexedDB',
  'Default/WebStorage',
  'Default/File System',
  'Default/Service Worker',
];
const LEFT_OUT = new Set(['Default/Service Worker/CacheStorage']);

const END = 0;
const DIR = 1;
const FILE = 2;
/** Bytes of a file read or written at once: a big IndexedDB blob never sits whole in memory. */
const PIECE = 256 * 1024;

/** Only a path the archive may hold: under a kept part, no `..`, nothing absolute, nothing odd. */
function isKeptPath(rel: string): boolean {
  if (!rel || rel.length > 1024 || rel.includes('\\') || rel.includes('\0') || path.isAbsolute(rel)) return false;
  const parts = rel.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return false;
  const inKept = KEPT.some((k) => rel === k || rel.startsWith(`${k}/`));
  const inLeftOut = [...LEFT_OUT].some((k) => rel === k || rel.startsWith(`${k}/`));
  return inKept && !inLeftOut;
}

function header(type: number, rel: string, size = 0): Buffer {
  const name = Buffer.from(rel, 'utf8');
  const h = Buffer.alloc(1 + 2 + name.length + (type === FILE ? 8 : 0));
  h.writeUInt8(type, 0);
  h.writeUInt16BE(name.length, 1);
  name.copy(h, 3);
  if (type === FILE) h.writeBigUInt64BE(BigInt(size), 3 + name.length);
  return h;
}

/** A folder of the profile that leads to a kept part (Default, Default/Network), but is not one. */
const leadsToKept = (rel: string) => KEPT.some((k) => k.startsWith(`${rel}/`));
/** Entries packed at most: a session that fills its folder with empty files cannot hold a save up for long. */
const MAX_ENTRIES = 100_000;

/** More entries, or more bytes before compression, than a save takes. */
export class TooManyEntries extends Error {}

/**
 * The kept parts of `userDataDir` as one byte stream: for each folder and regular file, a header
 * (type, path, size) and the file's bytes; then an end mark. The folder belongs to the session's
 * user (`uid`), who may have planted anything in it, so it is read as a hostile folder
 * (sessions/isolation/hostileDir.ts): every folder and file is opened through its parent's
 * descriptor, never through a link, and must be the user's own; a file must be regular with one
 * link, and only the bytes fstat gave are read. Anything else is left out. Over MAX_ENTRIES
 * entries or `maxBytes` of files, the save stops (TooManyEntries).
 */
export async function* packProfile(userDataDir: string, uid: number, maxBytes: number): AsyncGenerator<Buffer> {
  let entries = 0;
  let bytes = 0;
  async function* walk(dir: HostileDir, rel: string): AsyncGenerator<Buffer> {
    for (const name of dir.list(MAX_ENTRIES + 1).sort()) {
      const childRel = rel ? `${rel}/${name}` : name;
      const kept = isKeptPath(childRel);
      if (!kept && !leadsToKept(childRel)) continue;
      if (++entries > MAX_ENTRIES) throw new TooManyEntries(`the profile folder holds over ${MAX_ENTRIES} entries`);
      const kind = dir.kind(name);
      if (kind === 'folder') {
        let sub: HostileDir;
        try {
          sub = dir.folder(name);
        } catch {
          continue; // swapped for a link, or not the user's own: left out
        }
        try {
          if (kept) yield header(DIR, childRel);
          yield* walk(sub, childRel);
        } finally {
          sub.close();
        }
      } else if (kind === 'file' && kept) {
        let opened: { fd: number; size: number };
        try {
          opened = dir.openFile(name);
        } catch {
          continue;
        }
        // A sparse file compresses to nothing but takes as long to read as its size says.
        bytes += opened.size;
        if (bytes > maxBytes) {
          closeSync(opened.fd);
          throw new TooManyEntries(`the profile folder holds more than ${maxBytes} bytes before compression`);
        }
        const handle = await fs.open(`/proc/self/fd/${opened.fd}`, fsc.O_RDONLY).finally(() => closeSync(opened.fd));
        try {
          yield header(FILE, childRel, opened.size);
          let at = 0;
          while (at < opened.size) {
            const piece = Buffer.alloc(Math.min(PIECE, opened.size - at));
            const { bytesRead } = await handle.read(piece, 0, piece.length, at);
            // Shrunk meanwhile: zeros, so that the stream stays as its header said.
            if (bytesRead < piece.length) piece.fill(0, bytesRead);
            at += piece.length;
            yield piece;
          }
        } finally {
          await handle.close();
        }
      }
    }
  }
  const root = HostileDir.open(userDataDir, uid);
  try {
    yield* walk(root, '');
  } finally {
    root.close();
  }
  yield Buffer.from([END]);
}

/** A profile archive that is not one (it authenticated, so only a bug or a changed format gets here). */
export class ProfileArchiveError extends Error {}

/** Reads exact lengths out of a stream of pieces. */
class Reader {
  private buffered: Buffer[] = [];
  private length = 0;
  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async fill(n: number): Promise<void> {
    while (this.length < n) {
      const next = await this.source.next();
      if (next.done) throw new ProfileArchiveError('the profile archive ends early');
      this.buffered.push(next.value);
      this.length += next.value.length;
    }
  }

  async take(n: number): Promise<Buffer> {
    await this.fill(n);
    const all = Buffer.concat(this.buffered);
    this.buffered = [all.subarray(n)];
    this.length = all.length - n;
    return all.subarray(0, n);
  }

  /** `n` bytes in pieces of at most PIECE, handed to `each` as they come. */
  async pass(n: number, each: (piece: Buffer) => Promise<void>): Promise<void> {
    let left = n;
    while (left > 0) {
      const piece = await this.take(Math.min(PIECE, left));
      left -= piece.length;
      await each(piece);
    }
  }
}

/**
 * Write an archive made by packProfile into `userDataDir` (the new session's, still empty), owned
 * by the session's user. Every path is checked again; files are created new (never through a link,
 * never over an existing file). `maxBytes` bounds what is written.
 */
export async function unpackProfile(
  archive: AsyncIterable<Buffer>,
  userDataDir: string,
  user: SessionUser | null,
  maxBytes: number,
): Promise<void> {
  const reader = new Reader(archive[Symbol.asyncIterator]());
  const own = async (abs: string) => {
    if (user) await fs.chown(abs, user.uid, user.gid);
  };
  const ensureParents = async (rel: string) => {
    let at = userDataDir;
    for (const part of rel.split('/').slice(0, -1)) {
      at = path.join(at, part);
      const made = await fs.mkdir(at, { mode: 0o700 }).then(
        () => true,
        (err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw err;
          return false;
        },
      );
      if (made) await own(at);
      else if (!(await fs.lstat(at)).isDirectory()) throw new ProfileArchiveError(`${rel} crosses a non-folder`);
    }
  };
  let written = 0;
  for (;;) {
    const type = (await reader.take(1)).readUInt8(0);
    if (type === END) return;
    if (type !== DIR && type !== FILE) throw new ProfileArchiveError(`unknown entry type ${type}`);
    const rel = (await reader.take((await reader.take(2)).readUInt16BE(0))).toString('utf8');
    if (!isKeptPath(rel)) throw new ProfileArchiveError(`the archive names a path it may not: ${JSON.stringify(rel)}`);
    await ensureParents(rel);
    const abs = path.join(userDataDir, rel);
    if (type === DIR) {
      await fs.mkdir(abs, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
      await own(abs);
      continue;
    }
    const size = Number((await reader.take(8)).readBigUInt64BE(0));
    written += size;
    if (written > maxBytes) throw new ProfileArchiveError(`the profile holds more than ${maxBytes} bytes unpacked`);
    const handle = await fs.open(abs, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW, 0o600);
    try {
      await reader.pass(size, async (piece) => void (await handle.write(piece)));
      if (user) await handle.chown(user.uid, user.gid);
    } finally {
      await handle.close();
    }
  }
}
