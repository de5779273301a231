import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Bus } from '../events/bus.ts';
import type { CrashedSession, SessionsRepo } from '../store/sessions.ts';
import { removeStaleDisplayFiles } from './display/display.ts';
import { removeAllSessionDirs } from './isolation/sessionDirs.ts';
import { killStartedBy, killTree, startedBy } from './browser/processes.ts';

/** Tell the rest of the service (event log, webhooks, lists) of sessions ended as crashed in the store. */
export function announceCrashed(bus: Bus, sessions: CrashedSession[]): void {
  for (const s of sessions) {
    bus.emit('session.ended', {
      session_id: s.id,
      workflow_id: s.workflow_id,
      reason: 'crashed',
      webhook_url: s.webhook_url ?? undefined,
      metadata: s.metadata ?? undefined,
    });
    bus.emit('session.changed', { session_id: s.id });
  }
}

/**
 * Whatever a previous process of this DATA_DIR left is ended: its sessions marked crashed in the
 * store, its processes killed, its session folders and display files removed. Returns the sessions
 * it marked, for the caller to announce once the service is ready to tell of them.
 */
export async function endWhatAPreviousProcessLeft(opts: {
  repo: SessionsRepo;
  dataDir: string;
  uids: Config['SESSION_UIDS'];
}): Promise<CrashedSession[]> {
  const { repo, dataDir } = opts;
  const orphans = await repo.endCrashed({ node: 'self' });
  const recorded = await repo.allProcesses();
  const trees = new Map<string, number[]>();
  for (const p of recorded) {
    // Only a pid that still carries our marker is ours; anything else is a recycled pid.
    if (startedBy(p.pid, dataDir, p.tree_id)) trees.set(p.tree_id, [...(trees.get(p.tree_id) ?? []), p.pid]);
  }
  await Promise.all([...trees].map(([id, pids]) => killTree(dataDir, id, pids)));
  // Processes started but never recorded (the server died mid-start) carry the marker too.
  await killStartedBy(dataDir);
  for (const p of recorded) await repo.dropTree(p.tree_id);
  await removeAllSessionDirs(dataDir);
  removeStaleDisplayFiles(opts.uids);
  // Folders of versions that kept profiles inside DATA_DIR.
  for (const dir of ['profiles', 'run', 'trash']) {
    await fs.promises.rm(path.join(dataDir, dir), { recursive: true, force: true }).catch(() => undefined);
  }
  return orphans;
}
