#!/usr/bin/env bash
# Builds the libFuzzer target for the HTTP parser (Sources/HTTP/Core + Fuzz/HTTPParser/main.swift)
# with AddressSanitizer and runs it. Usage: scripts/fuzz-http.sh [seconds=60]
# Prints executions/second and exits non-zero if the fuzzer found a crash (artifacts in
# .build-fuzz/artifacts/).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
out=.build-fuzz
mkdir -p "$out/corpus" "$out/artifacts"
cp -n Fuzz/HTTPParser/seeds/* "$out/corpus/" 2>/dev/null || true

echo "fuzz: building $out/http-parser-fuzzer"
# (ld.gold warns about local ASan symbols it cannot export; harmless, kept in build.log.)
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name HTTPParserFuzz \
    Sources/HTTP/Core/*.swift Fuzz/HTTPParser/main.swift -o "$out/http-parser-fuzzer" >"$out/build.log" 2>&1 \
    || { cat "$out/build.log" >&2; exit 1; }

echo "fuzz: replaying Fuzz/HTTPParser/regressions"
"$out/http-parser-fuzzer" Fuzz/HTTPParser/regressions/* >"$out/regressions.log" 2>&1 \
    || { cat "$out/regressions.log" >&2; echo "fuzz: a regression input fails again" >&2; exit 1; }

echo "fuzz: running for ${seconds}s"
set +e
"$out/http-parser-fuzzer" "$out/corpus" \
    -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$out/artifacts/" -print_final_stats=1 2>&1 | tee "$out/last-run.log" | grep -vE '^#[0-9]+\s+(NEW|REDUCE)'
status=${PIPESTATUS[0]}
set -e

runs=$(grep -E '^stat::number_of_executed_units' "$out/last-run.log" | awk '{print $2}')
speed=$(grep -E '^stat::average_exec_per_sec' "$out/last-run.log" | awk '{print $2}')
echo "fuzz: ${runs:-?} executions in ${seconds}s, ${speed:-?} exec/s, exit status $status"
if [ "$status" -ne 0 ]; then
    echo "fuzz: FAILURE — see $out/artifacts/" >&2
    exit "$status"
fi
echo "fuzz: no crashes"
