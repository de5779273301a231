import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SessionUsers } from '../server/sessions/isolation/sessionUsers.ts';

// Claims in a folder of this file's own (SessionUsers keeps them under TMPDIR), on a range outside
// SESSION_UIDS: the servers of parallel test files neither see nor take part in these races.
const realTmp = process.env.TMPDIR;
process.env.TMPDIR = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-uids-test-'));
const FIRST = 299_990;
const LAST = 299_992;
const claims = path.join(os.tmpdir(), 'browserdesk-uids');
const lock = path.join(claims, 'takeover.lock');

/** The pid of a process that has exited: what a claim of a server that died holds. */
const deadPid = () => spawnSync('true').pid!;

function leaveClaim(uid: number, pid: number): void {
  fs.mkdirSync(path.join(claims, String(uid)), { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(claims, String(uid), 'pid'), String(pid));
}

afterEach(() => {
  for (const entry of fs.readdirSync(claims)) fs.rmSync(path.join(claims, entry), { recursive: true, force: true });
});
afterAll(() => {
  fs.rmSync(os.tmpdir(), { recursive: true, force: true });
  if (realTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = realTmp;
});

describe('session uids, host-wide', () => {
  it('takes over the claim of a server that died, and never one a live server holds', () => {
    const users = new SessionUsers(FIRST, LAST);
    leaveClaim(FIRST, process.pid);
    leaveClaim(FIRST + 1, deadPid());
    const user = users.claim();
    expect(user).toEqual({ uid: FIRST + 1, gid: FIRST + 1, tookOver: true });
    expect(fs.readFileSync(path.join(claims, String(FIRST + 1), 'pid'), 'utf8')).toBe(String(process.pid));
    expect(users.claim()).toEqual({ uid: FIRST + 2, gid: FIRST + 2 });
    expect(() => users.claim()).toThrow(/in use/);
  });

  it('skips a dead claim while another server takes one over, rather than both taking it', () => {
    const users = new SessionUsers(FIRST, LAST);
    leaveClaim(FIRST, deadPid());
    // A live server (this test's own process will do) holds the takeover lock.
    fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
    expect(users.claim().uid).toBe(FIRST + 1);
    fs.rmSync(lock);
    expect(users.claim()).toEqual({ uid: FIRST, gid: FIRST, tookOver: true });
  });

  it('does not take a claim whose owner changed since it was read dead (another server took it over first)', () => {
    const users = new SessionUsers(FIRST, LAST);
    const dead = deadPid();
    leaveClaim(FIRST, process.pid); // already taken over by a live server
    const takeOver = (users as unknown as { takeOver(dir: string, deadOwner: number): boolean }).takeOver.bind(users);
    expect(takeOver(path.join(claims, String(FIRST)), dead)).toBe(false);
    expect(fs.readFileSync(path.join(claims, String(FIRST), 'pid'), 'utf8')).toBe(String(process.pid));
  });

  it('clears a takeover lock left by a server that died holding it', () => {
    const users = new SessionUsers(FIRST, LAST);
    leaveClaim(FIRST, deadPid());
    fs.writeFileSync(lock, String(deadPid()), { flag: 'wx' });
    expect(users.claim().uid).toBe(FIRST + 1);
    expect(fs.existsSync(lock)).toBe(false);
    expect(users.claim()).toEqual({ uid: FIRST, gid: FIRST, tookOver: true });
  });
});
