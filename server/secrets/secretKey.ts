import { hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The server's master secret: 32 random bytes from which every key the service needs is derived
 * (credentials at rest, signed URLs, ...) with subKey, so one secret is backed up, not several.
 * It comes from BROWSERDESK_SECRET_KEY, else from DATA_DIR/secret-key, written once on first start.
 */
export const SECRET_KEY_BYTES = 32;
export const SECRET_KEY_FILE = 'secret-key';

/** A key we cannot use: the server must not start (the message says what to do). */
export class SecretKeyError extends Error {}

export const SECRET_KEY_FORMAT =
  'must be 32 bytes written as 64 hex characters or as base64 (e.g. the output of `openssl rand -hex 32`)';

/** 64 hex characters, or base64 / base64url (padding optional) of exactly 32 bytes; null for anything else. */
export function parseSecretKey(text: string): Buffer | null {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(t) && !/^[A-Za-z0-9_-]{43}=?$/.test(t)) return null;
  const std = t.replace(/=$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const key = Buffer.from(std, 'base64');
  // Re-encoding must give the same text: the last character carries 2 bits that are not part of
  // the 32 bytes, and a text where they are set is not the encoding of any key.
  return key.length === SECRET_KEY_BYTES && key.toString('base64').replace(/=$/, '') === std ? key : null;
}

interface Log {
  warn(msg: string): void;
}

/**
 * The master key: from `fromEnv` (BROWSERDESK_SECRET_KEY) when given, else from DATA_DIR/secret-key,
 * created on first start (32 random bytes, mode 0600, written whole or not at all). A key file of
 * the wrong size or kind stops the start: guessing would make every stored secret unreadable.
 * A key file that others can read has its mode put back to 0600, with a warning.
 */
export function loadSecretKey(dataDir: string, fromEnv: string | undefined, log?: Log): Buffer {
  const file = path.join(dataDir, SECRET_KEY_FILE);
  if (fromEnv !== undefined) {
    const key = parseSecretKey(fromEnv);
    if (!key) throw new SecretKeyError(`BROWSERDESK_SECRET_KEY ${SECRET_KEY_FORMAT}`);
    if (fs.existsSync(file))
      log?.warn(
        `BROWSERDESK_SECRET_KEY is set, so the key in ${file} is not used; secrets stored under that key cannot be read with this one`,
      );
    return key;
  }
  return readKeyFile(file, log) ?? createKeyFile(dataDir, file, log);
}

/** HKDF-SHA256 of the master key (empty salt, `purpose` as info): a 32-byte key for one use only. */
export function subKey(master: Buffer, purpose: string): Buffer {
  if (master.length !== SECRET_KEY_BYTES) throw new Error(`the master key must be ${SECRET_KEY_BYTES} bytes`);
  if (!purpose) throw new Error('subKey needs a purpose');
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), purpose, 32));
}

function readKeyFile(file: string, log?: Log): Buffer | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SecretKeyError(
      `Cannot read the secret key file ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  if (!stat.isFile()) throw new SecretKeyError(`${file} is not a file: it must hold the server's 32-byte secret key`);
  if (stat.size !== SECRET_KEY_BYTES) {
    throw new SecretKeyError(
      `${file} holds ${stat.size} bytes, not ${SECRET_KEY_BYTES}: it is not a key this server wrote. Put back the file from your backup ` +
        '(stored credentials cannot be read without it), or move it away to start with a new key (stored credentials are then lost)',
    );
  }
  if (stat.mode & 0o077) {
    try {
      fs.chmodSync(file, 0o600);
      log?.warn(
        `${file} was readable by other users (mode ${(stat.mode & 0o777).toString(8)}); its mode is now 0600. Whoever read it can decrypt stored credentials: consider a new key`,
      );
    } catch {
      log?.warn(
        `${file} is readable by other users (mode ${(stat.mode & 0o777).toString(8)}) and its mode could not be changed: make it 0600`,
      );
    }
  }
  const key = fs.readFileSync(file);
  if (key.length !== SECRET_KEY_BYTES) throw new SecretKeyError(`${file} changed while it was read: start again`);
  return key;
}

function createKeyFile(dataDir: string, file: string, log?: Log): Buffer {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(SECRET_KEY_BYTES);
  // Written to a private temporary file and linked into place: a crash never leaves a short key
  // file, and a second server starting on the same folder at the same moment keeps the first key.
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.fchmodSync(fd, 0o600);
    fs.writeSync(fd, key);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readKeyFile(file, log)!;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  syncDir(dataDir);
  log?.warn(
    `Created the secret key in ${file} (readable by this user only). Back it up with the database: without it, stored credentials cannot be read`,
  );
  return key;
}

/** Make the new directory entry durable: losing the key after credentials were stored under it loses them. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some file systems cannot fsync a directory; the file itself is synced.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
