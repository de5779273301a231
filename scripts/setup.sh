#!/usr/bin/env bash
# Set up everything Browserdesk needs on Debian 12 with Node 20: Debian packages (as root),
# npm dependencies, and the built dashboard. Safe to run again: it skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v x11vnc >/dev/null 2>&1 || need+=(x11vnc)
# nftables: the per-session egress filter (sessions may not reach loopback or private networks).
command -v nft >/dev/null 2>&1 || [ -x /usr/sbin/nft ] || need+=(nftables)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
# ffmpeg: screen recordings of sessions (RECORD_SESSIONS); ffprobe, from the same package, checks them in the tests.
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
# openssl: the tests make a self-signed certificate for a site the browser must refuse (TLS errors).
command -v openssl >/dev/null 2>&1 || need+=(openssl)
# postgresql: the tests' throwaway clusters (test/helpers/postgres.ts, npm run test:postgres) run its
# initdb/postgres from /usr/lib/postgresql/<version>/bin; the package's own cluster is not used.
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || need+=(postgresql)
# python3 and requests: test/simplex.python.test.ts runs Simplex's Python client (from ../shared/vendor/simplex-python or SIMPLEX_PYTHON_DIR).
python3 -c 'import requests' >/dev/null 2>&1 || need+=(python3 python3-requests)
# Debian's python3 with typer, rich and requests: Simplex's CLI (simplex/cli) runs with it in
# e2e/cli-login.spec.ts (`simplex login`) and test/runs.messages.test.ts (`simplex send`).
/usr/bin/python3 -c 'import typer, rich, requests' >/dev/null 2>&1 || need+=(python3 python3-typer python3-rich python3-requests)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm dependencies"
  npm ci --no-audit --no-fund
fi

echo "setup: building the dashboard"
npx vite build --logLevel warn
echo "setup: done"
