# syntax=docker/dockerfile:1
# Stage 1: compile src/ to dist/ (npm ci runs the prepare script, which builds).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs ./scripts/
COPY src ./src
RUN npm ci --no-audit --no-fund

# Stage 2: production dependencies only (no build tools).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# Stage 3: the runtime image, as a non-root user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4010 IDV_SANDBOX_DATA=/data/idv-sandbox.json IDV_SANDBOX_PORT_FILE=/tmp/idv-sandbox.port
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY --from=build /app/dist ./dist
COPY fixtures ./fixtures
COPY scenarios ./scenarios
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4010
# The server writes the address it listens on to IDV_SANDBOX_PORT_FILE; the check reads it, so it holds
# however the port was given (PORT, --port in a command of your own, or 0).
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "dist/health-check.js"]
# The bin's first line holds the Node flags (env -S), the same for `npm start` and `npx idv-sandbox`.
CMD ["bin/idv-sandbox.js"]
