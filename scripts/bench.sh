#!/usr/bin/env bash
# Run every benchmark in bench/ in turn; each prints one JSON line of figures.
set -euo pipefail
cd "$(dirname "$0")/.."
for f in bench/*.ts; do
  npx tsx "$f"
done
