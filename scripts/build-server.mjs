// The server as JavaScript, for the image (Dockerfile) and `npm run build:server`: esbuild bundles
// the project's TypeScript into build/server/, the npm packages left as imports from node_modules,
// so the server starts without compiling anything (no tsx, no esbuild at run time).
//   main.mjs           the server (node build/server/main.mjs)
//   keys.mjs           the API key command (server/cli/keys.ts)
//   engine-thread.mjs  a run's engine thread (server/runs/engine/entry.ts starts it beside main.mjs)
//   migrations/        the store's .sql files, read beside the module as server/store/db.ts reads them
// build/server/ sits two folders below the project as server/http/ does, so the dashboard's
// dist/ (server/http/dashboard.ts: ../../dist) resolves the same from both.
// It is written to a new folder and put in place whole, so a running server never sees part of it.
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'build/server');
const next = `${out}.next-${process.pid}`;

rmSync(next, { recursive: true, force: true });
await build({
  entryPoints: {
    main: path.join(root, 'server/main.ts'),
    keys: path.join(root, 'server/cli/keys.ts'),
    'engine-thread': path.join(root, 'server/runs/engine/thread.ts'),
  },
  outdir: next,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: 'linked',
  logLevel: 'warning',
});
cpSync(path.join(root, 'server/store/migrations'), path.join(next, 'migrations'), { recursive: true });
const old = `${out}.old-${process.pid}`;
if (existsSync(out)) renameSync(out, old);
renameSync(next, out);
rmSync(old, { recursive: true, force: true });
console.log(`build-server: ${path.relative(root, out)}/ (main.mjs, keys.mjs, engine-thread.mjs, migrations/)`);
