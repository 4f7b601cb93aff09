#!/usr/bin/env bash
# CI (.ci/run): builds the Docker image with a real engine and tests it as users run it. Starts dockerd
# (overlay2 storage where it works, vfs otherwise) when no engine answers, assembles the FROM image when it is missing (base-image.sh), then:
#   1. runs the Docker blocks of README.md and docs/docker.md (each ```sh block after a
#      `<!-- ci: docker-… -->` line), so the documented commands are the ones CI ran;
#   2. checks the image itself: flags pass through the ENTRYPOINT, health, no 0.0.0.0 links, links that
#      follow the Host of a port map or --public-url, exit 0 on SIGTERM, and an acknowledged write kept
#      in the volume across a restart of the container and across a new container.
# Run as root (dockerd, apt-get). Prints the time of each part and the image size.
set -euo pipefail
cd "$(dirname "$0")/../.."

export DOCKER_BUILDKIT=${DOCKER_BUILDKIT:-0}
IMAGE=idv-sandbox
CHECK=idv-sandbox-ci
VOLUME=idv-sandbox-ci-data
work=$(mktemp -d /tmp/idv-sandbox-docker-ci.XXXXXX)
began=$SECONDS
step_name=
step_began=$SECONDS
# Names the next part, after the time the previous one took.
step() {
  [ -z "$step_name" ] || echo "docker-ci: $step_name: $((SECONDS - step_began)) s"
  step_name=$*
  step_began=$SECONDS
  echo "docker-ci: --- $*"
}
fail() {
  echo "docker-ci: FAILED: $*" >&2
  docker logs "$CHECK" 2>&1 | tail -20 >&2 || true
  exit 1
}

dockerd_pid=
cleanup() {
  # -v: the anonymous /data volumes of the containers run without one.
  docker rm -f -v "$CHECK" idv-sandbox idv-sandbox-public >/dev/null 2>&1 || true
  docker volume rm "$VOLUME" >/dev/null 2>&1 || true
  if [ -n "$dockerd_pid" ]; then kill "$dockerd_pid" && wait "$dockerd_pid" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

step "engine"
if ! command -v dockerd >/dev/null || ! command -v docker >/dev/null; then apt-get update -qq && apt-get install -y -qq docker.io; fi
# Starts dockerd with storage driver $1 and waits for it; fails (engine stopped) when it does not come up
# with that driver.
start_dockerd() {
  # --ip: a port map that names no address (testcontainers' do not) binds to loopback, never to every interface.
  dockerd --storage-driver="$1" --ip=127.0.0.1 >"$work/dockerd-$1.log" 2>&1 &
  dockerd_pid=$!
  for _ in $(seq 60); do
    docker info >/dev/null 2>&1 && break
    kill -0 "$dockerd_pid" 2>/dev/null || break
    sleep 0.5
  done
  if [ "$(docker info --format '{{.Driver}}' 2>/dev/null)" = "$1" ]; then return 0; fi
  tail -5 "$work/dockerd-$1.log" | sed 's/^/    /'
  kill "$dockerd_pid" 2>/dev/null && wait "$dockerd_pid" 2>/dev/null || true
  dockerd_pid=
  return 1
}
# The fastest storage driver that works here: overlay2 shares layers (a build step costs its changes), vfs
# copies the whole file system per layer and per container (the same build took 199 s against ~90 s). overlay2
# needs the kernel's overlay file system and a data root it can stack on (ext4 or xfs, not overlay itself, as
# inside another container): it is tried, and the engine's own answer (`docker info`) decides.
data_root_fs=$(df --output=fstype /var/lib 2>/dev/null | sed -n 2p)
if docker info >/dev/null 2>&1; then
  echo "docker-ci: an engine answers already (storage driver $(docker info --format '{{.Driver}}')): using it"
elif ! grep -qw overlay /proc/filesystems && ! modprobe overlay 2>/dev/null; then
  echo "docker-ci: storage driver vfs: the kernel has no overlay file system"
  start_dockerd vfs || fail "dockerd did not start with vfs"
elif [ "$data_root_fs" = overlay ]; then
  echo "docker-ci: storage driver vfs: the data root (/var/lib/docker) is on overlay, which overlay2 cannot stack on"
  start_dockerd vfs || fail "dockerd did not start with vfs"
elif start_dockerd overlay2; then
  echo "docker-ci: storage driver overlay2: the kernel has overlay and the data root's file system ($data_root_fs) takes it"
else
  echo "docker-ci: storage driver vfs: dockerd refused overlay2 on this data root ($data_root_fs; its log is above)"
  start_dockerd vfs || fail "dockerd did not start with vfs"
fi
# On vfs, creating a container copies the whole image: on a busy machine that outlasts compose's default
# 60 s wait for the engine's answer.
export COMPOSE_HTTP_TIMEOUT=600
# Debian's docker.io has no compose plugin: Debian's docker-compose runs the documented `docker compose`.
if ! docker compose version >/dev/null 2>&1 && ! command -v docker-compose >/dev/null; then
  apt-get update -qq && apt-get install -y -qq docker-compose
fi
docker rm -f "$CHECK" idv-sandbox idv-sandbox-public >/dev/null 2>&1 || true

step "base image"
scripts/docker/base-image.sh

# The ```sh block after each `<!-- ci: docker-… -->` line of a markdown file, one block per NUL-ended record.
documented_blocks() {
  awk '/^<!-- ci: docker-[a-z-]+ -->$/ { marked = 1; next }
       marked && /^```sh$/ { inside = 1; marked = 0; next }
       inside && /^```$/ { inside = 0; printf "%c", 0; next }
       inside { print }
       { marked = 0 }' "$1"
}
run_documented() {
  local count=0
  while IFS= read -r -d '' block; do
    count=$((count + 1))
    echo "docker-ci: $1 block $count:"
    echo "$block" | sed 's/^/    /'
    # `docker compose` through Debian's docker-compose when the plugin is missing.
    timeout 2400 bash -euo pipefail -c '
      if ! command docker compose version >/dev/null 2>&1; then
        docker() { if [ "$1" = compose ]; then shift; docker-compose "$@"; else command docker "$@"; fi; }
      fi
      '"$block" || fail "$1 block $count"
  done < <(documented_blocks "$1")
  [ "$count" -gt 0 ] || fail "$1 has no <!-- ci: docker-… --> block"
}
# docs/docker.md shows no command CI does not run.
[ "$(grep -c '^```sh$' docs/docker.md)" = "$(grep -c '^<!-- ci: docker-[a-z-]* -->$' docs/docker.md)" ] ||
  fail "docs/docker.md has a \`\`\`sh block without a <!-- ci: docker-… --> line before it"


# The image must hold this tree. The legacy builder on vfs once served every layer from its cache for a
# changed tree (COPY of changed files included), so CI would have tested the previous image: the image's
# bin, fixtures and scenarios are compared with the tree's, byte for byte.
tree_files() { find bin fixtures scenarios -type f -print0 | sort -z | xargs -0 sha256sum; }
image_matches_tree() {
  [ "$(docker run --rm --entrypoint sh "$IMAGE" -c "cd /app && $(declare -f tree_files) && tree_files")" = "$(tree_files)" ]
}

step "README.md Docker example (builds the image)"
run_documented README.md
if ! image_matches_tree; then
  echo "docker-ci: the image does not hold this tree (a stale build cache): building it again without the cache"
  docker build --no-cache -q -t "$IMAGE" . >/dev/null
  image_matches_tree || fail "the image does not hold this tree's bin, fixtures and scenarios"
  run_documented README.md
fi
echo "docker-ci: image size $(docker image inspect -f '{{.Size}}' "$IMAGE" | awk '{ printf "%.0f MB", $1 / 1000000 }')"

step "the image's kept compiled code"
# A container's start runs from the code kept at build time: one that found none, or whose code V8 refused,
# would write a file of its own.
docker run --rm --entrypoint sh "$IMAGE" -c '
  kept() { ls -l --time-style=+%s.%N /tmp/idv-sandbox-code-cache; }
  before=$(kept) || exit 1
  /app/bin/idv-sandbox.js --memory --port 0 --host 127.0.0.1 --port-file /tmp/check.port >/dev/null &
  for _ in $(seq 300); do [ -s /tmp/check.port ] && break; sleep 0.1; done
  kill -TERM $! && wait $!
  [ "$(kept)" = "$before" ]' || fail "a container's first start does not run from the compiled code kept in the image"

step "docs/docker.md examples (public URL, compose)"
run_documented docs/docker.md

step "docs/ci.md testcontainers recipe"
# As written, through the testcontainers dev dependency. Ryuk (its reaper container) is an image no registry
# here serves, and the recipe stops its container itself. Where it guesses it runs inside a container,
# testcontainers reaches ports through the bridge's gateway; the engine binds them to loopback (--ip above).
IDV_SANDBOX_DOCKER_IMAGE=$IMAGE TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 \
  npx vitest run test/docker/testcontainers-recipe.test.ts ||
  fail "the testcontainers recipe"

# ---- the image itself, on a host port Docker picks (never one in use)
wait_healthy() {
  for _ in $(seq 90); do
    case "$(docker inspect -f '{{.State.Health.Status}}' "$CHECK")" in
      healthy) return 0 ;;
      unhealthy) fail "the container is unhealthy" ;;
    esac
    [ "$(docker inspect -f '{{.State.Running}}' "$CHECK")" = true ] || fail "the container stopped"
    sleep 1
  done
  fail "the container was not healthy within 90 s"
}
base_url() { echo "http://$(docker port "$CHECK" 4010/tcp | sed -n 1p)"; }
# A value of the JSON on stdin, by a JavaScript accessor (`.servers[0].url`).
json() { node -e 'let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => console.log(new Function("v", `return v${process.argv[1]}`)(JSON.parse(s))));' "$1"; }
expect_equal() { [ "$1" = "$2" ] || fail "$3: expected \"$2\", got \"$1\""; }
session_url() {
  curl -fsS -X POST "$1/v1/sessions" -H 'x-api-key: sk_live_demo' -H 'content-type: application/json' \
    -d '{"email": "jane.doe@example.com", "first_name": "Jane", "last_name": "Doe"}' | json .session_url
}

step "flags, health, links through a port map"
docker run -d --name "$CHECK" -p 127.0.0.1::4010 -v "$VOLUME:/data" "$IMAGE" --seed 7 >/dev/null
wait_healthy
url=$(base_url)
# grep without -q reads to the end: -q closes the pipe at the first match, and pipefail then fails on the writer's SIGPIPE.
docker logs "$CHECK" 2>&1 | grep '^  Seed                7$' >/dev/null || fail "--seed 7 did not reach the server"
if docker logs "$CHECK" 2>&1 | grep 'http://0\.0\.0\.0' >/dev/null; then fail "the banner prints a 0.0.0.0 link"; fi
expect_equal "$(curl -fsS "$url/openapi.json" | json '.servers[0].url')" "$url" "openapi.json server"
expect_equal "$(curl -sS "$url/v1/no-such-route" | json .error)" "No route GET /v1/no-such-route. The endpoints are listed at $url/docs." "404 link"
case "$(session_url "$url")" in "$url/verify/"*) ;; *) fail "session_url is not on $url" ;; esac

step "acknowledged write, SIGTERM exit 0, kept across a restart and a new container"
expect_equal "$(curl -fsS -X PUT "$url/__sandbox/organizations/org_demo/balance" -H 'content-type: application/json' -d '{"balance": 4321}' -o /dev/null -w '%{http_code}')" 200 "balance write"
docker stop -t 30 "$CHECK" >/dev/null
expect_equal "$(docker inspect -f '{{.State.ExitCode}}' "$CHECK")" 0 "exit code after SIGTERM"
docker logs "$CHECK" 2>&1 | grep 'SIGTERM received' >/dev/null || fail "the server did not see SIGTERM"
balance() { curl -fsS "$(base_url)/__sandbox/organizations" | json '.organizations.find((o) => o.id === "org_demo").balance'; }
docker start "$CHECK" >/dev/null
wait_healthy
expect_equal "$(balance)" 4321 "balance after a restart"
# A graceful stop releases the data file's lock at once.
docker stop -t 30 "$CHECK" >/dev/null
docker rm "$CHECK" >/dev/null
docker run -d --name "$CHECK" -p 127.0.0.1::4010 -v "$VOLUME:/data" "$IMAGE" >/dev/null
wait_healthy
expect_equal "$(balance)" 4321 "balance in a new container on the same volume"

step "a killed container's lock goes stale and a new container takes the volume over"
expect_equal "$(curl -fsS -X PUT "$(base_url)/__sandbox/organizations/org_demo/balance" -H 'content-type: application/json' -d '{"balance": 5432}' -o /dev/null -w '%{http_code}')" 200 "balance write before the kill"
docker kill "$CHECK" >/dev/null
docker rm "$CHECK" >/dev/null
docker run -d --name "$CHECK" -p 127.0.0.1::4010 -v "$VOLUME:/data" "$IMAGE" >/dev/null
wait_healthy
# Creating a container can outlast the 20 s by itself (vfs copies the image), so the log says "took over",
# after a wait or at once.
docker logs "$CHECK" 2>&1 | grep "took over the data file's lock" >/dev/null || fail "the new container did not take over the killed one's lock"
expect_equal "$(balance)" 5432 "balance acknowledged before the kill, in the next container"
docker rm -f "$CHECK" >/dev/null

step "--public-url"
docker run -d --name "$CHECK" -p 127.0.0.1::4010 "$IMAGE" --memory --public-url https://sandbox.example.test:8443 >/dev/null
wait_healthy
case "$(session_url "$(base_url)")" in https://sandbox.example.test:8443/verify/*) ;; *) fail "session_url does not follow --public-url" ;; esac
docker logs "$CHECK" 2>&1 | grep '^  Console             https://sandbox.example.test:8443/console$' >/dev/null || fail "the banner does not print the public URL"
docker rm -f -v "$CHECK" >/dev/null

step "end"
echo "docker-ci: passed in $((SECONDS - began)) s"
