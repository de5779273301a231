import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, queryOnce, startPostgres, type TestPostgres } from './helpers/postgres.ts';
import { postgresMode, TEST_DATABASE_URL_FILE, testDatabaseEnv } from './helpers/testDatabase.ts';

// The Postgres test harness itself (test/helpers/postgres.ts, testDatabase.ts): runs in both
// modes, on a cluster of its own, since it stops it.

const query = queryOnce;

/** Alive and not a zombie. */
function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Live processes whose working folder is in `dir` (every Postgres process works in its data folder). */
function processesIn(dir: string): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = fs.readlinkSync(`/proc/${entry}/cwd`);
      if ((cwd === dir || cwd.startsWith(dir + '/')) && isRunning(Number(entry))) out.push(Number(entry));
    } catch {
      // gone, or not ours to look at
    }
  }
  return out;
}

/** The inodes of the sockets `pid` holds open. */
function socketInodes(pid: number): Set<string> {
  const out = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) out.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

/** Inodes of listening TCP sockets (IPv4 and IPv6) in the network namespace of `pid`. */
function tcpListenInodes(pid: number): Set<string> {
  const out = new Set<string>();
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue; // no IPv6
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[3] === '0A' && f[9]) out.add(f[9]); // st 0A: LISTEN; field 9: inode
    }
  }
  return out;
}

describe('startPostgres', () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  it('runs as an unprivileged user, in a temp folder whose socket path fits', () => {
    expect(isRunning(postgres.pid)).toBe(true);
    const uid = Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${postgres.pid}/status`, 'utf8'))![1]);
    expect(uid).not.toBe(0);
    if (process.getuid!() !== 0) expect(uid).toBe(process.getuid!());
    expect(fs.statSync(postgres.dir).uid).toBe(uid);
    const socket = path.join(postgres.dir, '.s.PGSQL.5432');
    expect(fs.statSync(socket).isSocket()).toBe(true);
    expect(socket.length).toBeLessThanOrEqual(107);
  });

  it('gives each createDatabase a database of its own', async () => {
    const a = await createDatabase(postgres.adminUrl);
    const b = await createDatabase(postgres.adminUrl);
    expect(a).not.toBe(b);
    const [rowA] = await query<{ db: string }>(a, 'SELECT current_database() AS db');
    const [rowB] = await query<{ db: string }>(b, 'SELECT current_database() AS db');
    expect(rowA!.db).not.toBe(rowB!.db);
    expect(a).toContain(`/${rowA!.db}?`);

    await query(a, 'CREATE TABLE only_in_a (id integer PRIMARY KEY)');
    await query(a, 'INSERT INTO only_in_a VALUES (1)');
    expect(await query(a, "SELECT to_regclass('public.only_in_a') AS t")).toEqual([{ t: 'only_in_a' }]);
    expect(await query(b, "SELECT to_regclass('public.only_in_a') AS t")).toEqual([{ t: null }]);
    // Both show in the cluster's catalog; neither is the admin database.
    const names = (await query<{ datname: string }>(postgres.adminUrl, 'SELECT datname FROM pg_database')).map(
      (r) => r.datname,
    );
    expect(names).toEqual(expect.arrayContaining([rowA!.db, rowB!.db, 'postgres']));
  });

  it('listens on its UNIX socket only, on no TCP port', async () => {
    expect(await query(postgres.adminUrl, 'SHOW listen_addresses')).toEqual([{ listen_addresses: '' }]);
    const held = socketInodes(postgres.pid);
    expect(held.size).toBeGreaterThan(0);
    const tcp = [...tcpListenInodes(postgres.pid)].filter((inode) => held.has(inode));
    expect(tcp).toEqual([]);
    // The socket it does listen on is the one in its folder.
    const unix = fs
      .readFileSync('/proc/net/unix', 'utf8')
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f[7] === path.join(postgres.dir, '.s.PGSQL.5432'));
    expect(unix.some((f) => held.has(f[6]!))).toBe(true);
  });

  it('stop() ends every process of the cluster and removes its folder', async () => {
    const { pid, dir } = postgres;
    // A client connected keeps a backend; stop must end it too.
    const client = new pg.Client({ connectionString: postgres.adminUrl });
    client.on('error', () => {});
    await client.connect();
    expect(processesIn(dir).length).toBeGreaterThan(1);
    await postgres.stop();
    await client.end().catch(() => {});
    expect(isRunning(pid)).toBe(false);
    expect(processesIn(dir)).toEqual([]);
    expect(fs.existsSync(dir)).toBe(false);
    await postgres.stop(); // twice is fine
  });
});

describe('testDatabaseEnv (what startServer and startChildServer add)', () => {
  const dirs: string[] = [];
  const newDataDir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-test-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  // One test for both passes (neither skips): what the data folder gets depends on the mode.
  it('SQLite mode adds nothing; Postgres mode gives a fresh database per new data folder, the same one on a restart', async () => {
    if (!postgresMode()) {
      const dir = newDataDir();
      expect(await testDatabaseEnv({}, dir)).toEqual({});
      expect(fs.readdirSync(dir)).toEqual([]);
      return;
    }
    const adminUrl = inject('postgresAdminUrl');
    expect(await query(adminUrl, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);

    const first = newDataDir();
    const { DATABASE_URL: a } = await testDatabaseEnv({}, first);
    expect(a).toMatch(/^postgres:\/\//);
    expect(fs.readFileSync(path.join(first, TEST_DATABASE_URL_FILE), 'utf8').trim()).toBe(a);
    await query(a!, 'CREATE TABLE kept (id integer)');
    expect(await testDatabaseEnv({}, first)).toEqual({ DATABASE_URL: a }); // restart on old data

    const { DATABASE_URL: b } = await testDatabaseEnv({}, newDataDir());
    expect(b).not.toBe(a);
    expect(await query(b!, "SELECT to_regclass('public.kept') AS t")).toEqual([{ t: null }]);

    expect(await testDatabaseEnv({ DATABASE_URL: 'postgres://elsewhere/db' }, newDataDir())).toEqual({});
  });
});
