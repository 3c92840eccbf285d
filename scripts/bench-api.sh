#!/usr/bin/env bash
# API benchmark (issue 11's figures), one run, release build of `solarsystem serve` with its
# defaults (access log on, written to a file, as users run it):
#   1. /healthz req/s and p99 alone, then /v1/positions and /v1/scene for a fixed date (the
#      cached path): wrk -t2 -c64, ROUNDS runs alternating routes, medians; ratios to /healthz.
#   2. /healthz p99 while 8 clients fetch 4,096-sample orbits with gzip and 2 fetch
#      70,000-sample series (scripts/load-clients.py heavy), next to /healthz alone at the same
#      concurrency (wrk -t1 -c8).
#   3. Resident memory with 200 clients that ask for the largest answers and never read
#      (scripts/load-clients.py slow).
#   4. A cached 5,000-sample trajectory, identity and gzip: median of 41 requests each (curl).
#   5. The observer's sky, engine time (`solarsystem bench sky`): one 10-body /v1/sky answer
#      (goal ≤ 50 µs) and a year of Sun and Moon rise/set/transit/twilight (goal ≤ 20 ms).
# Goals (DESIGN.md; figures in docs/benchmarks.md): /healthz p99 under load < 20 ms; RSS ≤ 100 MB under 200 slow readers;
# fixed-date positions ≥ 0.7× /healthz req/s; cached gzip ≤ 2× identity.
# Environment: ROUNDS (default 3), DURATION (10s), PORT (18183).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-10s}"
PORT="${PORT:-18183}"
OUT=.build-bench-api
mkdir -p "$OUT"
command -v wrk >/dev/null || { echo "bench-api: wrk is missing (apt-get install wrk)" >&2; exit 1; }

echo "bench-api: building solarsystem (release)"
swift build -c release --scratch-path .build-release --product solarsystem 2>&1 | tail -1
rm -f "$OUT"/cache.sqlite*
.build-release/release/solarsystem serve --host 127.0.0.1 --port "$PORT" --resources Resources --db "$OUT/cache.sqlite" >"$OUT/serve.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" 2>/dev/null && break; sleep 0.1; done
base="http://127.0.0.1:$PORT"

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print 0; else print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
# wrk_run THREADS CONNECTIONS DURATION URL → "rps p99ms errors"
wrk_run() {
    local out rps p99 errors
    out=$(wrk -t"$1" -c"$2" -d"$3" --latency "$4" 2>&1)
    echo "$out" >>"$OUT/wrk-raw.log"
    rps=$(echo "$out" | awk '/^Requests\/sec:/ {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); v=v/1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v=v*1000}; print v}')
    errors=$(echo "$out" | awk '/Non-2xx|Socket errors/ {printf "%s ", $0}')
    echo "${rps:-0} ${p99:-0} ${errors}"
}
: >"$OUT/wrk-raw.log"

# 1. Throughput: /healthz next to the fixed-date routes (warm the caches first).
routes=("healthz" "v1/positions?date=2026-01-01T00:00:00Z" "v1/scene?date=2026-01-01T00:00:00Z")
for r in "${routes[@]}"; do curl -fsS -o /dev/null "$base/$r"; done
declare -A RPS P99
for round in $(seq 1 "$ROUNDS"); do
    for r in "${routes[@]}"; do
        read -r rps p99 errors < <(wrk_run 2 64 "$DURATION" "$base/$r")
        RPS[$r]+="$rps "; P99[$r]+="$p99 "
        printf 'bench-api: round %d /%-40s %9.0f req/s  p99 %7.2f ms %s\n' "$round" "$r" "$rps" "$p99" "$errors"
    done
done

# 2. /healthz p99 alone and under the heavy load, at the same concurrency.
read -r alone_rps alone_p99 _ < <(wrk_run 1 8 "$DURATION" "$base/healthz")
secs=$(echo "$DURATION" | tr -d 's')
python3 scripts/load-clients.py heavy --port "$PORT" --seconds "$((secs + 4))" >"$OUT/heavy.log" 2>&1 &
load=$!
sleep 2
read -r load_rps load_p99 load_errors < <(wrk_run 1 8 "$DURATION" "$base/healthz")
wait "$load"

# 3. Resident memory under 200 slow readers.
slow=$(python3 scripts/load-clients.py slow --port "$PORT" --pid "$pid" --seconds 10)

# 4. A cached 5,000-sample trajectory, identity and gzip.
traj="$base/v1/missions/apollo11/trajectory?samples=5000"
curl -fsS -o /dev/null "$traj"
time_of() { for _ in $(seq 1 41); do curl -fsS -o /dev/null -w '%{time_total}\n' "$@"; done | median; }
t_id=$(time_of "$traj")
t_gz=$(time_of -H 'Accept-Encoding: gzip' "$traj")
b_id=$(curl -fsS "$traj" | wc -c)
b_gz=$(curl -fsS -H 'Accept-Encoding: gzip' "$traj" | wc -c)

echo
echo "== bench-api results (release serve, default flags, access log on; medians) =="
h=$(echo "${RPS[healthz]}" | tr ' ' '\n' | grep -v '^$' | median)
for r in "${routes[@]}"; do
    m=$(echo "${RPS[$r]}" | tr ' ' '\n' | grep -v '^$' | median)
    p=$(echo "${P99[$r]}" | tr ' ' '\n' | grep -v '^$' | median)
    awk -v r="/$r" -v m="$m" -v p="$p" -v h="$h" 'BEGIN {printf "%-42s %9.0f req/s  p99 %6.2f ms  %.2f× /healthz\n", r, m, p, m/h}'
done
printf '%-42s alone p99 %6.2f ms (%.0f req/s); under heavy load p99 %6.2f ms (%.0f req/s) %s\n' "/healthz (wrk -t1 -c8)" "$alone_p99" "$alone_rps" "$load_p99" "$load_rps" "$load_errors"
echo "heavy load: $(cat "$OUT/heavy.log")"
echo "$slow"
awk -v a="$t_id" -v b="$t_gz" -v ba="$b_id" -v bb="$b_gz" 'BEGIN {printf "cached trajectory (apollo11, 5,000 samples): identity %.2f ms (%d bytes), gzip %.2f ms (%d bytes): gzip/identity %.2f\n", a*1000, ba, b*1000, bb, b/a}'
.build-release/release/solarsystem bench sky --resources Resources
