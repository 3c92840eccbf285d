#!/usr/bin/env bash
# Series benchmark: the end-to-end time of one 100,000-sample time series over HTTP
# (/v1/positions/mars, hourly, 2015-01-01 … 2026-05-29T15:00Z) as JSON and as CSV, identity and
# with Accept-Encoding: gzip (which adds the deflate of every chunk to the time), measured with
# curl against `solarsystem serve` (serve's defaults: access log on, written to /dev/null).
# Several binaries can be compared in one session: each gets its server, and the runs
# alternate between them. Prints every run and then the medians.
# Usage: scripts/bench-series.sh [BINARY …]   (default: a release build of this checkout)
# Environment: RUNS (default 7), PORT (first port, 18190).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-7}"
PORT="${PORT:-18190}"
binaries=("$@")
if [ ${#binaries[@]} -eq 0 ]; then
    echo "bench-series: building solarsystem (release)"
    swift build -c release --scratch-path .build-release --product solarsystem 2>&1 | tail -1
    binaries=(.build-release/release/solarsystem)
fi

pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true' EXIT
for i in "${!binaries[@]}"; do
    "${binaries[$i]}" serve --host 127.0.0.1 --port $((PORT + i)) --resources Resources >/dev/null 2>&1 &
    pids+=($!)
done
for i in "${!binaries[@]}"; do
    for _ in $(seq 1 100); do curl -fsS -o /dev/null "http://127.0.0.1:$((PORT + i))/healthz" 2>/dev/null && break; sleep 0.1; done
done

path='v1/positions/mars?start=2015-01-01&stop=2026-05-29T15:00:00Z&step=1h'
variants=(json csv json-gzip csv-gzip)
fetch() { # port variant → "seconds bytes"
    local url="http://127.0.0.1:$1/$path" args=()
    case "$2" in csv*) url="$url&format=csv" ;; esac
    case "$2" in *gzip) args=(-H "Accept-Encoding: gzip") ;; esac
    curl -fsS "${args[@]}" -o /dev/null -w '%{time_total} %{size_download}\n' "$url"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
declare -A TIMES SIZE
for i in "${!binaries[@]}"; do for v in "${variants[@]}"; do fetch $((PORT + i)) "$v" >/dev/null; done; done # warm-up
for run in $(seq 1 "$RUNS"); do
    for i in "${!binaries[@]}"; do
        for v in "${variants[@]}"; do
            read -r s bytes < <(fetch $((PORT + i)) "$v")
            TIMES[$i,$v]+="$s "; SIZE[$i,$v]=$bytes
            printf 'bench-series: run %d %-40s %-9s %7.1f ms %10d bytes\n' "$run" "${binaries[$i]}" "$v" "$(echo "$s * 1000" | bc -l)" "$bytes"
        done
    done
done
echo "== medians of $RUNS runs: 100,000 samples of /$path =="
for i in "${!binaries[@]}"; do
    for v in "${variants[@]}"; do
        m=$(echo "${TIMES[$i,$v]}" | tr ' ' '\n' | grep -v '^$' | median)
        printf '%-40s %-9s %7.1f ms %10d bytes\n' "${binaries[$i]}" "$v" "$(echo "$m * 1000" | bc -l)" "${SIZE[$i,$v]}"
    done
done
