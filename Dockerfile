# One image for all of Atrium: `docker run atrium` serves inference (8000), provenance (5000) and bench (6610)
# on the embedded defaults under the /data volume; `docker run atrium serve --services bench` serves one.
#   docker build -t atrium .
#   docker run -p 8000:8000 -p 5000:5000 -p 6610:6610 -v atrium-data:/data atrium
# BASE_IMAGE is any Debian-based image with Node 20 and npm under /usr/local (the public Node image by
# default; CI builds one locally, see .ci/containers). NPM_EXTRA_CA: PEM text of extra certificate
# authorities npm must trust during the build (behind a TLS-intercepting proxy); it stays in the build stage.
ARG BASE_IMAGE=node:20-bookworm-slim

FROM ${BASE_IMAGE} AS build
ARG NPM_EXTRA_CA=""
WORKDIR /atrium
# better-sqlite3 is compiled from source (no download of prebuilt binaries), against the base's Node headers.
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.base.json ./
COPY packages/core/package.json packages/core/
COPY packages/inference/package.json packages/inference/
COPY packages/provenance/package.json packages/provenance/
COPY packages/bench/package.json packages/bench/
COPY packages/cli/package.json packages/cli/
# No install scripts (node-llama-cpp's would fetch llama.cpp; its prebuilt CPU binaries come as a dependency)
# except better-sqlite3's native module.
RUN if [ -n "$NPM_EXTRA_CA" ]; then printf '%s\n' "$NPM_EXTRA_CA" > /tmp/extra-ca.pem; \
      export NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem; fi \
  && export npm_config_nodedir="$(dirname "$(dirname "$(command -v node)")")" \
  && npm ci --ignore-scripts --no-audit --no-fund \
  && npm rebuild better-sqlite3 --build-from-source \
  && rm -f /tmp/extra-ca.pem
COPY packages packages
# Compile (the console's browser modules too, into packages/bench/dist), drop dev dependencies, sources, what only a
# build (llama.cpp, better-sqlite3's objects) or another platform would need (llama.cpp's CPU binaries for
# linux-x64 stay, no CUDA or Vulkan), type declarations, source maps and documentation; typescript is only
# node-llama-cpp's optional peer.
RUN npx tsc -b \
  && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
  && find node_modules/@node-llama-cpp -mindepth 1 -maxdepth 1 ! -name linux-x64 -exec rm -rf {} + \
  && find node_modules/better-sqlite3/build -mindepth 1 -maxdepth 1 ! -name Release -exec rm -rf {} + \
  && find node_modules/better-sqlite3/build/Release -mindepth 1 -maxdepth 1 ! -name better_sqlite3.node -exec rm -rf {} + \
  && rm -rf node_modules/typescript node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
    node_modules/node-llama-cpp/llama/gitRelease.bundle packages/*/src packages/*/tsconfig.json \
    packages/*/dist/.tsbuildinfo packages/bench/dist/console/client/.tsbuildinfo tsconfig.json tsconfig.base.json /root/.npm \
  && find node_modules packages/*/dist -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.map' \
    -o \( -name '*.md' ! -iname 'licen*' \) \) -delete

# The runtime file system: the base without what only installs or builds use (npm, corepack, yarn, Node's
# headers, documentation, man pages, translations, apt's lists), plus Atrium and its non-root user.
FROM ${BASE_IMAGE} AS runtime
COPY --from=build /atrium /atrium
COPY deploy/docker/healthcheck.mjs /atrium/healthcheck.mjs
RUN rm -rf /usr/local/lib/node_modules /usr/local/include /usr/local/share/doc /usr/local/share/man /opt/yarn-* \
    /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg \
    /usr/share/doc/* /usr/share/man/* /usr/share/info/* /usr/share/locale/* /var/lib/apt/lists/* /var/cache/apt/*.bin \
  && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin atrium \
  && mkdir -p /data && chown atrium:atrium /data \
  && ln -s /atrium/packages/cli/bin/atrium.mjs /usr/local/bin/atrium

# Flattened into one layer, so that what the runtime stage removed from the base leaves the image (on the CI base
# 64 MB: Node's headers 50 MB, npm 14 MB; the image is 233 MB instead of 294 MB).
FROM scratch
COPY --from=runtime / /
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  NODE_ENV=production \
  ATRIUM_DATA_DIR=/data \
  ATRIUM_INFERENCE_BIND=0.0.0.0 \
  ATRIUM_PROVENANCE_BIND=0.0.0.0 \
  ATRIUM_BENCH_BIND=0.0.0.0
USER atrium
WORKDIR /data
VOLUME /data
EXPOSE 8000 5000 6610
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["node", "/atrium/healthcheck.mjs"]
ENTRYPOINT ["atrium"]
CMD ["serve"]
