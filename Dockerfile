# syntax=docker/dockerfile:1
# For people who deploy with containers (see docs/operations.md#containers). Two images from one build:
#   docker build --target web -t semel-web .      Next's standalone server; migrates at boot, then serves
#   docker build --target worker -t semel-worker . publishing, reconciliation and housekeeping, no web server
# Both run as the unprivileged `node` user. Configuration comes from the environment (see .env.example).
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 NEXT_OUTPUT=standalone
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# next build (standalone output) and the compiled scripts, then only the runtime dependencies for the worker.
RUN mkdir -p public && npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim AS web
WORKDIR /app
# HOSTNAME: Docker sets it to the container id; the standalone server listens on it, so listen everywhere.
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOSTNAME=0.0.0.0
COPY --from=build --chown=node:node /app/.next/standalone ./
COPY --from=build --chown=node:node /app/.next/static ./.next/static
COPY --from=build --chown=node:node /app/public ./public
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "server.js"]

FROM node:${NODE_VERSION}-bookworm-slim AS worker
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/.build ./.build
COPY --from=build --chown=node:node /app/db/migrations ./db/migrations
USER node
# Also the one-off commands: `docker run … semel-worker node .build/scripts/apikey.mjs --workspace <slug>`.
CMD ["node", ".build/scripts/worker.mjs"]
