import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
import { BrowserTree } from '../server/browser/tree.ts';
import { serviceProcesses } from './helpers/processes.ts';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-probe-'));
for (let i = 0; i < 3; i++) {
  let t = performance.now();
  const tree = await BrowserTree.start({ dataDir, id: crypto.randomUUID(), executable: '/usr/bin/chromium' });
  const started = performance.now() - t;
  console.log('procs', serviceProcesses(dataDir).map(p => p.name).join(','));
  t = performance.now();
  await tree.kill();
  console.log('start', started.toFixed(0), 'kill', (performance.now() - t).toFixed(0), 'left', serviceProcesses(dataDir).length);
}
