import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';

/**
 * Reading files out of a folder that belongs to a session's user. That user runs the page's code,
 * so everything in the folder may be hostile: a symlink to /etc/shadow or to the database, a hard
 * link, a FIFO that blocks a reader forever, a file that keeps growing, or the folder itself
 * renamed and replaced while we look. The service runs as root, so the kernel's permission checks
 * do not protect it: these checks do.
 *
 * - The folder is opened once with O_NOFOLLOW|O_DIRECTORY and checked (a folder, owned by the
 *   session's uid); every file is then opened *through that descriptor* (/proc/self/fd/N/name,
 *   which is what openat(2) does), so swapping the folder after the check changes nothing.
 * - A file is opened with O_NOFOLLOW (a symlink fails), O_NONBLOCK (a FIFO does not block) and
 *   O_NOCTTY, then fstat'ed: a regular file, owned by the session's uid, with one link, no larger
 *   than allowed. Only the bytes that fstat reported are copied, from that descriptor.
 * - Names are single components: no "/", no "." or "..", no NUL.
 */

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY, O_WRONLY, O_CREAT, O_EXCL } = fs.constants;

const fsync = promisify(fs.fsync);

export class Refused extends Error {}

/** A file over the size allowed: refused, with its size for the report. */
export class TooLarge extends Refused {
  constructor(readonly size: number) {
    super(`it is ${size} bytes`);
  }
}

/** A name that can only mean an entry of the folder itself. */
export function isPlainComponent(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 255 &&
    name !== '.' &&
    name !== '..' &&
    !name.includes('/') &&
    !name.includes('\0')
  );
}

/** One open, checked folder of a session. Close it when done. */
export class HostileDir {
  private constructor(
    private readonly fd: number,
    private readonly uid: number,
  ) {}

  /** Open `dir` (its last component must not be a symlink) and check it is a folder owned by `uid`. */
  static open(dir: string, uid: number): HostileDir {
    const fd = fs.openSync(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
    try {
      const st = fs.fstatSync(fd);
      if (!st.isDirectory() || st.uid !== uid) throw new Refused(`${dir} is not a folder of the session's user`);
      return new HostileDir(fd, uid);
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
  }

  /** The entry `name` of this very folder, however the folder is renamed meanwhile. */
  private at(name: string): string {
    if (!isPlainComponent(name)) throw new Refused('not a plain file name');
    return `/proc/self/fd/${this.fd}/${name}`;
  }

  /** The folder `name` of this folder, checked as open() checks (never through a link). */
  folder(name: string): HostileDir {
    return HostileDir.open(this.at(name), this.uid);
  }

  /** What the entry `name` is, without following it: a file and a folder are the only kinds read. */
  kind(name: string): 'file' | 'folder' | 'other' {
    try {
      const st = fs.lstatSync(this.at(name));
      return st.isFile() ? 'file' : st.isDirectory() ? 'folder' : 'other';
    } catch {
      return 'other';
    }
  }

  /**
   * The regular file `name`, opened for reading if it is the session user's own, with one link:
   * its descriptor and the size fstat gave (read no more than that). Throws Refused, naming why,
   * for anything else. The caller closes the descriptor.
   */
  openFile(name: string): { fd: number; size: number } {
    let fd: number;
    try {
      fd = fs.openSync(this.at(name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new Refused('it is a symbolic link');
      if (code === 'ENXIO') throw new Refused('it is a socket');
      if (code === 'ENOENT') throw new Refused('it is gone');
      throw err;
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile())
        throw new Refused(
          st.isFIFO() ? 'it is a FIFO' : st.isDirectory() ? 'it is a folder' : 'it is not a regular file',
        );
      if (st.uid !== this.uid) throw new Refused("it is not the session user's own file");
      if (st.nlink !== 1) throw new Refused('it has other hard links');
      return { fd, size: st.size };
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
  }

  /** Names of the folder's first `max` entries (nothing about what they are: copyOut decides that). Read lazily: the folder may hold millions. */
  list(max: number): string[] {
    const dir = fs.opendirSync(`/proc/self/fd/${this.fd}`);
    const names: string[] = [];
    try {
      for (let e = dir.readSync(); e && names.length < max; e = dir.readSync()) names.push(e.name);
    } finally {
      dir.closeSync();
    }
    return names;
  }

  /**
   * Copy the regular file `name` to `dest` (created new, 0600; never over an existing file or a
   * link) if it is the session user's own, with one link, and at most `maxBytes`. Returns its size.
   * The copy is written beside `dest` under a hidden name and linked into place once whole, so a
   * half-copied file is never listed or served. Throws Refused (naming why) for anything else;
   * nothing is written then.
   */
  async copyOut(name: string, dest: string, maxBytes: number): Promise<number> {
    const { fd, size } = this.openFile(name);
    let out: number | undefined;
    const part = path.join(path.dirname(dest), `.${randomUUID()}.part`);
    try {
      const st = { size };
      if (st.size > maxBytes) throw new TooLarge(st.size);
      out = fs.openSync(part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
      // end is inclusive; an empty file copies nothing. Bytes appended after fstat are not copied.
      if (st.size > 0) {
        const from = fs.createReadStream('', { fd, start: 0, end: st.size - 1, autoClose: false });
        const to = fs.createWriteStream('', { fd: out, autoClose: false });
        await pipeline(from, to);
      }
      await fsync(out);
      const written = fs.fstatSync(out).size;
      fs.linkSync(part, dest); // EEXIST rather than replacing a kept file
      return written;
    } finally {
      if (out !== undefined) fs.rmSync(part, { force: true });
      fs.closeSync(fd);
      if (out !== undefined) fs.closeSync(out);
    }
  }

  /** Remove the entry `name` of this folder (a file or a link itself, never what a link points to). */
  remove(name: string): void {
    try {
      fs.unlinkSync(this.at(name));
    } catch {
      // gone already, or a folder: nothing of ours
    }
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
