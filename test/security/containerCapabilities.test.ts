import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunStatusResponse } from '../../contract/runs.ts';
import { startChildServer, keyedCalls, type ChildServer } from '../helpers/childServer.ts';
import { serviceProcesses } from '../helpers/processes.ts';
import { waitForAsync } from '../helpers/wait.ts';

// The deploy files drop every capability but eight (Dockerfile, deploy/compose.yaml, the k8s
// manifest). Here the server runs as root with only those eight in its bounding set (setpriv, as a
// container runtime would leave it), and must still isolate sessions: each as its own uid, its
// egress filtered by nftables. Were a capability it uses missing, a session would run unisolated
// (the start log says what is lost) or not at all.
// Starts Chromium: run it under `flock /tmp/heavy.lock`.
const CAPABILITIES = ['chown', 'dac_override', 'fowner', 'setuid', 'setgid', 'kill', 'net_admin', 'sys_nice'];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-caps-'));
const apiKey = `test_${randomBytes(16).toString('hex')}`;
const { api, post } = keyedCalls(apiKey);
let node: ChildServer | undefined;

afterAll(async () => {
  await node?.stop();
  for (const p of serviceProcesses(dataDir)) process.kill(p.pid, 'SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
});

describe('the service with only the capabilities the deploy files give it', () => {
  it('runs a flow with the session as its own uid and its egress filtered', async () => {
    node = await startChildServer({
      dataDir,
      apiKey,
      // Egress filtered, as deployed (the test default allows private networks).
      env: { BROWSER_ALLOW_PRIVATE_NETWORKS: '0', LOG_LEVEL: 'info' },
      wrap: ['setpriv', '--bounding-set', ['-all', ...CAPABILITIES.map((c) => `+${c}`)].join(','), '--'],
    });
    const status = fs.readFileSync(`/proc/${node.process.pid}/status`, 'utf8');
    // CapBnd of exactly those eight: CHOWN 0, DAC_OVERRIDE 1, FOWNER 3, KILL 5, SETGID 6, SETUID 7, NET_ADMIN 12, SYS_NICE 23.
    expect(/^CapBnd:\s+(\S+)$/m.exec(status)?.[1]).toBe('00000000008010eb');

    const created = await post(node, '/api/workflows', {
      name: 'caps',
      flow: {
        title: 'caps',
        steps: [
          // The element comes late: the run lasts long enough to see its browser's uid.
          {
            type: 'navigate',
            url: `data:text/html,<script>setTimeout(()=>document.body.innerHTML='<p id=x>hi</p>',3000)</script>`,
          },
          { type: 'waitForElement', selectors: [['#x']], timeout: 60_000 },
        ],
      },
    });
    const { id: workflowId } = (await created.json()) as { id: string };
    const run = await post(node, '/api/run_workflow', { workflow_id: workflowId });
    const { session_id: sessionId } = (await run.json()) as { session_id: string };
    // Its browser runs as a session uid (SESSION_UIDS), never as root.
    const uids = await waitForAsync(
      "the run's browser",
      () => {
        const found = serviceProcesses(dataDir)
          .filter((p) => p.name === 'chromium')
          .map((p) => uidOf(p.pid))
          .filter((uid): uid is number => uid !== undefined);
        return found.length > 0 ? found : undefined;
      },
      60_000,
    );
    for (const uid of uids) expect(uid).toBeGreaterThanOrEqual(200_000);
    const done = await waitForAsync(
      'the run to end',
      async () => {
        const s = RunStatusResponse.parse(
          await (await api(node!, `/api/run_workflow_status?session_id=${sessionId}`)).json(),
        );
        return s.status === 'running' || s.status === 'queued' ? undefined : s;
      },
      90_000,
    );
    expect(done.status).toBe('succeeded');

    // Nothing of the isolation was lost but the IPC namespace, which needs SYS_ADMIN (not given).
    const said = node.output();
    expect(said).not.toMatch(/not root|egress is not filtered/);
    expect(said).toMatch(/IPC namespaces cannot be made here/);
  }, 180_000);
});

/** A live process's real uid; undefined once it is gone. */
function uidOf(pid: number): number | undefined {
  try {
    return Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}
