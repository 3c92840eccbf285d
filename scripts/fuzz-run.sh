#!/usr/bin/env bash
# Shared by the fuzz scripts: builds a libFuzzer target with AddressSanitizer, replays its
# regression inputs, runs it and reports executions/second; exits non-zero on a crash.
# Usage (sourced by a fuzz script): fuzz_run NAME MODULE SECONDS MAX_LEN FUZZ_DIR OUT SOURCES...
#   NAME      the fuzzer binary's name;  MODULE  the Swift module name it is built as
#   FUZZ_DIR  Fuzz/<Target>, holding main.swift, seeds/ and (optionally) regressions/
#   OUT       build directory (corpus/, artifacts/, logs);  SOURCES  the code under test
# FUZZ_SWIFTC_FLAGS, when set, is added to the fuzzer's swiftc line (a module built beforehand:
# `-I dir -L dir -lName`, see fuzz_module).
fuzz_run() {
    local name="$1" module="$2" seconds="$3" max_len="$4" dir="$5" out="$6"
    shift 6
    mkdir -p "$out/corpus" "$out/artifacts"
    cp -n "$dir"/seeds/* "$out/corpus/" 2>/dev/null || true

    echo "fuzz: building $out/$name"
    # (ld.gold warns about local ASan symbols it cannot export; harmless, kept in build.log.)
    # shellcheck disable=SC2086  # the flags are a list
    swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name "$module" -package-name "$module" ${FUZZ_SWIFTC_FLAGS:-} \
        "$@" "$dir/main.swift" -o "$out/$name" >"$out/build.log" 2>&1 \
        || { cat "$out/build.log" >&2; exit 1; }

    if compgen -G "$dir/regressions/*" >/dev/null; then
        echo "fuzz: replaying $dir/regressions"
        "$out/$name" "$dir"/regressions/* >"$out/regressions.log" 2>&1 \
            || { cat "$out/regressions.log" >&2; echo "fuzz: a regression input fails again" >&2; exit 1; }
    fi

    echo "fuzz: running for ${seconds}s"
    set +e
    "$out/$name" "$out/corpus" \
        -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$out/artifacts/" -print_final_stats=1 2>&1 | tee "$out/last-run.log" | grep -vE '^#[0-9]+\s+(NEW|REDUCE)'
    local status=${PIPESTATUS[0]}
    set -e

    local runs speed
    runs=$(grep -E '^stat::number_of_executed_units' "$out/last-run.log" | awk '{print $2}')
    speed=$(grep -E '^stat::average_exec_per_sec' "$out/last-run.log" | awk '{print $2}')
    echo "fuzz: ${runs:-?} executions in ${seconds}s, ${speed:-?} exec/s, exit status $status"
    if [ "$status" -ne 0 ]; then
        echo "fuzz: FAILURE — see $out/artifacts/" >&2
        exit "$status"
    fi
    echo "fuzz: no crashes"
}

# Builds SOURCES as a static library and module MODULE in OUT, instrumented like the fuzzer, for
# a target whose code imports it (Satellites imports Ephemeris); sets FUZZ_SWIFTC_FLAGS to use it.
# Usage: fuzz_module MODULE OUT SOURCES...
fuzz_module() {
    local module="$1" out="$2"
    shift 2
    mkdir -p "$out"
    echo "fuzz: building module $module"
    swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name "$module" -emit-module -emit-module-path "$out/$module.swiftmodule" \
        -emit-library -static "$@" -o "$out/lib$module.a" >"$out/build-$module.log" 2>&1 \
        || { cat "$out/build-$module.log" >&2; exit 1; }
    FUZZ_SWIFTC_FLAGS="-I $out -L $out -l$module"
}
