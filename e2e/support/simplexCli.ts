import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSimplexCli as runCli } from '../../test/helpers/simplexCli.ts';

export { SIMPLEX_PYTHON_DIR } from '../../test/helpers/simplexCli.ts';

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
  const env = {
    HOME: home.dir,
    SIMPLEX_BASE_URL: baseUrl,
    BROWSER: path.join(home.dir, 'browser'),
    SIMPLEX_API_KEY: undefined,
  };
  return runCli(args, { env, timeoutMs });
}
