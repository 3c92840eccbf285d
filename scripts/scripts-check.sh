#!/usr/bin/env bash
# scripts-check.sh: the scripts under scripts/ still work, so a check nobody runs cannot rot
# unnoticed. Every shell script (and .ci/run) must parse (`bash -n`, and `shellcheck -S error`
# when shellcheck is installed); every Python script must compile and answer `--help`; the
# cheap ones run against a release server: a few seconds of scripts/sse-load.py and of
# scripts/hostile-load.py (small waves), and scripts/mission-facts.py on Apollo 11. The long
# ones (replicas-check, browser-check, api-conformance, the benchmarks and fuzzers) are parsed
# here and run by .ci/run or by hand.
#
#   BIN=.build/release/solarsystem scripts/scripts-check.sh   # default: the release build
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
say() { printf '[scripts] %s\n' "$*"; }
bad() { say "FAIL: $*"; status=1; }

shopt -s nullglob globstar
shell_scripts=(scripts/*.sh .ci/run)
python_scripts=(scripts/**/*.py)

for f in "${shell_scripts[@]}"; do bash -n "$f" || bad "bash -n $f"; done
if command -v shellcheck >/dev/null 2>&1; then
    shellcheck -S error "${shell_scripts[@]}" || bad "shellcheck -S error"
else
    say "shellcheck is not installed: shell scripts checked with bash -n only"
fi

# Compiled into a throw-away cache, so no __pycache__ is left beside the scripts.
cache=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$cache"
}
trap cleanup EXIT
for f in "${python_scripts[@]}"; do
    PYTHONPYCACHEPREFIX="$cache" python3 -m py_compile "$f" || { bad "py_compile $f"; continue; }
    # A script that is a module (no command line) has nothing to answer; the others must.
    if grep -q "argparse" "$f"; then
        timeout 20 python3 "$f" --help >/dev/null 2>&1 || bad "$f --help"
    fi
done
say "${#shell_scripts[@]} shell and ${#python_scripts[@]} Python scripts parse"

BIN=${BIN:-.build/release/solarsystem}
if [ ! -x "$BIN" ]; then
    bad "no server binary at $BIN for the scripts that run (swift build -c release, or set BIN)"
    exit 1
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$BIN" serve --host 127.0.0.1 --port "$port" --db :memory: --log-format json --log-level warning >"$cache/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    sleep 0.2
done
curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null || { cat "$cache/server.log"; bad "the server did not become ready"; exit 1; }

out=$(python3 scripts/sse-load.py --port "$port" --clients 4 --seconds 3 --speed 100000 2>&1) || bad "sse-load.py: $out"
grep -q "errors 0, ended early 0, connect errors 0, non-200 0" <<<"$out" || bad "sse-load.py reported errors: $out"
# Two seconds quiet, two under small waves (the server has no AMC-4, so its pass days are 404s):
# enough to run every code path of the script (a refactor once left it calling a deleted function).
out=$(timeout 60 python3 scripts/hostile-load.py --port "$port" --pid "$server_pid" --seconds 2 --wave 2 --idle 4 2>&1) || bad "hostile-load.py: $out"
grep -q "^\[attack\] /healthz: [0-9]* answered" <<<"$out" || bad "hostile-load.py timed no /healthz under attack: $out"
out=$(python3 scripts/mission-facts.py --url "http://127.0.0.1:$port" apollo11 2>&1) || bad "mission-facts.py: $out"
grep -q "closest:" <<<"$out" || bad "mission-facts.py compared no fact: $out"

[ "$status" = 0 ] && say "ok: scripts parse, sse-load, hostile-load and mission-facts run"
exit "$status"
