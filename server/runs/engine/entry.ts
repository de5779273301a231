import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Running compiled (scripts/build-server.mjs bundled this module into build/server/main.mjs): the
 * engine thread was bundled beside it then, and esbuild, a build tool, is not installed at run time.
 */
const COMPILED_ENTRY = import.meta.url.endsWith('.ts') ? undefined : new URL('./engine-thread.mjs', import.meta.url);
const THREAD_SOURCE = fileURLToPath(new URL('./thread.ts', import.meta.url));
/** Inside the project, so the packages the engine imports resolve from its node_modules as the server's do. */
const BUNDLE_DIR = fileURLToPath(new URL('../../../node_modules/.cache/browserdesk', import.meta.url));

let built: Promise<URL> | undefined;

/**
 * The engine thread's entry: thread.ts and the project's modules it imports, bundled by esbuild
 * into one ES module (tens of milliseconds, once per process), the packages left as imports. A
 * worker does not inherit the server's TypeScript loader: started from TypeScript, each run's
 * thread registered tsx, whose hooks run on a thread of their own, and loaded its modules through
 * it, about 1 s of CPU per run before the first step (measured: 1.6 s of CPU to load the engine
 * through tsx, 0.6 s from the bundle). The file is named by its content, so servers of different
 * code never share one, and written whole before it is named, so a reader never sees part of it.
 * esbuild's helper process is stopped once the bundle is made: nothing is kept running for it.
 */
export function engineEntry(): Promise<URL> {
  if (COMPILED_ENTRY) return Promise.resolve(COMPILED_ENTRY);
  built ??= bundle().catch((err: unknown) => {
    built = undefined;
    throw err;
  });
  return built;
}

async function bundle(): Promise<URL> {
  const { build, stop } = await import('esbuild');
  const out = await build({
    entryPoints: [THREAD_SOURCE],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    write: false,
    logLevel: 'silent',
  }).finally(() => stop());
  const code = out.outputFiles[0]!.contents;
  const file = path.join(BUNDLE_DIR, `engine-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  const present = await fs.stat(file).then(
    () => true,
    () => false,
  );
  if (!present) {
    await fs.mkdir(BUNDLE_DIR, { recursive: true });
    const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
    await fs.writeFile(partial, code);
    await fs.rename(partial, file);
  }
  return pathToFileURL(file);
}
