import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { CHROMIUM_ARGS } from '../fixtures/chromiumArgs.ts';
import type { TestServer } from './server.ts';

export type ScriptFormat = 'puppeteer' | 'playwright';

export interface ScriptRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** The JSON object the script printed last (its outputs); undefined when it printed none. */
  outputs: Record<string, unknown> | undefined;
}

const NODE_MODULES = path.resolve(import.meta.dirname, '../../node_modules');

/**
 * A folder to run generated scripts in, as someone who ran `npm install puppeteer playwright` has
 * it: `playwright` is the project's own; `puppeteer` is puppeteer-core under that name (the same
 * library without the browser download, which this machine cannot make; BROWSER_PATH names
 * Debian's Chromium instead).
 */
export function scriptFolder(): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-script-'));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(fs.realpathSync(path.join(NODE_MODULES, 'puppeteer-core')), path.join(dir, 'node_modules/puppeteer'));
  fs.symlinkSync(fs.realpathSync(path.join(NODE_MODULES, 'playwright')), path.join(dir, 'node_modules/playwright'));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** GET /api/workflow/{id}/code?format=…: the script, checked to be served as JavaScript. */
export async function fetchScript(server: TestServer, workflowId: string, format: ScriptFormat): Promise<string> {
  const res = await server.api(`/api/workflow/${workflowId}/code?format=${format}`);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  return res.text();
}

/**
 * Run a script with Node in `dir` (one headless Chromium, closed by the script), with `args`, more
 * `env` and `stdin`; at most `timeoutMs` (a hang guard), after which Node is ended and with it its browser.
 */
export function runScript(
  dir: string,
  code: string,
  opts: { args?: string[]; env?: Record<string, string>; stdin?: string; timeoutMs?: number } = {},
): Promise<ScriptRun> {
  const file = path.join(dir, `script-${Date.now()}-${Math.random().toString(16).slice(2)}.js`);
  fs.writeFileSync(file, code);
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [file, ...(opts.args ?? [])],
      {
        cwd: dir,
        timeout: opts.timeoutMs ?? 90_000,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: dir,
          BROWSER_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          BROWSER_ARGS: CHROMIUM_ARGS.join(' '),
          ...opts.env,
        },
      },
      (err, stdout, stderr) => {
        const last = stdout.trim().split('\n').at(-1) ?? '';
        let outputs: Record<string, unknown> | undefined;
        try {
          outputs = JSON.parse(last) as Record<string, unknown>;
        } catch {
          outputs = undefined;
        }
        resolve({ exitCode: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr, outputs });
      },
    );
    child.stdin?.end(opts.stdin ?? '');
  });
}
