import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The admin URL of the run's shared Postgres (postgresGlobalSetup.ts), in postgres mode only. */
    postgresAdminUrl: string;
  }
}

const run = promisify(execFile);

/** The cluster's superuser (initdb -U), whatever OS user it runs as. */
const SUPERUSER = 'postgres';
/** A UNIX socket path (sun_path) holds 107 bytes and a NUL; the socket is <dir>/.s.PGSQL.5432. */
const MAX_SOCKET_PATH = 107;
const SOCKET_NAME = '.s.PGSQL.5432';

export interface TestPostgres {
  /** postgres://postgres@localhost/postgres?host=<dir>: the superuser on the maintenance database, over the UNIX socket in `dir`. */
  adminUrl: string;
  /** The temp folder: the cluster in data/, its socket, its log (postgres.log). */
  dir: string;
  /** The postmaster's pid. */
  pid: number;
  /** Stop the cluster (immediate: it is thrown away) and remove the folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** The newest Debian install (/usr/lib/postgresql/<version>/bin), else whatever PATH has. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  let versions: string[] = [];
  try {
    versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')));
  } catch {
    // not a Debian install
  }
  versions.sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  if (versions[0]) return path.join(root, versions[0], 'bin');
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))) return dir;
  }
  return null;
}

/**
 * Postgres refuses to run as root: as root, the cluster runs as the `postgres` system user
 * (Debian's package makes it), else `nobody`. Not root: as ourselves (null).
 */
function clusterUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const passwd = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((l) => l.split(':'));
  for (const name of ['postgres', 'nobody']) {
    const entry = passwd.find((f) => f[0] === name);
    if (entry && Number(entry[2]) > 0) return { uid: Number(entry[2]), gid: Number(entry[3]) };
  }
  throw new Error(
    'startPostgres: running as root, and neither a postgres nor a nobody user exists to run the cluster as',
  );
}

/** The folder the temp folder goes in: os.tmpdir(), unless the socket path would be too long there, or another user could not reach it. */
function tempBase(otherUser: boolean): string {
  const base = os.tmpdir();
  const tooLong = path.join(base, 'bd-pg-XXXXXX', SOCKET_NAME).length > MAX_SOCKET_PATH;
  if (tooLong || (otherUser && !reachableByOthers(base))) return '/tmp';
  return base;
}

/** Every folder from / down to `dir` can be entered by any user. */
function reachableByOthers(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    try {
      if ((fs.statSync(d).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    if (d === path.dirname(d)) return true;
  }
}

/**
 * A throwaway Postgres cluster: initdb into a new temp folder (trust auth, UTF8, no fsync), then
 * the postmaster on a UNIX socket in that folder only (listen_addresses='': no TCP port at all),
 * durability off for speed. As root, the cluster runs as an unprivileged user (see clusterUser).
 *
 * The postmaster is started as this process's own child, not through `pg_ctl start`: pg_ctl's
 * postmaster outlives pg_ctl and goes to PID 1, which in some containers never reaps it (a zombie
 * per cluster); ours is reaped here. It is ready when its postmaster.pid says so, as pg_ctl -w waits.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin)
    throw new Error(
      "startPostgres: no Postgres found (/usr/lib/postgresql/*/bin or PATH): run scripts/setup.sh, which installs Debian's postgresql",
    );
  const user = clusterUser();
  const dir = fs.mkdtempSync(path.join(tempBase(user !== null), 'bd-pg-'));
  if (path.join(dir, SOCKET_NAME).length > MAX_SOCKET_PATH)
    throw new Error(`startPostgres: the socket path in ${dir} is longer than a UNIX socket allows`);
  if (user) fs.chownSync(dir, user.uid, user.gid);
  fs.chmodSync(dir, 0o700);
  const dataDir = path.join(dir, 'data');
  const log = path.join(dir, 'postgres.log');
  const logTail = () => {
    try {
      return fs.readFileSync(log, 'utf8').slice(-2000);
    } catch {
      return '';
    }
  };
  // A clean environment: nothing of the caller's (PG* variables, the service's markers) reaches the cluster.
  const opts = {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LC_ALL: 'C', TZ: 'UTC' },
    ...(user ?? {}),
  };
  let postmaster: ChildProcess | null = null;
  let exited: Promise<unknown> = Promise.resolve();
  let spawnError: Error | null = null;
  const running = () =>
    postmaster !== null && spawnError === null && postmaster.exitCode === null && postmaster.signalCode === null;
  let stopped = false;
  const onExit = () => {
    // The test process is going away without stop(): an immediate shutdown, the folder goes.
    if (running()) postmaster!.kill('SIGQUIT');
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', onExit);
    if (running()) {
      try {
        await run(path.join(bin, 'pg_ctl'), ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '30'], opts);
      } catch {
        // pg_ctl could not: the postmaster is killed instead
      }
      const gone = await Promise.race([
        exited.then(() => true),
        new Promise((r) => setTimeout(() => r(false), 10_000)),
      ]);
      if (!gone) {
        postmaster!.kill('SIGKILL');
        await exited;
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', onExit);
  try {
    await run(
      path.join(bin, 'initdb'),
      ['-D', dataDir, '-A', 'trust', '-U', SUPERUSER, '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'],
      opts,
    );
    // Appended, so the file keeps its owner (the cluster's user must read it).
    fs.appendFileSync(
      path.join(dataDir, 'postgresql.conf'),
      [
        '',
        '# Browserdesk tests (test/helpers/postgres.ts): a UNIX socket only, durability off.',
        "listen_addresses = ''",
        `unix_socket_directories = '${dir}'`,
        'max_connections = 200',
        'shared_buffers = 32MB',
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        '',
      ].join('\n'),
    );
    const logFd = fs.openSync(log, 'a', 0o600);
    if (user) fs.fchownSync(logFd, user.uid, user.gid);
    try {
      postmaster = spawn(path.join(bin, 'postgres'), ['-D', dataDir], { ...opts, stdio: ['ignore', logFd, logFd] });
    } finally {
      fs.closeSync(logFd);
    }
    const child = postmaster;
    exited = new Promise((resolve) => {
      child.once('exit', resolve);
      child.once('error', (e) => {
        spawnError = e; // could not start at all (no 'exit' follows)
        resolve(e);
      });
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (!running())
        throw new Error(
          `startPostgres: postgres exited while starting${spawnError ? `: ${(spawnError as Error).message}` : ''}\n${logTail()}`,
        );
      if (postmasterStatus(dataDir, child.pid!) === 'ready') break;
      if (Date.now() > deadline) throw new Error(`startPostgres: postgres not ready after 60 s\n${logTail()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { adminUrl: `postgres://${SUPERUSER}@localhost/postgres?host=${dir}`, dir, pid: postmaster.pid!, stop };
}

/** Line 8 of postmaster.pid (starting, ready, stopping, …), when the file is that postmaster's. */
function postmasterStatus(dataDir: string, pid: number): string | null {
  try {
    const lines = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
    return Number(lines[0]) === pid ? (lines[7] ?? '').trim() || null : null;
  } catch {
    return null;
  }
}

/** `url` with its database replaced by `database`. */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** One statement on its own connection to `url` (a test looking at what the nodes wrote); its rows. */
export async function queryOnce<T extends pg.QueryResultRow>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A new, empty database with a random name (bd_test_…) in the cluster of `adminUrl`; its URL. */
export async function createDatabase(adminUrl: string): Promise<string> {
  const name = `bd_test_${randomBytes(8).toString('hex')}`;
  await queryOnce(adminUrl, `CREATE DATABASE "${name}"`);
  return databaseUrl(adminUrl, name);
}
