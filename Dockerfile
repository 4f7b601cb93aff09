# The sandbox as a container: `docker build -t idv-sandbox .` then `docker run -p 127.0.0.1:4010:4010 idv-sandbox`
# (flags pass through: `docker run … idv-sandbox --seed 7`); docs/docker.md has the rest. Without a registry,
# scripts/docker/base-image.sh assembles the FROM image locally. Every file the build reads must be copied
# into the build stage: test/docker/build-context.test.ts checks these COPY lines against what src/ imports.
# Few instructions: each one is a full copy of the file system on the vfs storage driver CI runs.

# Stage 1: compile src/ to dist/, then keep the production dependencies only. Dependencies are installed
# first, so a source change reuses that layer.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs scripts/bin-launch.mjs ./scripts/
COPY fixtures/watchlists.json ./fixtures/
COPY src ./src
RUN npm run build && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
  && mkdir -p /image/app /image/data && mv package.json dist node_modules /image/app/

# Stage 2: the runtime image, as the non-root `node` user (uid 1000) of the base image.
FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4010 IDV_SANDBOX_DATA=/data/idv-sandbox.json IDV_SANDBOX_PORT_FILE=/tmp/idv-sandbox.port
WORKDIR /app
COPY --from=build /image/app ./
COPY bin ./bin
COPY fixtures ./fixtures
COPY scenarios ./scenarios
COPY --from=build --chown=node:node /image/data /data
USER node
# One start and stop at build time keeps the bundle's compiled code in the image (src/bundle-loader.mjs: in
# /tmp, owned by `node`, named after this bundle, Node and the bin's flags), so a container's first start
# runs from it instead of compiling the bundle. The build stops if none was kept.
RUN /app/bin/idv-sandbox.js --memory --port 0 --host 127.0.0.1 --port-file /tmp/build-start.port >/dev/null & \
  for _ in $(seq 300); do [ -s /tmp/build-start.port ] && break; sleep 0.1; done; \
  kill -TERM $! && wait $!; rm -f /tmp/build-start.port && ls /tmp/idv-sandbox-code-cache/*.bin
VOLUME ["/data"]
EXPOSE 4010
# The server writes the address it listens on to IDV_SANDBOX_PORT_FILE; the check reads it, so it holds
# however the port was given (PORT, --port, or 0).
HEALTHCHECK --interval=5s --timeout=3s --start-period=45s --retries=3 \
  CMD ["node", "dist/health-check.js"]
# The bin's first line holds the Node flags (env -S), the same for `npm start` and `npx idv-sandbox`; env
# execs node, so node is PID 1 and gets the SIGTERM of `docker stop`. Arguments of `docker run` are flags.
ENTRYPOINT ["/app/bin/idv-sandbox.js"]
