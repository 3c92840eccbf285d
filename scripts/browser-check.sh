#!/usr/bin/env bash
# Browser check: the API driven from a page on another origin in headless Chromium (Debian's
# `chromium`), the way a front-end uses it. Fails unless every check page passes.
#
#   scripts/browser-check.sh                    # every page in scripts/browser-checks/
#   scripts/browser-check.sh cors.html          # only these pages
#   BIN=.build/release/solarsystem scripts/browser-check.sh   # use this server binary
#
# What runs (scripts/browser-checks/runner.py): two servers (CORS for any origin, and one whose
# --cors-origins lists only the page's origin), a proxy in front of the first that cuts the first
# event-stream connection right after Apollo 11's LM Undock, and a static server for the pages on
# another port (so another origin). Each page runs in a fresh Chromium profile and posts its
# results back; the run ends with "browser-check: N passed, M failed".
#
# Adding a check: put a page NAME.html in scripts/browser-checks/ that loads check.js, declares
# its checks with `check("what it shows", async () => { ... expect(cond, "why") ... })` and ends
# with `run()`. It gets the servers from its query string (`API`, `API_LISTED`, `STREAM`; see
# check.js) and is picked up by the next run; no list to edit. Keep a page under ~30 s.
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
    swift build --product solarsystem
    BIN="$(swift build --show-bin-path)/solarsystem"
fi
[[ -x "$BIN" ]] || { echo "browser-check: no server binary at $BIN" >&2; exit 1; }

exec python3 "$ROOT/scripts/browser-checks/runner.py" --binary "$BIN" --chromium "$CHROME" --repo "$ROOT" "$@"
