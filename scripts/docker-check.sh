#!/usr/bin/env bash
# docker-check.sh: build the image and check it as a container runtime would run it.
#
#   scripts/docker-check.sh            # build, check, remove the container and its volume
#   PRUNE=1 scripts/docker-check.sh    # ... then prune dangling images and the build cache
#   SKIP_BUILD=1 IMAGE=solarsystem scripts/docker-check.sh   # check an image already built
#
# Checks: the image builds; a container on a non-default port (SOLARSYSTEM_PORT=18080) with a
# read-only root filesystem becomes `healthy` through the image's own HEALTHCHECK; it runs as
# uid/gid 10001 with group 10001; the SQLite cache is in the /data volume; it answers through the
# published port; resident memory idle and with 200 clients that stop reading; `docker stop`
# (SIGTERM) with an event stream open and a half-sent request exits 0 well inside the stop
# timeout, the stream getting its `end` event; the image is at most 120 MB; and with `--cpus 1`
# the server starts one event loop.
#
# Uses the engine DOCKER_HOST (or the default socket) points at; when none answers, it starts one
# with ../shared/tools/local-docker.sh (LOCAL_DOCKER overrides the path), which needs root. Heavy:
# a cold build takes minutes and, on local-docker.sh's vfs driver, ~30 GB of layers (PRUNE=1
# frees them). Not run by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=${IMAGE:-solarsystem:check}
PORT=18080                  # inside the container: deliberately not the default 8080
STOP_TIMEOUT=10             # docker stop's default
NAME=solarsystem-check-$$
VOLUME=solarsystem-check-data-$$
WORK=$(mktemp -d)
say() { printf '[docker-check] %s\n' "$*"; }
fail() { say "FAIL: $*"; exit 1; }

if ! docker info >/dev/null 2>&1; then
    helper=${LOCAL_DOCKER:-../shared/tools/local-docker.sh}
    [ -f "$helper" ] || fail "no Docker engine answers and $helper is missing"
    say "no engine answers; starting one with $helper"
    eval "$(bash "$helper")"
fi

cleanup() {
    docker rm -f "$NAME" >/dev/null 2>&1 || true
    docker rm -f "$NAME-cpu" >/dev/null 2>&1 || true
    docker volume rm "$VOLUME" >/dev/null 2>&1 || true
    exec 4>&- 2>/dev/null || true
    if [ -n "${READER:-}" ]; then kill "$READER" 2>/dev/null || true; fi
    rm -rf "$WORK"
    if [ "${PRUNE:-0}" = 1 ]; then
        say "pruning dangling images and the build cache"
        docker image prune -f >/dev/null || true
        docker builder prune -f >/dev/null || true
    fi
}
trap cleanup EXIT

if [ "${SKIP_BUILD:-0}" != 1 ]; then
    say "docker build --network host -t $IMAGE ."
    start=$(date +%s)
    docker build --network host -t "$IMAGE" . >"$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; fail "build"; }
    say "built in $(( $(date +%s) - start )) s"
fi
size=$(( $(docker image inspect -f '{{.Size}}' "$IMAGE") / 1000000 ))
say "image: $size MB"
[ "$size" -le 120 ] || fail "the image is $size MB (budget 120 MB)"

say "run: SOLARSYSTEM_PORT=$PORT, --read-only, volume $VOLUME at /data"
# Only the health check's timing is overridden (its command is the image's), so the check does
# not wait 30 s for the first probe.
docker run -d --name "$NAME" --read-only -v "$VOLUME:/data" -e SOLARSYSTEM_PORT=$PORT \
    -p "127.0.0.1::$PORT" --health-interval 1s --health-start-period 30s "$IMAGE" >/dev/null
hostport=$(docker port "$NAME" "$PORT/tcp" | head -1 | sed 's/.*://')
[ -n "$hostport" ] || fail "port $PORT is not published"

status=""
for _ in $(seq 90); do
    status=$(docker inspect -f '{{.State.Health.Status}}' "$NAME")
    [ "$status" = healthy ] && break
    [ "$(docker inspect -f '{{.State.Running}}' "$NAME")" = true ] || { docker logs "$NAME" | tail -20; fail "the container stopped"; }
    sleep 1
done
[ "$status" = healthy ] || { docker inspect -f '{{json .State.Health}}' "$NAME"; fail "not healthy after 90 s (status: $status)"; }
say "healthy on port $PORT: $(docker inspect -f '{{(index .State.Health.Log 0).Output}}' "$NAME" | head -1)"
startup=$(docker logs "$NAME" 2>&1 | python3 -c '
import sys, json, datetime
ts = [(json.loads(l)["message"], datetime.datetime.fromisoformat(json.loads(l)["ts"].replace("Z", "+00:00"))) for l in sys.stdin if l.startswith("{")]
listening = next(t for m, t in ts if m == "listening")
print(int((listening - ts[0][1]).total_seconds() * 1000))' 2>/dev/null || echo "?")
say "start-up: listening ${startup} ms after its first log line"

# The image has no shell and no coreutils: what runs is read from the host's /proc (the engine
# is local), the volume's files from `docker cp`'s tar stream (which keeps numeric owners).
pid=$(docker inspect -f '{{.State.Pid}}' "$NAME")
ids=$(awk '/^Uid:|^Gid:/ {printf "%s%s ", $1, $2}' "/proc/$pid/status")
[ "$ids" = "Uid:10001 Gid:10001 " ] || fail "the server runs as $ids"
say "runs as uid and gid 10001 (/proc/$pid/status), user $(docker inspect -f '{{.Config.User}}' "$IMAGE")"
docker exec "$NAME" /usr/bin/solarsystem --version >/dev/null
db=$(docker cp "$NAME:/data" - | tar --numeric-owner -tvf -)
grep -q ' 10001/10001 .* data/solarsystem.sqlite$' <<<"$db" || fail "no solarsystem.sqlite owned by 10001 in /data: $db"
say "cache in the volume: $(grep 'solarsystem.sqlite$' <<<"$db" | awk '{print $3, $NF}')"
changed=$(docker diff "$NAME")
[ -z "$changed" ] || fail "the container wrote outside its volume: $changed"

code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$hostport/v1/positions?date=2026-11-22")
[ "$code" = 200 ] || fail "GET /v1/positions answered $code"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$hostport/readyz")
[ "$code" = 200 ] || fail "GET /readyz answered $code"

rss() { awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$pid/status"; }
say "resident memory idle: $(rss) MiB"
if command -v python3 >/dev/null; then
    # 200 clients ask for the largest answers and stop reading (held 5 s), as in issue 11.
    python3 - "$hostport" <<'EOF'
import socket, sys, time
port = int(sys.argv[1])
targets = ["/v1/orbits?date=now&samples=4096", "/v1/positions/moon?start=2026-01-01&stop=2027-12-31&step=15m&center=earth",
           "/v1/views/system.ppm?date=2026-11-22&width=1280&height=720"]
held = []
for i in range(200):
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.sendall(f"GET {targets[i % 3]} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    held.append(s)
time.sleep(5)
EOF
    say "resident memory after 200 clients that stopped reading: $(rss) MiB"
    # What those clients left queued is still being computed (and would get the grace at a
    # stop, like any request in flight: a closed client cannot be told from a half-closed one
    # until its answer is written). Let the pool go idle so the stop below measures drain alone.
    for _ in $(seq 120); do
        curl -s "http://127.0.0.1:$hostport/metrics" | grep -q '^http_worker_jobs 0$' && break
        sleep 0.5
    done
fi

# docker stop with an event stream open and a request half sent.
# The stream's client closes its socket when the server's ends (a client that kept it open
# would hold the server's lingering close, up to 2 s).
(
    exec 3<>"/dev/tcp/127.0.0.1/$hostport"
    printf 'GET /v1/missions/apollo11/stream?speed=100&rate=5 HTTP/1.1\r\nHost: t\r\n\r\n' >&3
    cat <&3
) >"$WORK/stream.txt" &
READER=$!
exec 4<>"/dev/tcp/127.0.0.1/$hostport"
printf 'GET /v1/bodies HTTP/1.1\r\nHost: t\r\n' >&4
for _ in $(seq 50); do grep -q 'event: telemetry' "$WORK/stream.txt" && break; sleep 0.1; done
grep -q 'event: telemetry' "$WORK/stream.txt" || fail "the event stream sent no telemetry"
start=$(date +%s%N)
docker stop -t "$STOP_TIMEOUT" "$NAME" >/dev/null
ms=$(( ($(date +%s%N) - start) / 1000000 ))
exitcode=$(docker inspect -f '{{.State.ExitCode}}' "$NAME")
wait "$READER" 2>/dev/null || true
READER=""
grep -q 'event: end' "$WORK/stream.txt" || fail "the stream got no end event"
grep -q '"reason":"shutdown"' "$WORK/stream.txt" || fail "the end event does not say shutdown"
[ "$exitcode" = 0 ] || { docker logs "$NAME" | tail -20; fail "exit code $exitcode after docker stop"; }
[ "$ms" -lt $(( STOP_TIMEOUT * 1000 / 2 )) ] || { docker logs "$NAME" | grep -v access | tail -8; fail "docker stop took $ms ms (timeout ${STOP_TIMEOUT} s)"; }
say "docker stop: exit 0 in $ms ms (timeout ${STOP_TIMEOUT} s); the stream got end"
# Under a CPU limit the event loops follow the container's cgroup quota, not the node's cores
# (a 2-CPU pod on a 64-core node must not start 64 loops).
cpus=$(nproc)
if [ "$cpus" -gt 1 ]; then
    docker run -d --name "$NAME-cpu" --cpus 1 --read-only -v "$VOLUME:/data" -e SOLARSYSTEM_PORT=$PORT "$IMAGE" >/dev/null
    loops=""
    for _ in $(seq 60); do
        loops=$(docker logs "$NAME-cpu" 2>&1 | python3 -c '
import sys, json
for l in sys.stdin:
    if l.startswith("{") and json.loads(l).get("message") == "listening":
        print(json.loads(l).get("eventLoops", "")); break' 2>/dev/null || true)
        [ -n "$loops" ] && break
        sleep 0.5
    done
    docker rm -f "$NAME-cpu" >/dev/null 2>&1 || true
    [ "$loops" = 1 ] || fail "with --cpus 1 on a $cpus-CPU machine the server started ${loops:-no} event loops (expected 1)"
    say "with --cpus 1 on $cpus CPUs: $loops event loop"
fi
say "all checks passed"
