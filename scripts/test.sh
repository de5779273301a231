#!/usr/bin/env bash
# Every check CI runs: types, lint, format, the server's layers, unit + API tests (real server, real Chromium) on SQLite,
# the store's tests again on Postgres (a throwaway cluster the tests start, BROWSERDESK_TEST_DB=postgres), and end-to-end.
set -euo pipefail
cd "$(dirname "$0")/.."
# The end-to-end suite mostly waits (pages, polls, a browser's start: a quarter of two cores busy),
# so it runs beside the unit and API passes and uses what they leave; its output is shown at the end.
echo "== typecheck and lint"
npx tsc --noEmit &
tsc_pid=$!
npx eslint .
wait "$tsc_pid"
echo "== format"; npx prettier --check . --log-level warn
echo "== layers"; npm run --silent deps
# The shipped compose file for real where a Docker engine runs (one line saying it is skipped where not).
echo "== compose"; node scripts/compose-check.mjs
echo "== end-to-end: started, beside the passes below"
e2e_log=$(mktemp)
npx playwright test >"$e2e_log" 2>&1 &
e2e_pid=$!
passes_log=$(mktemp)
trap 'kill "$e2e_pid" 2>/dev/null || true; rm -f "$e2e_log" "$passes_log"' EXIT
# A failing pass does not stop the others: one run shows every failure (the exit status is the first's).
# Each pass is also kept, so the last lines printed name every failed test: a CI log is often read
# from its end only.
# Two files keep both cores busy on purpose (a burst of starts and failing steps on a loaded host):
# beside other files they would starve them, so they run alone once the pass is done.
ON_A_LOADED_HOST=(test/sessions.burst.test.ts test/runs.failureCauses.test.ts)
echo "== unit and API tests (SQLite)"
sqlite_status=0
npx vitest run $(printf -- '--exclude %s ' "${ON_A_LOADED_HOST[@]}") 2>&1 | tee -a "$passes_log" || sqlite_status=$?
echo "== the tests that load the host on purpose, alone (SQLite)"
loaded_status=0
npx vitest run "${ON_A_LOADED_HOST[@]}" 2>&1 | tee -a "$passes_log" || loaded_status=$?
# The Postgres pass is for what the store decides: records, lists and their filters, the run queue,
# keys, credentials, webhooks, the event log, recovery after a crash. Tests of the browser, its
# boundary, its processes, the agent and the dashboard take no store-specific path and run once, in
# the SQLite pass, as do the cluster tests that bring their own Postgres and the fuzzer.
POSTGRES_PASS=(test/postgres.harness.test.ts test/jsonColumn.test.ts test/apiKeys.test.ts test/auth.test.ts
  test/credentials.test.ts test/security/credentialAttacks.test.ts test/security/apiKeyAttacks.test.ts
  test/webhooks.test.ts test/webhooks.deliveries.test.ts test/security/webhookDeliveryAttacks.test.ts test/security/webhookSecretAttacks.test.ts test/events.test.ts test/sessionEventLog.test.ts test/security/eventRedaction.test.ts
  test/overview.test.ts test/runs.list.test.ts test/lists.search.test.ts test/runs.queue.test.ts test/runs.crash.test.ts test/runs.test.ts
  test/runs.validation.test.ts test/sessions.test.ts test/sessions.lifecycle.test.ts test/sessions.refused.test.ts
  test/workflows.test.ts test/workflows.simplex.test.ts test/structuredOutput.test.ts test/badInput.test.ts
  test/cliAuth.test.ts test/security/cliAuthAttacks.test.ts test/membership.listening.test.ts)
echo "== unit and API tests (Postgres)"
pg_status=0
BROWSERDESK_TEST_DB=postgres npx vitest run "${POSTGRES_PASS[@]}" 2>&1 | tee -a "$passes_log" || pg_status=$?
e2e_status=0
wait "$e2e_pid" || e2e_status=$?
echo "== end-to-end"; cat "$e2e_log"
status=0
for s in "$sqlite_status" "$loaded_status" "$pg_status" "$e2e_status"; do [ "$status" -ne 0 ] || status=$s; done
echo "== summary: SQLite $sqlite_status, loaded $loaded_status, Postgres $pg_status, end-to-end $e2e_status (0 is a pass)"
# Vitest names a failed file "FAIL" and a failed test "×", and fails a pass whose tests all passed
# on an error outside them ("Unhandled Rejection", with its message next); Playwright marks "✘".
sed 's/\x1b\[[0-9;]*m//g' "$passes_log" "$e2e_log" | grep -E -A6 '^ *(FAIL|×|✘) |Unhandled (Error|Rejection)|^ *Errors +[0-9]' | head -200 || true
exit "$status"
