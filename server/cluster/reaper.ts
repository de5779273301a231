import type { Bus } from '../events/bus.ts';
import type { Log } from '../log.ts';
import type { RunService } from '../runs/runService.ts';
import { dataDirOfTree, killTree } from '../sessions/browser/processes.ts';
import { announceCrashed } from '../sessions/crashRecovery.ts';
import type { SessionsRepo } from '../store/sessions.ts';

/**
 * What a dead node held, taken over by whichever node notices first (each statement marks its rows
 * once, so each is told once): its unfinished runs fail with their webhooks, then its sessions
 * read crashed, with their session.ended webhooks and log entries. Its browser trees that outlive
 * it on this host (Xvfb and x11vnc do: Chromium mostly exits with its pipe) are ended here; its
 * files, and trees on other hosts, wait for it to come back (SessionManager.start).
 */
export interface ReaperDeps {
  sessions: SessionsRepo;
  bus: Bus;
  log: Log;
  runs: Pick<RunService, 'failOfDeadNodes'>;
}

export async function reapDeadNodes(deps: ReaperDeps, deadBefore: number): Promise<void> {
  const repo = deps.sessions;
  const runs = await deps.runs.failOfDeadNodes(deadBefore);
  const sessions = await repo.endCrashed({ deadBefore });
  announceCrashed(deps.bus, sessions);
  if (runs || sessions.length)
    deps.log.warn(
      `a node stopped answering: ${sessions.length} of its session(s) marked crashed, ${runs} of its run(s) failed`,
    );
  const trees = await endTreesOnThisHost(await repo.processesOfDeadNodes(deadBefore));
  for (const id of trees) await repo.dropTree(id);
  if (trees.length) deps.log.warn(`ended ${trees.length} browser tree(s) a dead node left on this host`);
}

/** Kill the trees of `rows` whose processes are on this host (their markers name the tree); the ids of those ended. */
async function endTreesOnThisHost(rows: { tree_id: string; pid: number }[]): Promise<string[]> {
  const found = new Map<string, { dataDir: string; pids: number[] }>();
  for (const { tree_id, pid } of rows) {
    const dataDir = dataDirOfTree(pid, tree_id);
    if (!dataDir) continue;
    const tree = found.get(tree_id) ?? { dataDir, pids: [] };
    tree.pids.push(pid);
    found.set(tree_id, tree);
  }
  await Promise.all([...found].map(([id, { dataDir, pids }]) => killTree(dataDir, id, pids)));
  return [...found.keys()];
}
