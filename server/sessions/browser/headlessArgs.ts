import { execFileSync } from 'node:child_process';

const majors = new Map<string, string | null>();

/** The browser's major version, from `binary --version` ("Chromium 156.0.8078.108 built on …"), once per binary; null if unreadable. */
function majorOf(binary: string): string | null {
  if (!majors.has(binary)) {
    let major: string | null = null;
    try {
      const out = execFileSync(binary, ['--version'], {
        encoding: 'utf8',
        timeout: 10_000,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      major = /(\d+)\.\d+\.\d+\.\d+/.exec(out)?.[1] ?? null;
    } catch {
      // Not runnable here: the launch reports it.
    }
    majors.set(binary, major);
  }
  return majors.get(binary)!;
}

/**
 * The flags that make a headless Chromium look to a page as the headful one does. Headless says
 * "HeadlessChrome" in its User-Agent and sets navigator.webdriver; a site that treats those as a
 * robot would treat a context session (whose shared browser is headless) unlike a browser session
 * on the same flow. The User-Agent is Chrome's reduced one, which a headful browser sends: the
 * platform fixed at "X11; Linux x86_64" and the version as major.0.0.0. The client hints
 * (Sec-CH-UA) are the same in both already.
 */
export function headlessArgs(binary: string, userAgent: string | undefined): string[] {
  const major = majorOf(binary);
  const ua =
    userAgent ??
    (major &&
      `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`);
  return ['--headless', '--disable-blink-features=AutomationControlled', ...(ua ? [`--user-agent=${ua}`] : [])];
}
