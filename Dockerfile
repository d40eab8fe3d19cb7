# Image for the example compose.yaml (see the README, "Deployment").
FROM node:20-bookworm-slim AS build
# better-sqlite3 is compiled from source during install.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .prebuild-installrc tsconfig.json tsconfig.build.json ./
COPY src ./src
# The dashboard is built with the rest (npm run build: Vite into dist/web, then its .br/.gz copies).
COPY web ./web
COPY scripts/compress-web.mjs scripts/prepare.mjs ./scripts/
# `npm ci` builds dist/ (the prepare script, scripts/prepare.mjs); the development tools are dropped after.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 AGENTD_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# SIGTERM reaches node directly (no shell in between), which drains before it exits.
CMD ["node", "--max-semi-space-size=64", "dist/main.js", "serve"]
