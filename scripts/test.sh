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
# The Postgres pass is for what the store decides: records, lists and their filters, the run queue,
# keys, credentials, webhooks, the event log, recovery after a crash. Tests of the browser, its
# boundary, its processes, the agent and the dashboard take no store-specific path and run once, in
# the SQLite pass, as do the cluster tests that bring their own Postgres and the fuzzer.
POSTGRES_PASS=(test/postgres.harness.test.ts test/jsonColumn.test.ts test/apiKeys.test.ts test/auth.test.ts
  test/credentials.test.ts test/security/credentialAttacks.test.ts test/security/apiKeyAttacks.test.ts
  test/webhooks.test.ts test/security/webhookSecretAttacks.test.ts test/events.test.ts test/sessionEventLog.test.ts
  test/overview.test.ts test/runs.list.test.ts test/runs.queue.test.ts test/runs.crash.test.ts test/runs.test.ts
  test/runs.validation.test.ts test/sessions.test.ts test/sessions.lifecycle.test.ts test/sessions.refused.test.ts
  test/workflows.test.ts test/workflows.simplex.test.ts test/structuredOutput.test.ts test/badInput.test.ts)
echo "== unit and API tests (Postgres)"; BROWSERDESK_TEST_DB=postgres npx vitest run "${POSTGRES_PASS[@]}"
echo "== end-to-end"; npx playwright test
