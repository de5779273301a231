#!/usr/bin/env bash
# Set up everything Browserdesk needs on Debian 12 (whose own Node may be 20): Debian packages (as
# root), Node 22, npm dependencies built for it, and the built dashboard. Safe to run again: it
# skips what is already there.
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

# Node 22 (an LTS line; Node 20's support ended 2026-04-30): the npm package `node`, pinned in
# devDependencies, puts it in node_modules/.bin, which `npm start`, `npm test` and every npm script
# run first, whatever the machine's own Node is. The install itself runs on the same version, from
# its npm package node-linux-<arch> kept in the user's cache: so npm checks the packages' engines
# against Node 22 (Scalar's need it), and native addons (better-sqlite3) are compiled against its
# headers, which that package ships (include/node), not against the machine's Node (whose module
# ABI differs, and nodejs.org may be out of reach for node-gyp to fetch other headers).
node_version=$(node -p "require('./package.json').devDependencies.node")
node_package="node-linux-$(node -p process.arch)"
node_home="${XDG_CACHE_HOME:-$HOME/.cache}/browserdesk/node-$node_version/node_modules/$node_package"
if [ ! -x "$node_home/bin/node" ]; then
  echo "setup: fetching Node $node_version ($node_package) to install with"
  npm install --prefix "$(dirname "$(dirname "$node_home")")" --no-save --no-package-lock --no-audit --no-fund \
    "$node_package@$node_version" >/dev/null
fi
export PATH="$node_home/bin:$PATH" npm_config_nodedir="$node_home"

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm dependencies (Node $(node --version))"
  npm ci --no-audit --no-fund
fi
# A node_modules installed before (by the machine's Node 20, say) holds better-sqlite3 compiled for
# that Node's ABI, which Node 22 refuses to load: compile it again, against Node 22's headers.
if ! node_modules/.bin/node -e "new (require('better-sqlite3'))(':memory:').close()" 2>/dev/null; then
  echo "setup: compiling better-sqlite3 for Node $node_version"
  npm rebuild better-sqlite3 --no-audit --no-fund >/dev/null
  node_modules/.bin/node -e "new (require('better-sqlite3'))(':memory:').close()"
fi

echo "setup: building the dashboard"
npx vite build --logLevel warn
echo "setup: done"
