// npm start: build the dashboard when there is no build yet, then run the server in this very
// process with the caller's environment (PORT, HOST, DATA_DIR, MODEL_*, ...). One process, no
// child to forward signals to: package.json's start script execs it, so a SIGTERM or SIGINT sent
// to npm (which forwards it) or to this process reaches the server's own shutdown, which ends
// every session and browser before exiting.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { register } from 'tsx/esm/api';

const root = path.resolve(import.meta.dirname, '..');
if (!existsSync(path.join(root, 'dist/index.html'))) {
  const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit', cwd: root });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
register();
await import('../server/main.ts');
