#!/usr/bin/env bash
# Builds the libFuzzer target for the DAF/SPK reader (Sources/Ephemeris + Fuzz/SPKReader/main.swift)
# with AddressSanitizer and runs it. Usage: scripts/fuzz-spk.sh [seconds=60]
# Prints executions/second and exits non-zero if the fuzzer found a crash (artifacts in
# .build-fuzz-spk/artifacts/).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/fuzz-run.sh
fuzz_run spk-reader-fuzzer SPKReaderFuzz "${1:-60}" 16384 Fuzz/SPKReader .build-fuzz-spk Sources/Ephemeris/*.swift
