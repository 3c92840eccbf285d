#!/usr/bin/env bash
# Builds the libFuzzer target for the element-set readers (Sources/Satellites over Sources/Ephemeris
# + Fuzz/ElementSets/main.swift) with AddressSanitizer and runs it. Usage: scripts/fuzz-elements.sh [seconds=60]
# Prints executions/second and exits non-zero if the fuzzer found a crash, a leak or a timeout
# (artifacts in .build-fuzz-elements/artifacts/).
#
# The corpus starts from Fuzz/ElementSets/seeds (TLE, OMM JSON and XML as CelesTrak serves them,
# and the hostile shapes of ElementSetHostileTests) and the verification set's TLEs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/fuzz-run.sh
mkdir -p .build-fuzz-elements/corpus
cp -n Tests/SatellitesTests/Fixtures/SGP4-VER.TLE .build-fuzz-elements/corpus/ 2>/dev/null || true
fuzz_module Ephemeris .build-fuzz-elements/modules Sources/Ephemeris/*.swift
fuzz_run element-sets-fuzzer ElementSetsFuzz "${1:-60}" 65536 Fuzz/ElementSets .build-fuzz-elements Sources/Satellites/*.swift
