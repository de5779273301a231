import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Simplex's own CLI (simplex/cli in its Python client), run from SIMPLEX_PYTHON_DIR or
 * ../shared/vendor/simplex-python beside the clone, as test/simplex.python.test.ts finds the client.
 */
const SHARED_CLIENT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../shared/vendor/simplex-python',
);
export const SIMPLEX_PYTHON_DIR =
  process.env.SIMPLEX_PYTHON_DIR ?? (fs.existsSync(SHARED_CLIENT) ? SHARED_CLIENT : undefined);

/**
 * Debian's interpreter: scripts/setup.sh installs the CLI's typer and rich as Debian packages, which
 * only it sees. Debian's typer (0.7) still requires typer.Argument's default, which the CLI (written
 * for typer 0.9 and later) leaves out; the first two lines give it the later default, and nothing else.
 */
const PYTHON = '/usr/bin/python3';
const MAIN = String.raw`
import typer
_argument = typer.Argument
typer.Argument = lambda default=..., *args, **kwargs: _argument(default, *args, **kwargs)
from simplex.cli.main import app
app(prog_name="simplex")
`;

export interface CliHome {
  /** The CLI's HOME: its credentials land in .simplex/credentials there. */
  dir: string;
  /** The file the stand-in browser writes each URL it is asked to open to. */
  opened: string;
  remove(): void;
}

/** A HOME for the CLI, and a stand-in for the browser its `webbrowser.open` starts ($BROWSER): it writes the URL down. */
export function cliHome(): CliHome {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-e2e-cli-'));
  const opened = path.join(dir, 'opened-url');
  const browser = path.join(dir, 'browser');
  fs.writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`, { mode: 0o755 });
  return { dir, opened, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * `simplex <args>` against `baseUrl` with `home` as HOME and no key in the environment (the CLI must
 * use the one it saved). Resolves with its exit code and output; killed after `timeoutMs`.
 */
export function runSimplexCli(
  args: string[],
  { home, baseUrl, timeoutMs }: { home: CliHome; baseUrl: string; timeoutMs: number },
): Promise<{ code: number | null; output: string }> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: home.dir,
    PYTHONPATH: SIMPLEX_PYTHON_DIR,
    PYTHONDONTWRITEBYTECODE: '1',
    SIMPLEX_BASE_URL: baseUrl,
    BROWSER: path.join(home.dir, 'browser'),
    COLUMNS: '200',
  };
  delete env.SIMPLEX_API_KEY;
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ['-c', MAIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
