#!/usr/bin/env bash
# Every check CI runs: types, lint, unit + API tests (real server, real Chromium) on SQLite and
# again on Postgres (a throwaway cluster the tests start, BROWSERDESK_TEST_DB=postgres), then end-to-end.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck"; npx tsc --noEmit
echo "== lint"; npx eslint .
echo "== unit and API tests (SQLite)"; npx vitest run
echo "== unit and API tests (Postgres)"; BROWSERDESK_TEST_DB=postgres npx vitest run --exclude test/cluster.test.ts --exclude test/fuzz.test.ts  # the cluster test brings its own Postgres: once is enough; the fuzzer (child servers) runs in the SQLite pass only
echo "== end-to-end"; npx playwright test
