#!/usr/bin/env bash
# Every check CI runs: types, lint, format, the server's layers, unit + API tests (real server, real Chromium) on SQLite and
# again on Postgres (a throwaway cluster the tests start, BROWSERDESK_TEST_DB=postgres), then end-to-end.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck"; npx tsc --noEmit
echo "== lint"; npx eslint .
echo "== format"; npx prettier --check . --log-level warn
echo "== layers"; npm run --silent deps
echo "== unit and API tests (SQLite)"; npx vitest run
# The Postgres pass is for what the store decides: tests of the browser, its boundary and its
# processes alone (no store-specific path) run once, in the SQLite pass, as do the cluster test and
# the poison-pill test (each brings its own Postgres) and the fuzzer (child servers).
SQLITE_ONLY=(test/cluster.test.ts test/runs.ai.test.ts test/agent.cluster.test.ts test/simplex.python.test.ts test/agent.stepRecorder.test.ts test/fakeModel.test.ts test/runs.poisonPill.test.ts test/fuzz.test.ts test/fuzzChecks.test.ts test/recording.test.ts test/runs.contained.test.ts
  test/security/cdpBoundary.test.ts test/security/cdpLimits.test.ts test/security/connectionExhaustion.test.ts test/security/egressAndVnc.test.ts
  test/security/egressHostLocal.test.ts test/vnc.test.ts test/livestream.test.ts test/sessions.warmPool.test.ts test/chromium.infobar.test.ts)
echo "== unit and API tests (Postgres)"; BROWSERDESK_TEST_DB=postgres npx vitest run "${SQLITE_ONLY[@]/#/--exclude=}"
echo "== end-to-end"; npx playwright test
