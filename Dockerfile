# Browserdesk in one image: Debian 12 (bookworm), Node 20, Chromium, Xvfb, x11vnc, nftables, ffmpeg.
# Written by reading only (no Docker where it was written): see README, "Deploy".
#
#   docker build -t browserdesk .
#   docker run -p 8080:8080 -v browserdesk-data:/data -e PUBLIC_URL=http://localhost:8080 \
#     --cap-add NET_ADMIN --cap-add SYS_NICE --security-opt seccomp=unconfined browserdesk
#
# What the service needs from the container, and why (SECURITY.md, "What the operator must do"):
# - root inside the container (no USER line): each session's Xvfb, Chromium, x11vnc and ffmpeg run
#   as their own uid from SESSION_UIDS (spawn with uid/gid: CAP_SETUID, CAP_SETGID), in 0700 folders
#   the service chowns and still enters (CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FOWNER) and processes it
#   signals (CAP_KILL). Docker's default capabilities include all of these. Not root, the service
#   still starts but says at start that sessions are not isolated.
# - CAP_NET_ADMIN: the nftables table that refuses the session uids loopback, link-local and private
#   addresses (in the container's own network namespace). Without it the start log says egress is
#   not filtered. The host kernel must have nf_tables (the container cannot load modules).
# - CAP_SYS_NICE: a warm-pool browser starts at nice 10 and is given normal priority when handed out
#   (lowering niceness needs it); without it that session keeps the lower priority.
# - seccomp: Chromium runs with its sandbox on (sessions are not root), which needs new user, PID and
#   network namespaces; Docker's default seccomp profile refuses those (clone/unshare with namespace
#   flags) without CAP_SYS_ADMIN. Use seccomp=unconfined, or a profile that is Docker's default plus
#   clone/unshare/setns. Hosts that forbid unprivileged user namespaces (user.max_user_namespaces=0,
#   or Ubuntu 24.04's AppArmor restriction: add --security-opt apparmor=unconfined) stop Chromium too.
# Never add --no-sandbox or --privileged: neither is needed.

# Build: npm dependencies (better-sqlite3 builds from source when no prebuilt binary fits, hence the
# full image with python3, make and g++) and the dashboard; then only the runtime dependencies stay.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build --logLevel warn && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
# The Debian packages of scripts/setup.sh, plus tini and ca-certificates. tini is PID 1: it reaps the
# processes a session's tree leaves orphaned (the service waits for a session uid to have no process
# before handing it out again, and a zombie would count) and passes SIGTERM on to node.
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
     chromium xvfb x11vnc nftables fonts-dejavu-core ffmpeg ca-certificates tini \
  && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY --from=build /app /app

# HOST=0.0.0.0: reachable from outside the container. Set PUBLIC_URL to the address clients use (the
# URLs handed out are built from it, never from the Host header). DATA_DIR holds the database (when
# DATABASE_URL is unset), the first API key, the secret key and the session artifacts: keep it on a
# volume. CHROMIUM_PATH's default, /usr/bin/chromium, is Debian's.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
VOLUME /data
EXPOSE 8080

# Liveness only (/api/healthz); a load balancer that should skip full nodes asks /api/readyz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"

# scripts/start.mjs runs the server in this process (dist/ is already built); on SIGTERM it ends
# every session before exiting, so give it time to (docker stop -t 30, terminationGracePeriodSeconds).
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "scripts/start.mjs"]
