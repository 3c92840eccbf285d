#!/usr/bin/env bash
# The web viewer in headless Chromium (scripts/browser/viewer_check.py): page load without
# console errors, non-blank canvas, planets within 2 px of /v1/scene's projection (WebGL2 and the
# 2D fallback), presets, the picture link showing the page's view (pan included), controls and
# the reset keys in every view, labels, accessibility basics, API errors shown, a mission replay
# surviving a cut stream, the Earth close-up against the server's ray-cast picture, Eagle on the
# Moon, requests and frame rate of a 40 s replay, path traversal refused. Exits non-zero and
# names each failed check.
#
#   scripts/viewer-check.sh                         # builds and starts a release server itself
#   scripts/viewer-check.sh http://127.0.0.1:8080/  # checks a server that is already running
#
# Screenshots for the README go to docs/viewer.png (1280x720), docs/viewer-phone.png (390x844)
# and docs/viewer-saturn.png (1280x720); VIEWER_SCREENSHOTS=dir writes them elsewhere, VIEWER_SCREENSHOTS= (empty) skips
# them. Needs python3 and Chromium (apt-get install -y chromium).
# The replay's frame rate against the overview's and a bare WebGL2 page's (issue 39's goals:
# >= 0.9x and >= 0.6x) is judged; FRAME_RATE_BOUNDS=report prints it without judging (what
# scripts/browser-check.sh, and so CI, does on a shared machine).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null && ! command -v google-chrome >/dev/null; then
    echo "viewer-check: Chromium is needed (apt-get install -y chromium)" >&2
    exit 2
fi
shots="${VIEWER_SCREENSHOTS-docs}"
base="${1:-}"
if [ -z "$base" ]; then
    swift build -c release --product solarsystem
    bin="$(swift build -c release --show-bin-path)/solarsystem"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    log="$(mktemp)"
    "$bin" serve --host 127.0.0.1 --port "$port" --db :memory: --log-format json --log-level warning >"$log" 2>&1 &
    pid=$!
    trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
    for _ in $(seq 1 100); do
        curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
        kill -0 "$pid" 2>/dev/null || { echo "viewer-check: the server did not start:" >&2; cat "$log" >&2; exit 1; }
        sleep 0.2
    done
    base="http://127.0.0.1:$port/"
fi
args=(--base "$base")
[ -n "$shots" ] && args+=(--screenshots "$shots")
python3 scripts/browser/viewer_check.py "${args[@]}"
