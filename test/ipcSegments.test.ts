import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canMakeIpcNamespaces, removeSegmentsOf } from '../server/sessions/isolation/ipcNamespace.ts';

/** Ids of the host's shared-memory segments owned by `uid` (/proc/sysvipc/shm: 2nd column id, 8th uid). */
const segmentsOf = (uid: number) =>
  fs
    .readFileSync('/proc/sysvipc/shm', 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length > 7 && Number(f[7]) === uid)
    .map((f) => f[1]);

// Outside SESSION_UIDS, so no session of a parallel test file ever runs as it.
const UID = 299_999;

describe('System V shared memory of session uids', () => {
  it('can make IPC namespaces here (root), so sessions get their own', () => {
    expect(canMakeIpcNamespaces()).toBe(process.getuid?.() === 0);
  });

  it("removes every segment a uid left in the host namespace, and no one else's (the fallback without namespaces)", () => {
    for (let i = 0; i < 2; i++)
      execFileSync('setpriv', [`--reuid=${UID}`, `--regid=${UID}`, '--clear-groups', 'ipcmk', '-M', '4096']);
    const other = execFileSync('setpriv', [
      `--reuid=${UID - 1}`,
      `--regid=${UID - 1}`,
      '--clear-groups',
      'ipcmk',
      '-M',
      '4096',
    ]).toString();
    const otherId = /(\d+)\s*$/.exec(other.trim())![1]!;
    try {
      expect(segmentsOf(UID).length).toBe(2);
      removeSegmentsOf(UID);
      expect(segmentsOf(UID)).toEqual([]);
      expect(segmentsOf(UID - 1)).toEqual([otherId]);
    } finally {
      execFileSync('ipcrm', ['-m', otherId]);
      removeSegmentsOf(UID);
    }
  });
});
