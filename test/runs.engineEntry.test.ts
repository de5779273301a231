import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { engineEntry } from '../server/runs/engine/entry.ts';
import { waitForAsync } from './helpers/wait.ts';

// A run's engine thread starts from one bundled ES module, without a TypeScript loader: the
// project's modules inlined, the packages imported from node_modules as the server imports them.
it('bundles the engine once per process into a module named by its content, with the packages left as imports', async () => {
  // Another file in this worker may have started esbuild (tsx does, for a child server's script).
  const esbuildBefore = childrenNamed('esbuild');
  const [first, again] = await Promise.all([engineEntry(), engineEntry()]);
  expect(again.href).toBe(first.href);
  const file = fileURLToPath(first);
  expect(file).toMatch(/\/node_modules\/\.cache\/browserdesk\/engine-[0-9a-f]{16}\.mjs$/);
  const code = fs.readFileSync(file, 'utf8');
  expect(code).toMatch(/^import puppeteer from "puppeteer-core";$/m);
  expect(code).toMatch(/from "@puppeteer\/replay";$/m);
  // Neither TypeScript nor a loader for it: a .ts import left in would need tsx again.
  expect(code).not.toMatch(/from "[^"]*\.ts"|tsx/);
  // The engine's own code is inside (the thread's message loop), not imported from a source file.
  expect(code).toContain('msg.t === "cdpClosed"');
  // esbuild's helper process is not kept once the bundle is made.
  // Stopped, it may take a moment to exit and be reaped; kept, it would be there for good.
  const left = () => childrenNamed('esbuild').filter((pid) => !esbuildBefore.includes(pid));
  await waitForAsync('esbuild to exit', () => (left().length === 0 ? true : undefined), 10_000).catch(() => undefined);
  expect(left()).toEqual([]);
});

/** This process's children with that command name, from /proc. */
function childrenNamed(name: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').trim();
        const [, comm, rest] = /^\d+ \((.*)\) (.*)$/.exec(stat) ?? [];
        return comm === name && Number(rest?.split(' ')[1]) === process.pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}
