import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Simplex's own CLI (simplex/cli in its Python client), read from SIMPLEX_PYTHON_DIR or
 * ../shared/vendor/simplex-python beside the clone, as test/simplex.python.test.ts finds the client.
 */
const SHARED_CLIENT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../shared/vendor/simplex-python',
);
export const SIMPLEX_PYTHON_DIR =
  process.env.SIMPLEX_PYTHON_DIR ?? (fs.existsSync(SHARED_CLIENT) ? SHARED_CLIENT : undefined);

/** A Python with what the CLI imports (scripts/setup.sh installs Debian's typer and rich for /usr/bin/python3). */
export const CLI_PYTHON = ['python3', '/usr/bin/python3'].find(
  (python) => spawnSync(python, ['-c', 'import typer, rich, requests']).status === 0,
);

/**
 * The CLI's entry point, run as `simplex`. Debian's typer (0.7) wants a default as the first
 * argument of Argument and Option, which the CLI's newer typer makes optional (`...`: required):
 * given here, the CLI's own code runs unchanged on it.
 */
const CLI_ENTRY = String.raw`
import typer
_argument, _option = typer.Argument, typer.Option
typer.Argument = lambda default=..., *a, **k: _argument(default, *a, **k)
typer.Option = lambda default=..., *a, **k: _option(default, *a, **k)
from simplex.cli.main import app
app(prog_name="simplex")
`;

/**
 * `simplex <args>` with `env` over this process's (its HOME, SIMPLEX_BASE_URL, a key or none).
 * Resolves with its exit code and its output, stdout and stderr together; killed after `timeoutMs`.
 */
export function runSimplexCli(
  args: string[],
  { env, timeoutMs }: { env: Record<string, string | undefined>; timeoutMs: number },
): Promise<{ code: number | null; output: string }> {
  if (!SIMPLEX_PYTHON_DIR || !CLI_PYTHON) throw new Error('Simplex CLI: no client folder, or no python3 with typer');
  const childEnv = {
    ...process.env,
    PYTHONPATH: SIMPLEX_PYTHON_DIR,
    PYTHONDONTWRITEBYTECODE: '1',
    COLUMNS: '200',
    ...env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(CLI_PYTHON, ['-c', CLI_ENTRY, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
