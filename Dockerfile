# syntax=docker/dockerfile:1
# The production image: the built app, production dependencies and the migrations, run by the
# current Node LTS as an unprivileged user. SQLite lives on a volume mounted at /data.

ARG NODE_IMAGE=node:22-bookworm-slim

# ---- build: all dependencies, the production build, then only what production needs ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary matches this Node and platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    DATABASE_PATH=/data/studio.db \
    PORT=8080 \
    HOST=0.0.0.0
# TRUST_PROXY is not set here: only Fly's proxy sets Fly-Client-IP itself, so fly.toml turns it
# on. Run anywhere else (plain Docker, another host), the image trusts no client header.
# Litestream replicates the database to object storage while the site runs (scripts/start.sh,
# litestream.yml, docs/deploy.md "Backups"); one static binary from its release. The download
# is checked against the SHA-256 of that exact release asset before anything is extracted, so
# a replaced file fails the build instead of running with the database's keys. Changing the
# version means changing both sums (docs/deploy.md "Backups", "Updating Litestream").
ARG LITESTREAM_VERSION=0.3.13
ARG LITESTREAM_SHA256_AMD64=eb75a3de5cab03875cdae9f5f539e6aedadd66607003d9b1e7a9077948818ba0
ARG LITESTREAM_SHA256_ARM64=9585f5a508516bd66af2b2376bab4de256a5ef8e2b73ec760559e679628f2d59
ARG TARGETARCH=amd64
ADD https://github.com/benbjohnson/litestream/releases/download/v${LITESTREAM_VERSION}/litestream-v${LITESTREAM_VERSION}-linux-${TARGETARCH}.tar.gz /tmp/litestream.tar.gz
RUN case "${TARGETARCH}" in \
      amd64) expected="${LITESTREAM_SHA256_AMD64}" ;; \
      arm64) expected="${LITESTREAM_SHA256_ARM64}" ;; \
      *) echo "No Litestream checksum for ${TARGETARCH}" >&2; exit 1 ;; \
    esac \
 && echo "${expected}  /tmp/litestream.tar.gz" | sha256sum -c - \
 && tar -C /usr/local/bin -xzf /tmp/litestream.tar.gz litestream \
 && rm /tmp/litestream.tar.gz \
 && litestream version
COPY litestream.yml /etc/litestream.yml
# Owned by node so a fresh Docker named volume on /data is writable (Fly mounts its volume
# with the image user's ownership itself).
RUN mkdir -p /data && chown node:node /data
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/server.js ./server.js
# Applied at start by app/db.server.ts (read relative to the working directory).
COPY --from=build --chown=node:node /app/db/migrations ./db/migrations
# The backup and restore (docs/deploy.md): Node 22 runs these TypeScript files itself, no tsx
# needed. start.sh starts the site, under Litestream when a bucket is configured.
COPY --from=build --chown=node:node /app/scripts/backup.ts /app/scripts/restore.ts /app/scripts/start.sh ./scripts/
USER node
EXPOSE 8080
# Fly uses the checks in fly.toml; this one serves plain Docker.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# start.sh execs Litestream (which passes SIGTERM on to node and waits for it) or node itself,
# so PID 1 gets Fly's SIGTERM; server.js drains requests, then closes SQLite.
CMD ["scripts/start.sh"]
