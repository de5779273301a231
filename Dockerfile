# Browserdesk in one image: Debian 12 (bookworm), Node 22 (LTS), Chromium, Xvfb, x11vnc, nftables,
# ffmpeg. Not built where it was written (no Docker engine there): see README, "Deploy", for the
# size measured and estimated, and scripts/compose-check.sh, which builds and runs it where Docker is.
#
#   docker build -t browserdesk .
#   docker run -p 8080:8080 -v browserdesk-data:/data -e PUBLIC_URL=http://localhost:8080 \
#     --cap-drop ALL --cap-add CHOWN --cap-add DAC_OVERRIDE --cap-add FOWNER --cap-add SETUID \
#     --cap-add SETGID --cap-add KILL --cap-add NET_ADMIN --cap-add SYS_NICE \
#     --security-opt seccomp=deploy/seccomp/browserdesk.json --stop-timeout 330 browserdesk
#
# What the service needs from the container, and why (SECURITY.md, "What the operator must do"):
# - root inside the container (no USER line): each session's Xvfb, Chromium, x11vnc and ffmpeg run
#   as their own uid from SESSION_UIDS (spawn with uid/gid: CAP_SETUID, CAP_SETGID), in 0700 folders
#   the service chowns and still enters (CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FOWNER) and processes it
#   signals (CAP_KILL). Docker's default capabilities include all of these; drop the rest (ALL, then
#   these). Nothing else is used: no port below 1024 (NET_BIND_SERVICE), no device node (MKNOD), no
#   file capability (SETFCAP), no chroot outside Chromium's own user namespace (SYS_CHROOT), and the
#   file limit is raised only up to the runtime's hard limit (no SYS_RESOURCE). Not root, the
#   service still starts but says at start that sessions are not isolated.
# - CAP_NET_ADMIN: the nftables table that refuses the session uids loopback, link-local and private
#   addresses (in the container's own network namespace). Without it the start log says egress is
#   not filtered. The host kernel must have nf_tables (the container cannot load modules).
# - CAP_SYS_NICE: a warm-pool browser starts at nice 10 and is given normal priority when handed out
#   (lowering niceness needs it); without it that session keeps the lower priority.
# - seccomp: Chromium runs with its sandbox on (sessions are not root), which needs new user, PID and
#   network namespaces; Docker's default seccomp profile refuses those (clone/unshare with namespace
#   flags) without CAP_SYS_ADMIN. deploy/seccomp/browserdesk.json allows them and refuses the
#   syscalls that only administer the kernel (modules, kexec, mount, bpf, keyrings, clocks, swap,
#   open_by_handle_at, ...), none of which the service or its browsers make. Hosts that forbid
#   unprivileged user namespaces (user.max_user_namespaces=0,
#   or Ubuntu 24.04's AppArmor restriction: add --security-opt apparmor=unconfined) stop Chromium too.
# Never add --no-sandbox or --privileged: neither is needed.

# Build: npm dependencies (better-sqlite3 builds from source when no prebuilt binary fits, hence the
# full image with python3, make and g++), the dashboard (dist/) and the server compiled to JavaScript
# (build/server/: scripts/build-server.mjs); then only the runtime dependencies stay. The dashboard's
# packages (React, Scalar, CodeMirror, noVNC, ...) are devDependencies: Vite has bundled them into
# dist/, so the image does not carry their sources a second time, nor TypeScript, tsx or esbuild.
FROM node:22-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build --logLevel warn \
  && node scripts/build-server.mjs \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/.cache node_modules/better-sqlite3/build/Release/obj* node_modules/better-sqlite3/deps node_modules/better-sqlite3/src

FROM node:22-bookworm-slim
# The Debian packages of scripts/setup.sh, plus tini and ca-certificates. tini is PID 1: it reaps the
# processes a session's tree leaves orphaned (the service waits for a session uid to have no process
# before handing it out again, and a zombie would count) and passes SIGTERM on to node.
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
     chromium xvfb x11vnc nftables fonts-dejavu-core ffmpeg ca-certificates tini \
  && rm -rf /var/lib/apt/lists/* /usr/share/doc/* /usr/share/man/*

WORKDIR /app
# What runs, and nothing of the sources: the compiled server, the dashboard, the runtime packages.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/build ./build

# HOST=0.0.0.0: reachable from outside the container. Set PUBLIC_URL to the address clients use (the
# URLs handed out are built from it, never from the Host header). DATA_DIR holds the database (when
# DATABASE_URL is unset), the first API key, the secret key and the session artifacts: keep it on a
# volume. CHROMIUM_PATH's default, /usr/bin/chromium, is Debian's.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
VOLUME /data
EXPOSE 8080

# Liveness only (/api/healthz); placement (has the node room?) is /api/readyz's room field.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"

# The compiled server, in this process (no tsx: nothing is compiled at start). On SIGTERM it drains:
# runs and sessions get DRAIN_TIMEOUT_S (default 300) to end, then it ends what is left and exits,
# so give it more than that before a SIGKILL (docker stop -t, compose stop_grace_period,
# terminationGracePeriodSeconds: deploy/ sets DRAIN_TIMEOUT_S and each of these). API keys in the
# image: node build/server/keys.mjs (npm run keys from a checkout).
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--enable-source-maps", "build/server/main.mjs"]
