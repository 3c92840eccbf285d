#!/usr/bin/env bash
# API benchmark: wrk against /v1/positions and /v1/scene for a fixed date on a release build of
# `solarsystem serve` (access log off). 2 threads / 64 connections, DURATION per run, ROUNDS runs
# per route alternating routes; prints the median requests/s and p99 of each route.
# Environment: ROUNDS (default 3), DURATION (10s), PORT (18183), GZIP=1 to send Accept-Encoding: gzip.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-10s}"
PORT="${PORT:-18183}"
command -v wrk >/dev/null || { echo "bench-api: wrk is missing (apt-get install wrk)" >&2; exit 1; }

echo "bench-api: building solarsystem (release)"
swift build -c release --scratch-path .build-release --product solarsystem 2>&1 | tail -1
.build-release/release/solarsystem serve --host 127.0.0.1 --port "$PORT" --log-level warning --resources Resources &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" 2>/dev/null && break; sleep 0.1; done

routes=("v1/positions?date=2026-01-01T00:00:00Z" "v1/scene?date=2026-01-01T00:00:00Z")
headers=()
[ "${GZIP:-0}" = 1 ] && headers=(-H "Accept-Encoding: gzip")
for r in "${routes[@]}"; do
    printf 'bench-api: /%s is %s bytes\n' "$r" "$(curl -fsS "${headers[@]}" "http://127.0.0.1:$PORT/$r" | wc -c)"
done

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
declare -A RPS P99
for round in $(seq 1 "$ROUNDS"); do
    for r in "${routes[@]}"; do
        out=$(wrk -t2 -c64 -d"$DURATION" --latency "${headers[@]}" "http://127.0.0.1:$PORT/$r")
        rps=$(echo "$out" | awk '/^Requests\/sec:/ {print $2}')
        p99=$(echo "$out" | awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); v=v/1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v=v*1000}; print v}')
        errors=$(echo "$out" | awk '/Non-2xx|Socket errors/ {printf "%s ", $0}')
        RPS[$r]+="$rps "; P99[$r]+="$p99 "
        printf 'bench-api: round %d /%-40s %9.0f req/s  p99 %7.2f ms %s\n' "$round" "$r" "$rps" "$p99" "$errors"
    done
done
echo "== medians of $ROUNDS runs (wrk -t2 -c64 -d$DURATION${GZIP:+, gzip}) =="
for r in "${routes[@]}"; do
    printf '/%-40s %9.0f req/s  p99 %7.2f ms\n' "$r" "$(echo "${RPS[$r]}" | tr ' ' '\n' | grep -v '^$' | median)" "$(echo "${P99[$r]}" | tr ' ' '\n' | grep -v '^$' | median)"
done
