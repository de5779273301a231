import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Profile } from '../../contract/profiles.ts';
import {
  ProfileArchiveError,
  TooManyEntries,
  packProfile,
  unpackProfile,
} from '../../server/profiles/profileArchive.ts';
import { sessionDirsOf } from '../../server/sessions/isolation/sessionDirs.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';
import { closeLeavingNothing } from '../helpers/teardown.ts';
import { waitForAsync } from '../helpers/wait.ts';

// Attacks on profiles (issue 35): names that try to leave their place, a session's own user
// reaching for the store, links and special files planted in a persisting session's folder to make
// the save carry the host's files, and archives forged to write outside the new session's folder.
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ RECORD_SESSIONS: 'off' });
});
afterAll(() => closeLeavingNothing(server));

const HOST_SECRET = '/etc/shadow';

/** One archive entry as packProfile writes it (type, path length, path, size, bytes), forged by hand. */
function entry(type: 0 | 1 | 2, rel = '', body = Buffer.alloc(0)): Buffer {
  if (type === 0) return Buffer.from([0]);
  const name = Buffer.from(rel);
  const head = Buffer.alloc(3 + name.length + (type === 2 ? 8 : 0));
  head.writeUInt8(type, 0);
  head.writeUInt16BE(name.length, 1);
  name.copy(head, 3);
  if (type === 2) head.writeBigUInt64BE(BigInt(body.length), 3 + name.length);
  return Buffer.concat([head, body]);
}

async function* of(...pieces: Buffer[]): AsyncGenerator<Buffer> {
  yield* pieces;
}

describe('profile names', () => {
  it('a name that spells a path is refused, never found, never a file', async () => {
    for (const spelled of ['..%2F..%2Fetc%2Fpasswd', '%2e%2e', 'a%00b', 'a%2Fb', '%2Fetc%2Fpasswd', 'x'.repeat(65)]) {
      for (const [method, suffix] of [
        ['GET', ''],
        ['DELETE', ''],
        ['POST', '/restore'],
      ] as const) {
        const res = await server.api(`/api/profiles/${spelled}${suffix}`, {
          method,
          ...(method === 'POST' ? { body: '{"version":1}', headers: { 'content-type': 'application/json' } } : {}),
        });
        expect([404, 422], `${method} ${spelled}${suffix}`).toContain(res.status);
      }
    }
    expect(fs.existsSync(path.join(server.dataDir, 'profiles'))).toBe(false);
  });
});

describe("a persisting session's folder, turned against the save", () => {
  it('links and special files planted by the session user are not saved, and the next session gets none of the host', async () => {
    expect((await postJson(server, '/api/profiles', { name: 'planted' })).status).toBe(201);
    const res = await postJson(server, '/api/create_workflow_session', {
      workflow_name: 'planted',
      profile: { name: 'planted', persist: true },
    });
    expect(res.status).toBe(200);
    const { session_id } = (await res.json()) as { session_id: string };
    const live = server.app.sessions.get(session_id)!;
    expect(live.user, 'this attack needs the service to run as root with session users').not.toBeNull();
    const profileDir = sessionDirsOf(server.dataDir, session_id).profile;

    // What a process of the session's user could do in its own folder.
    const asSession = (cmd: string, ...args: string[]) =>
      spawnSync(cmd, args, { uid: live.user!.uid, gid: live.user!.gid, cwd: '/', encoding: 'utf8' });
    const local = path.join(profileDir, 'Default', 'Local Storage');
    expect(asSession('mkdir', '-p', local).status).toBe(0);
    expect(asSession('ln', '-s', HOST_SECRET, path.join(local, 'shadow')).status).toBe(0);
    expect(asSession('ln', '-s', '/etc', path.join(profileDir, 'Default', 'IndexedDB')).status).toBe(0);
    expect(asSession('mkfifo', path.join(local, 'pipe')).status).toBe(0);
    // The store is the service's: the session's user cannot read it.
    const db = asSession('cat', path.join(server.dataDir, 'browserdesk.db'));
    if (server.app.db.engine === 'sqlite') expect(db.stderr).toMatch(/Permission denied/);

    expect((await server.api(`/api/sessions/${session_id}`, { method: 'DELETE' })).status).toBe(200);
    const saved = await waitForAsync('the save', async () => {
      const p = Profile.parse(await (await server.api('/api/profiles/planted')).json());
      return p.version ? p : undefined;
    });
    expect(saved.version).toBe(1);

    const next = await postJson(server, '/api/create_workflow_session', {
      workflow_name: 'planted',
      profile: { name: 'planted' },
    });
    expect(next.status).toBe(200);
    const nextId = ((await next.json()) as { session_id: string }).session_id;
    const nextProfile = sessionDirsOf(server.dataDir, nextId).profile;
    const laidIn = path.join(nextProfile, 'Default', 'Local Storage');
    for (const name of fs.existsSync(laidIn) ? fs.readdirSync(laidIn) : []) {
      expect(fs.lstatSync(path.join(laidIn, name)).isSymbolicLink()).toBe(false);
      expect(name).not.toBe('shadow');
      expect(name).not.toBe('pipe');
    }
    const idb = path.join(nextProfile, 'Default', 'IndexedDB');
    if (fs.existsSync(idb)) expect(fs.lstatSync(idb).isSymbolicLink()).toBe(false);
    expect((await server.api(`/api/sessions/${nextId}`, { method: 'DELETE' })).status).toBe(200);
  });
});

describe('a forged archive', () => {
  it('cannot write outside the new folder, over a file, or past its size bound', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-unpack-'));
    const into = path.join(root, 'profile');
    fs.mkdirSync(into);
    try {
      for (const rel of [
        '../outside',
        'Default/Local Storage/../../../outside',
        '/etc/outside',
        'Default/Preferences',
        'Default/Local Storage//x',
        'Default/Local Storage/./x',
        'Default/Service Worker/CacheStorage/x',
      ]) {
        await expect(
          unpackProfile(of(entry(2, rel, Buffer.from('x')), entry(0)), into, null, 1024),
          rel,
        ).rejects.toBeInstanceOf(ProfileArchiveError);
      }
      expect(fs.readdirSync(root)).toEqual(['profile']);

      // A link the folder already has is never written through.
      fs.mkdirSync(path.join(into, 'Default'));
      fs.symlinkSync(path.join(root, 'target'), path.join(into, 'Default', 'Cookies'));
      await expect(
        unpackProfile(of(entry(2, 'Default/Cookies', Buffer.from('x')), entry(0)), into, null, 1024),
      ).rejects.toThrow(/EEXIST/);
      expect(fs.existsSync(path.join(root, 'target'))).toBe(false);

      await expect(
        unpackProfile(of(entry(2, 'Default/Local Storage/big', Buffer.alloc(2048)), entry(0)), into, null, 1024),
      ).rejects.toThrow(/more than 1024 bytes/);
      await expect(unpackProfile(of(entry(1, 'Default/IndexedDB')), into, null, 1024)).rejects.toThrow(/ends early/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('packs only the kept parts of a folder, and unpacks them as they were', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-pack-'));
    try {
      const from = path.join(root, 'from');
      fs.mkdirSync(path.join(from, 'Default', 'Local Storage', 'leveldb'), { recursive: true });
      fs.mkdirSync(path.join(from, 'Default', 'Cache'), { recursive: true });
      fs.writeFileSync(path.join(from, 'Default', 'Local Storage', 'leveldb', '000003.log'), 'kept');
      fs.writeFileSync(path.join(from, 'Default', 'Cookies'), 'cookies');
      fs.writeFileSync(path.join(from, 'Default', 'Cache', 'data_0'), 'a cache');
      fs.writeFileSync(path.join(from, 'Default', 'History'), 'history');
      const to = path.join(root, 'to');
      fs.mkdirSync(to);
      await unpackProfile(packProfile(from, process.getuid!(), 1 << 20), to, null, 1 << 20);
      expect(fs.readFileSync(path.join(to, 'Default', 'Local Storage', 'leveldb', '000003.log'), 'utf8')).toBe('kept');
      expect(fs.readFileSync(path.join(to, 'Default', 'Cookies'), 'utf8')).toBe('cookies');
      expect(fs.existsSync(path.join(to, 'Default', 'Cache'))).toBe(false);
      expect(fs.existsSync(path.join(to, 'Default', 'History'))).toBe(false);

      // A sparse file is as long to read as its size says, however well it compresses: bounded.
      fs.writeFileSync(path.join(from, 'Default', 'Local Storage', 'sparse'), '');
      fs.truncateSync(path.join(from, 'Default', 'Local Storage', 'sparse'), 64 * 2 ** 30);
      const reading = async () => {
        for await (const _piece of packProfile(from, process.getuid!(), 1 << 20));
      };
      await expect(reading()).rejects.toBeInstanceOf(TooManyEntries);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
