#!/usr/bin/env bash
# Every check CI runs: types, lint, unit + API tests (real server, real Chromium), then end-to-end.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck"; npx tsc --noEmit
echo "== lint"; npx eslint .
echo "== unit and API tests"; npx vitest run
echo "== end-to-end"; npx playwright test
