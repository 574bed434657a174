# syntax=docker/dockerfile:1
# The production image: built as `npm run build` builds, with production dependencies only, run as an unprivileged
# user, healthy while /readyz says so. Its steps are the commands `npm run test:ops` runs in CI (the build, the
# production install, the start: test/ops/build.test.ts), and test/ops/dockerfile.test.ts keeps the two the same.
# The image itself is not built in this repository's CI, which has no container daemon.
#
#   docker build -t platform-admin .
#   docker compose up        # with PostgreSQL: see compose.yaml

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: every dependency, the production tree in /src/dist ----
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund
RUN npm run build

# ---- runtime: the built tree and its production dependencies, nothing else ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/var
WORKDIR /app
COPY --from=build /src/dist/ ./
# From the packages the build stage downloaded (its npm cache, mounted for this step only): no registry access, and
# exactly the versions that were built and tested.
RUN --mount=type=bind,from=build,source=/root/.npm,target=/root/.npm,rw \
    npm ci --omit=dev --offline --no-audit --no-fund --loglevel=error
# The data directory (local uploads, when STORAGE is not gcs) is the only place the server writes.
RUN mkdir -p /app/var && chown node:node /app/var
USER node
EXPOSE 3000
# Ready, not only alive: the database answers and its schema is this version's (a replica left behind by a newer
# version's migrations turns unhealthy). The slim image has no curl: node's own fetch asks.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node runs as PID 1 and handles SIGTERM itself: the server stops taking requests, finishes what it took and exits.
CMD ["node", "server/main.js"]
