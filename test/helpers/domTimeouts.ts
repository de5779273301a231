// Testing Library's findBy* and waitFor give up after 1 s by default: a dashboard test that waits
// for a query to settle failed on a busy CI host (three test workers and a Chromium suite on two
// cores). Their waits only guard against a hang, so they are generous; node-only test files skip this.
export {}; // a module: top-level await

if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 15_000 });
}
