#!/usr/bin/env bash
# Builds the libFuzzer target for the DAF/SPK reader (Sources/Ephemeris + Fuzz/SPKReader/main.swift)
# with AddressSanitizer and runs it. Usage: scripts/fuzz-spk.sh [seconds=60]
# Prints executions/second and exits non-zero if the fuzzer found a crash (artifacts in
# .build-fuzz-spk/artifacts/).
#
# The corpus starts from Fuzz/SPKReader/seeds (DE440 excerpts) and the test kernels of every SPK
# type the reader evaluates (Tests/EphemerisTests/Fixtures/spk-samples, up to 240 KiB each,
# hence the input limit).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/fuzz-run.sh
mkdir -p .build-fuzz-spk/corpus
cp -n Tests/EphemerisTests/Fixtures/spk-samples/*.bsp .build-fuzz-spk/corpus/ 2>/dev/null || true
fuzz_run spk-reader-fuzzer SPKReaderFuzz "${1:-60}" 262144 Fuzz/SPKReader .build-fuzz-spk Sources/Ephemeris/*.swift
