#!/usr/bin/env bash
# Browser check: the API driven from a page on another origin in headless Chromium (Debian's
# `chromium`), the way a front-end uses it. Fails unless every check page passes.
#
#   scripts/browser-check.sh                    # every page in scripts/browser-checks/, then the viewer
#   scripts/browser-check.sh cors.html          # only these pages (and no viewer check)
#   scripts/browser-check.sh viewer             # only the viewer check
#   BIN=.build/debug/solarsystem scripts/browser-check.sh     # use this server binary (default:
#                                                             # a release build, made here)
#
# What runs (scripts/browser-checks/runner.py): two servers (CORS for any origin, and one whose
# --cors-origins lists only the page's origin), a proxy in front of the first that cuts the first
# event-stream connection right after Apollo 11's undocking, and a static server for the pages on
# another port (so another origin). Each page runs in a fresh Chromium profile and posts its
# results back; the run ends with "browser-check: N passed, M failed".
#
# Adding a check: put a page NAME.html in scripts/browser-checks/ that loads check.js, declares
# its checks with `check("what it shows", async () => { ... expect(cond, "why") ... })` and ends
# with `run()`. It gets the servers from its query string (`API`, `API_LISTED`, `STREAM`; see
# check.js) and is picked up by the next run; no list to edit. Keep a page under ~30 s.
#
# The viewer (scripts/viewer-check.sh → scripts/browser/viewer_check.py) runs last against its own
# server from the same binary: the page at `/` loads without console errors and draws, planets
# within 2 px of /v1/scene's projection, controls, a cut mission stream, path traversal refused.
# Its screenshots are not rewritten here (VIEWER_SCREENSHOTS=docs does that).
#
# Chromium: used from PATH (`chromium`, `chromium-browser`, or $CHROMIUM); when missing, installed
# with apt-get if this user can (root, or passwordless sudo). Where it cannot be installed the
# check is skipped with a message and exit status 0, or fails when REQUIRE_BROWSER=1.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

find_chromium() {
    for c in "${CHROMIUM:-}" chromium chromium-browser; do
        [[ -n "$c" ]] && command -v "$c" >/dev/null 2>&1 && { command -v "$c"; return 0; }
    done
    return 1
}

skip() {
    echo "browser-check: SKIPPED: $*"
    [[ "${REQUIRE_BROWSER:-}" == "1" ]] && exit 1
    exit 0
}

if ! CHROME="$(find_chromium)"; then
    command -v apt-get >/dev/null 2>&1 || skip "no chromium on PATH and no apt-get to install it"
    SUDO=""
    if [[ "$(id -u)" -ne 0 ]]; then
        sudo -n true 2>/dev/null || skip "no chromium on PATH and no root or passwordless sudo to install it"
        SUDO="sudo -n"
    fi
    echo "browser-check: installing chromium (apt-get)"
    if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null; }; then
        skip "apt-get could not install chromium"
    fi
    CHROME="$(find_chromium)" || skip "chromium was installed but is not on PATH"
fi
echo "browser-check: $("$CHROME" --version 2>/dev/null | head -1)"

if [[ -z "${BIN:-}" ]]; then
    swift build -c release --product solarsystem
    BIN="$(swift build -c release --show-bin-path)/solarsystem"
fi
[[ -x "$BIN" ]] || { echo "browser-check: no server binary at $BIN" >&2; exit 1; }

# No arguments: every page, then the viewer. Otherwise the pages named, and the viewer if named.
pages=()
viewer=0
[[ $# -eq 0 ]] && viewer=1
for a in "$@"; do
    if [[ "$a" == viewer ]]; then viewer=1; else pages+=("$a"); fi
done
status=0
if [[ $# -eq 0 || ${#pages[@]} -gt 0 ]]; then
    python3 "$ROOT/scripts/browser-checks/runner.py" --binary "$BIN" --chromium "$CHROME" --repo "$ROOT" ${pages[@]+"${pages[@]}"} || status=1
fi

if [[ $viewer -eq 1 ]]; then
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    log="$(mktemp)"
    "$BIN" serve --host 127.0.0.1 --port "$port" --db :memory: --log-format json --log-level warning >"$log" 2>&1 &
    pid=$!
    trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
    for _ in $(seq 1 150); do
        curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
        kill -0 "$pid" 2>/dev/null || { echo "browser-check: the viewer's server did not start:" >&2; cat "$log" >&2; exit 1; }
        sleep 0.2
    done
    echo "browser-check: the viewer (scripts/viewer-check.sh)"
    # Frame-rate ratios are printed but not judged here (CI shares its machine): FRAME_RATE_BOUNDS.
    PATH="$(dirname "$CHROME"):$PATH" VIEWER_SCREENSHOTS="${VIEWER_SCREENSHOTS-}" FRAME_RATE_BOUNDS="${FRAME_RATE_BOUNDS:-report}" \
        scripts/viewer-check.sh "http://127.0.0.1:$port/" || status=1
fi
exit $status
