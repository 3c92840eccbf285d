#!/usr/bin/env bash
# Builds the libFuzzer target for the HTTP parser (Sources/HTTPCore/Core + Fuzz/HTTPParser/main.swift)
# with AddressSanitizer and runs it. Usage: scripts/fuzz-http.sh [seconds=60]
# Prints executions/second and exits non-zero if the fuzzer found a crash (artifacts in
# .build-fuzz/artifacts/).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/fuzz-run.sh
fuzz_run http-parser-fuzzer HTTPParserFuzz "${1:-60}" 4096 Fuzz/HTTPParser .build-fuzz Sources/HTTPCore/Core/*.swift
