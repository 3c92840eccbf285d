#!/usr/bin/env bash
# API conformance: validates openapi.yaml (OpenAPI 3.2), builds and starts the server on a free
# loopback port, checks that GET /openapi.yaml serves the file byte for byte, then runs the
# newest Schemathesis (upgraded from PyPI on every run) against every documented operation with
# `--checks all` and no exceptions: every schema-valid request must succeed and every
# schema-violating one must be refused. The mission replay stream runs under Schemathesis too
# (each case reads the stream for STREAM_READ_SECONDS; its events are checked against the
# spec's `itemSchema`), and a complete fast replay is checked with curl (step 6): ids strictly
# increasing, every event once, `end` last, a resume from Last-Event-ID, 204 after the end. The
# rendered views run with fewer examples and a pixel budget (step 5) and are also checked byte
# by byte (step 7). Exits non-zero on any failure.
#
#   scripts/api-conformance.sh                 # defaults: 50 examples per operation
#   MAX_EXAMPLES=200 scripts/api-conformance.sh
#   SKIP_BUILD=1 scripts/api-conformance.sh    # reuse the release build in .build-conformance/swift
#   BIN=.build/debug/solarsystem scripts/api-conformance.sh   # test this binary instead
#   VIEW_MAX_EXAMPLES=10 VIEW_MAX_PIXELS=262144 scripts/api-conformance.sh   # cheaper view renders
#
# Everything it installs or builds lives under .build-conformance/ (ignored by git):
#   venv/   Python virtual environment with pinned openapi-spec-validator and schemathesis
#   swift/  SwiftPM scratch path
#   report/ Schemathesis JUnit report, server log, the recorded replay stream
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

WORK="$ROOT/.build-conformance"
VENV="$WORK/venv"
SCRATCH="$WORK/swift"
REPORT="$WORK/report"
SPEC="$ROOT/openapi.yaml"
MAX_EXAMPLES="${MAX_EXAMPLES:-50}"
# Views (step 5): Hypothesis examples per view operation, and the most pixels (width x height) a
# generated view request may ask for (1 Mpx: tens of ms for a PNG in the release build made here,
# about 0.8 s in a debug build).
VIEW_MAX_EXAMPLES="${VIEW_MAX_EXAMPLES:-20}"
VIEW_MAX_PIXELS="${VIEW_MAX_PIXELS:-1048576}"
WORKERS="${WORKERS:-4}"
SEED="${SEED:-}"
# Each generated stream request is read this long (or until the replay ends), then judged.
STREAM_READ_SECONDS="${STREAM_READ_SECONDS:-3}"
STREAM_MAX_EXAMPLES="${STREAM_MAX_EXAMPLES:-15}"
# Pinned, so a run judges this repository and not a new release of the tools (the spec is
# OpenAPI 3.2: schemathesis >= 4.32 reads its `itemSchema`). Override to try newer ones, e.g.
# SCHEMATHESIS_SPEC=schemathesis (the newest).
SCHEMATHESIS_SPEC="${SCHEMATHESIS_SPEC:-schemathesis==4.32.5}"
VALIDATOR_SPEC="${VALIDATOR_SPEC:-openapi-spec-validator==0.9.0}"

mkdir -p "$WORK" "$REPORT"
rm -f "$REPORT/events.ndjson" "$REPORT/junit.xml"
log() { printf '==> %s\n' "$*" >&2; }

# --- 1. tools ---------------------------------------------------------------------------------
if [[ ! -x "$VENV/bin/python" ]]; then
    log "creating virtual environment in $VENV"
    python3 -m venv "$VENV"
fi
log "installing or upgrading $SCHEMATHESIS_SPEC and $VALIDATOR_SPEC"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet --upgrade "$SCHEMATHESIS_SPEC" "$VALIDATOR_SPEC"
log "$("$VENV/bin/schemathesis" --version)"

# --- 2. the spec on its own -------------------------------------------------------------------
log "validating $SPEC"
"$VENV/bin/openapi-spec-validator" "$SPEC"

# --- 3. the server ----------------------------------------------------------------------------
if [[ -z "${BIN:-}" ]]; then
    if [[ -z "${SKIP_BUILD:-}" ]]; then
        log "building the server, release (scratch path $SCRATCH)"
        swift build -c release --scratch-path "$SCRATCH" --product solarsystem
    fi
    BIN="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/solarsystem"
fi
[[ -x "$BIN" ]] || { echo "no server binary at $BIN" >&2; exit 1; }

PORT="${PORT:-$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')}"
BASE="http://127.0.0.1:$PORT"
SERVER_LOG="$REPORT/server.log"
log "starting the server on $BASE (log: $SERVER_LOG)"
# The trajectory sample cache lives in an in-memory SQLite database (migrated from Migrations/ at
# start-up), so every run starts cold and leaves nothing behind.
"$BIN" serve --host 127.0.0.1 --port "$PORT" --log-level warning \
    --db :memory: --migrations "$ROOT/Migrations" >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!
stop_server() {
    if kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
    wait "$SERVER_PID" 2>/dev/null || true
}
trap stop_server EXIT INT TERM

for i in $(seq 1 100); do
    if curl -fsS "$BASE/healthz" >/dev/null 2>&1; then break; fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        echo "the server exited during start-up:" >&2; cat "$SERVER_LOG" >&2; exit 1
    fi
    [[ $i -eq 100 ]] && { echo "the server did not answer /healthz within 20 s" >&2; exit 1; }
    sleep 0.2
done

# --- 4. the served document is the file -------------------------------------------------------
SERVED="$REPORT/served-openapi.yaml"
curl -fsS -H 'Accept-Encoding: identity' "$BASE/openapi.yaml" -o "$SERVED"
if cmp -s "$SERVED" "$SPEC"; then
    log "GET /openapi.yaml equals openapi.yaml byte for byte ($(wc -c <"$SPEC") bytes)"
    SERVED_OK=1
else
    echo "FAIL: GET /openapi.yaml differs from openapi.yaml:" >&2
    diff <(cat "$SPEC") "$SERVED" | head -20 >&2 || true
    SERVED_OK=0
fi

# --- 5. schemathesis --------------------------------------------------------------------------
# No exceptions: the spec says exactly what each parameter accepts, and where parameters overlap
# the server answers with a documented precedence, so every schema-valid request must get 2xx
# (or 3xx/404 for ids the generator invents, 422 where the data cannot answer a well-formed
# request: a kernel body outside its coverage) and every schema-violating one 4xx (414 for a URL
# over the 8 KiB request line included). The few rules that join two parameters (a sky table's
# 100,000 rows, ten years of events, lat with lon), which a schema cannot express, are applied to
# the schema-valid cases by the hook below before they are sent.
#
# /v1/missions/{id}/stream: a replay lasts replayEndHours x 3600 / speed seconds (hours for
# speeds near 0). Schemathesis reads an event stream until the request timeout and then judges
# the events it got against the spec's `itemSchema`, so the stream operation gets a short
# timeout (STREAM_READ_SECONDS) and STREAM_MAX_EXAMPLES examples; step 6 checks whole replays.
#
# Views are expensive: the server ray-casts every pixel (a 4096x4096 PNG takes ~0.6 s in the release
# build this script makes, ~13 s in a debug build; that PPM is 48 MiB). Every answer must come
# within 10 s (--max-response-time), pictures queued behind others included: with a debug build
# (BIN=.build/debug/…) on two cores that limit is reached by waiting, not by a slow answer. The schema keeps the
# true bounds (16..4096), so Schemathesis still generates and sends 4096 and its out-of-range
# neighbours; two things keep the run tractable without misdescribing the API:
#   * the view operations get VIEW_MAX_EXAMPLES (default 20) Hypothesis examples instead of
#     MAX_EXAMPLES (a per-operation generation override in the config below);
#   * a `before_call` hook ($WORK/hooks.py, loaded through SCHEMATHESIS_HOOKS) caps the pixel
#     count of a view request whose width and height are both valid (16..4096 integers; absent
#     means the 1280x720 default): when width x height > VIEW_MAX_PIXELS it lowers the *smaller*
#     side to max(16, VIEW_MAX_PIXELS // larger side) and sends the larger side as generated, so a
#     generated 4096 still reaches the server (4096x4096 becomes 4096x256) and the request stays
#     schema-valid. Requests whose width or height is invalid or repeated go out untouched (the
#     server rejects them before rendering). Schemathesis revalidates a case a hook edits, so the
#     checks judge what was actually sent.
# Step 7 also requests a 4096x4096 SVG and a 4096-wide PNG directly.
HOOKS="$WORK/hooks.py"
cat >"$HOOKS" <<'HOOK'
"""Schemathesis hooks for scripts/api-conformance.sh.

1. Views: caps the pixel count of generated view requests (VIEW_MAX_PIXELS).
2. Rules across parameters that a schema cannot express, each stated in openapi.yaml: a positive
   (schema-valid) case is brought within them before it is sent, so `positive_data_acceptance`
   judges everything else. Negative cases go out untouched. The rules:
   - `/v1/stars`: `lat` and `lon` come together (the other one is added as 0);
   - `/v1/sky`, `/v1/sky/events`: `earth` is not a body seen from the Earth (it is dropped);
   - `/v1/sky` tables: at most 100,000 rows (instants x bodies), fewer with `quantities`
     (V1API.skyRowCost): the step is coarsened;
   - `/v1/sky/events`: at most 3,660 days, 7,320 body-days and 31 satellite-days: `stop` is
     pulled in; a satellite's only events are passes: `pass` is added to `kinds`;
   - `/v1/transits`, `/v1/eclipses/local`: a place is `lat` with `lon` (and `elevation` needs
     them): the missing ones are added as 0; CSV is for solar eclipses (`format` is dropped
     for `kind=lunar`);
   - `/v1/close-approaches` (200 years), `/v1/kernels/export.bsp` (MAX_EXPORT_DAYS),
     `/v1/transits` and `/v1/eclipses/local` (1,000 years): `stop` after `start` and within the
     span (else `stop` is moved two days past `start`); `/v1/close-approaches`' `body` is a
     small body (a planet's id, which the schema's free names allow, becomes `sb:99942`);
   - `/v1/bodies`: `q`, `limit` and `offset` page the small bodies only: `kind` becomes
     `small-body`;
   - `/v1/missions/{id}/revolution`: `t` or `date` (`t=0` is added).
   The API's own tests check each rule's 400 directly.
"""
import math
import os
import re
import time

import schemathesis

MAX_PIXELS = int(os.environ.get("VIEW_MAX_PIXELS", "1048576"))
DEFAULTS = {"width": 1280, "height": 720}
MAX_SKY_ROWS = 100_000
MAX_SKY_WORK = 400_000   # V1API.maxSkyWork: rows x V1API.skyRowCost(quantities)
COMPUTED_QUANTITIES = 40  # 1-5, 7-11, 13-35, 41-47
MAX_EXPORT_DAYS = 366.0 * 20   # V1API.maxExportDays
MAX_EVENT_DAYS, MAX_BODY_DAYS, MAX_SATELLITE_DAYS = 3660.0, 7320.0, 31.0
SKY_DEFAULT_BODIES = 10   # the Sun, the Moon, the planets but the Earth, and Pluto
ISO = re.compile(r"^([+-]?\d{4})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d)(?::(\d\d(?:\.\d+)?))?Z?)?$")
STEP = re.compile(r"^(\d*\.?\d*)([dhms])$")
UNIT = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0}


def _sky_row_cost(query):
    """V1API.skyRowCost: a plain row is 1; with quantities, 4 plus 0.2 a quantity plus 3 for rates."""
    raw = str(query.get("quantities", ""))
    if not raw:
        return 1.0
    numbers = set(range(1, 48)) if raw.lower() == "all" else set(raw.split(","))
    count = COMPUTED_QUANTITIES if raw.lower() == "all" else len(numbers)
    rates = raw.lower() == "all" or bool(numbers & {"3", "5", "47"})
    return 4 + 0.2 * count + (3 if rates else 0)


def _size(query, name):
    """The effective size in pixels, or None when the value is malformed, repeated or out of 16..4096."""
    if name not in query:
        return DEFAULTS[name]
    value = query[name]
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return None
    text = str(value)
    if not (text.isascii() and text.isdigit() and len(text) <= 18):
        return None
    n = int(text)
    return n if 16 <= n <= 4096 else None


def _days_from_civil(y, m, d):
    """Days from 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm)."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _civil_from_days(z):
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (m <= 2), m, d


def _seconds(value):
    """A DateInput as seconds since 1970 (UTC, leap seconds ignored), or None when it is not one."""
    if not isinstance(value, str):
        return None
    if value == "now":
        return time.time()
    if value.startswith("jd:"):
        try:
            return (float(value[3:]) - 2440587.5) * 86400.0
        except ValueError:
            return None
    m = ISO.match(value)
    if not m:
        return None
    y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    hh, mm, ss = int(m.group(4) or 0), int(m.group(5) or 0), float(m.group(6) or 0)
    return _days_from_civil(y, mo, d) * 86400.0 + hh * 3600 + mm * 60 + ss


def _date(seconds):
    """Seconds since 1970 as a DateInput to the minute (rounded down)."""
    days, rest = divmod(int(math.floor(seconds / 60.0)) * 60, 86400)
    y, m, d = _civil_from_days(days)
    sign = "-" if y < 0 else ""
    return f"{sign}{abs(y):04d}-{m:02d}-{d:02d}T{rest // 3600:02d}:{rest % 3600 // 60:02d}Z"


def _bodies(query):
    value = query.get("bodies")
    return value.split(",") if isinstance(value, str) and value else None


def _is_satellite(body):
    return body == "iss" or body.startswith("norad:")


def _cross_parameter_rules(case):
    path, q = case.operation.path, case.query
    if path in ("/v1/stars", "/v1/sky", "/v1/sky/events"):
        if "lat" in q and "lon" not in q:
            q["lon"] = "0"
        elif "lon" in q and "lat" not in q:
            q["lat"] = "0"
    if path == "/v1/eclipses/local" and q.get("kind") == "lunar" and q.get("format") == "csv":
        del q["format"]
    if path in ("/v1/transits", "/v1/eclipses/local") and any(k in q for k in ("lat", "lon", "elevation")):
        q.setdefault("lat", "0")
        q.setdefault("lon", "0")
    spans = {"/v1/close-approaches": 200 * 365.25, "/v1/kernels/export.bsp": MAX_EXPORT_DAYS,
             "/v1/transits": 365250.0, "/v1/eclipses/local": 365250.0}
    if path in spans and "start" in q and "stop" in q:
        start, stop = _seconds(q["start"]), _seconds(q["stop"])
        if start is not None and stop is not None and not (start + 60 < stop < start + spans[path] * 86400.0 - 120):
            q["stop"] = _date(start + 2 * 86400.0)
    if path == "/v1/close-approaches" and not str(q.get("body", "sb:")).startswith("sb:"):
        q["body"] = "sb:99942"
    if path == "/v1/bodies" and any(k in q for k in ("q", "limit", "offset")) and q.get("kind") not in ("small-body", "asteroid", "comet"):
        q["kind"] = "small-body"
    if path == "/v1/missions/{id}/revolution" and "t" not in q and "date" not in q:
        q["t"] = "0"
    if path not in ("/v1/sky", "/v1/sky/events"):
        return
    bodies = _bodies(q)
    if bodies is not None and "earth" in bodies:
        bodies = [b for b in bodies if b != "earth"] or ["sun"]
        q["bodies"] = ",".join(bodies)
    start = _seconds(q.get("start", "now"))
    if path == "/v1/sky":
        if not any(k in q for k in ("start", "stop", "step")):
            return
        stop = _seconds(q["stop"]) if "stop" in q else start
        step = STEP.match(str(q.get("step", "1d")))
        if start is None or stop is None or not step:
            return
        step_s = float(step.group(1)) * UNIT[step.group(2)]
        allowed = min(MAX_SKY_ROWS, int(MAX_SKY_WORK / _sky_row_cost(q))) // len(bodies or range(SKY_DEFAULT_BODIES))
        span = max(stop - start, 0.0)
        if step_s > 0 and span / step_s + 2 > allowed:
            q["step"] = f"{math.ceil(span / (allowed - 2)) + 1}s"
        return
    bodies = bodies or ["sun", "moon"]
    satellites = sum(_is_satellite(b) for b in bodies)
    if satellites and "kinds" in q and "pass" not in str(q["kinds"]).split(","):
        q["kinds"] = f"{q['kinds']},pass"
    stop = _seconds(q["stop"]) if "stop" in q else None
    if start is None or stop is None:
        return
    limit = min(MAX_EVENT_DAYS, MAX_BODY_DAYS / len(bodies), MAX_SATELLITE_DAYS / satellites if satellites else math.inf)
    if (stop - start) / 86400.0 > limit:
        q["stop"] = _date(start + limit * 86400.0 - 120.0)


@schemathesis.hook
def before_call(context, case, kwargs):
    if not isinstance(case.query, dict):
        return
    meta = case.meta
    if meta is not None and meta.generation.mode.is_positive:
        _cross_parameter_rules(case)
    if not case.operation.path.startswith("/v1/views/"):
        return
    w, h = _size(case.query, "width"), _size(case.query, "height")
    if w is None or h is None or w * h <= MAX_PIXELS:
        return
    smaller = "height" if h <= w else "width"
    case.query[smaller] = max(16, MAX_PIXELS // max(w, h))
HOOK
CONFIG="$WORK/schemathesis.toml"
cat >"$CONFIG" <<EOF
[cache]
directory = "$WORK/schemathesis-cache"

# 422: a well-formed request the data cannot answer (a kernel body outside its coverage, a date
# SGP4 cannot reach), as the spec documents; 414: a URL over the server's 8 KiB request line,
# a rejection like any 4xx.
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]

[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "414", "415", "422", "428", "429", "5xx"]

[[operations]]
include-path = "/v1/missions/{id}/stream"
request-timeout = $STREAM_READ_SECONDS
generation.max-examples = $STREAM_MAX_EXAMPLES

[[operations]]
include-path = ["/v1/views/system.svg", "/v1/views/system.ppm", "/v1/views/system.png"]
generation.max-examples = $VIEW_MAX_EXAMPLES

# The Horizons dialect: its parameters are Horizons' own grammar in free strings (quoted
# values, SITE_COORD triples, STEP_SIZE units), which no schema can state; as JPL's API does, a
# value the grammar refuses gets 400 with Horizons' error text. So schema-valid is not valid
# here, and that check also takes 400: the rest (no 5xx, statuses, media types, schemas) holds,
# and scripts/check-horizons-astroquery.py checks the dialect against astroquery.
[[operations]]
include-path = "/api/horizons.api"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "422", "429", "5xx"]
EOF

ST_ARGS=(
    --url "$BASE"
    --checks all
    --phases examples,coverage,fuzzing,stateful
    --mode all
    --workers "$WORKERS"
    --max-examples "$MAX_EXAMPLES"
    --request-timeout 30
    --max-response-time 10
    --suppress-health-check too_slow,filter_too_much,data_too_large
    --report junit,ndjson --report-dir "$REPORT"
    --report-junit-path "$REPORT/junit.xml" --report-ndjson-path "$REPORT/events.ndjson"
)
[[ -n "$SEED" ]] && ST_ARGS+=(--seed "$SEED")

log "schemathesis run openapi.yaml ${ST_ARGS[*]}"
set +e
SCHEMATHESIS_HOOKS="$HOOKS" VIEW_MAX_PIXELS="$VIEW_MAX_PIXELS" \
    "$VENV/bin/schemathesis" --config-file "$CONFIG" run "$SPEC" "${ST_ARGS[@]}" 2>&1 | tee "$REPORT/schemathesis.txt"
ST_STATUS=${PIPESTATUS[0]}
set -e

# --- 6. the mission replay stream ---------------------------------------------------------------
# Schemathesis (step 5) reads each stream for a few seconds; here whole replays. One complete fast
# replay (Apollo 11 at 1e6 x: about a second) must arrive as text/event-stream, open with
# `retry: 2000`, carry telemetry and mission-event events with strictly increasing ids (MET ms,
# `.n` within a millisecond) whose data match the spec's schemas, and end with `event: end`
# (reason `completed`) after which the server closes the stream. A resume with Last-Event-ID must
# deliver exactly the events after it, a reconnect after the end must get 204, and bad parameters
# must get problem+json 400/404 before any stream starts.
STREAM="$REPORT/stream.txt"
log "checking GET /v1/missions/{id}/stream with curl"
set +e
curl -sS -N --max-time 30 -D "$REPORT/stream-headers.txt" -o "$STREAM" \
    "$BASE/v1/missions/apollo11/stream?speed=1e6&rate=30"
CURL_STATUS=$?
curl -sS -N --max-time 30 -H 'Last-Event-ID: 700000000' -o "$REPORT/stream-resumed.txt" \
    "$BASE/v1/missions/apollo11/stream?speed=1e6"
CURL_RESUME_STATUS=$?
"$VENV/bin/python" - "$SPEC" "$BASE" "$REPORT" "$CURL_STATUS" "$CURL_RESUME_STATUS" <<'PY'
import json, re, sys, urllib.error, urllib.request
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

spec_path, base, report, curl_status, resume_status = sys.argv[1:6]
spec = yaml.safe_load(open(spec_path, encoding="utf-8"))
registry = Registry().with_resource("urn:spec", Resource.from_contents(spec, default_specification=DRAFT202012))
def validator(name):
    return Draft202012Validator({"$ref": f"urn:spec#/components/schemas/{name}"}, registry=registry)
# The replay's expected end and event count come from the mission's own description.
with urllib.request.urlopen(f"{base}/v1/missions/apollo11", timeout=10) as r:
    mission = json.loads(r.read())
REPLAY_END = round(mission["replayEndHours"], 4)
EVENT_COUNT = len(mission["events"])
schemas = {"telemetry": validator("Telemetry"), "mission-event": validator("StreamMissionEvent"),
           "end": validator("StreamEnd"), "problem": validator("Problem")}
ID = re.compile(r"^([0-9]{1,15})(?:\.([0-9]{1,6}))?$")
failures = []
def fail(msg):
    failures.append(msg)

def parse(text):
    """SSE blocks as dicts (field -> value; data lines joined with newlines)."""
    blocks = []
    for raw in text.replace("\r\n", "\n").split("\n\n"):
        if not raw.strip():
            continue
        block = {}
        for line in raw.split("\n"):
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            block[field] = block[field] + "\n" + value if field in block else value
        blocks.append(block)
    return blocks

def check_events(name, blocks, after=(-1, -1)):
    """Checks a recorded stream; returns its events as (kind, id, data)."""
    if not blocks or blocks[0] != {"retry": "2000"}:
        fail(f"{name}: does not open with 'retry: 2000' (got {blocks[:1]})")
    events = [b for b in blocks if "event" in b]
    kinds = [b["event"] for b in events]
    if not kinds or kinds[-1] != "end":
        fail(f"{name}: the last event is {kinds[-1:] or 'missing'}, not 'end'")
    if kinds.count("end") != 1:
        fail(f"{name}: {kinds.count('end')} 'end' events")
    if "telemetry" not in kinds:
        fail(f"{name}: no telemetry event")
    last_id, last_tick, out = after, float("-inf"), []
    for b in events:
        kind = b["event"]
        if kind not in schemas:
            fail(f"{name}: unknown event {kind!r}"); continue
        try:
            data = json.loads(b.get("data", ""))
        except ValueError as e:
            fail(f"{name}: {kind} data is not JSON: {e}"); continue
        for err in list(schemas[kind].iter_errors(data))[:3]:
            fail(f"{name}: {kind} data violates the schema at {list(err.absolute_path)}: {err.message[:200]}")
        m = ID.match(b.get("id", ""))
        if not m:
            fail(f"{name}: {kind} has no replay id ({b.get('id')!r})"); continue
        event_id = (int(m.group(1)), int(m.group(2) or 0))
        if event_id <= last_id:
            fail(f"{name}: ids do not increase ({last_id} then {event_id})")
        last_id = event_id
        t = data.get("t") if isinstance(data, dict) else None
        if isinstance(t, (int, float)) and abs(round(t * 3_600_000) - event_id[0]) > 1:
            fail(f"{name}: {kind} id {b['id']} is not the MET in ms of t={t}")
        if kind == "telemetry" and isinstance(t, (int, float)):
            if t <= last_tick:
                fail(f"{name}: telemetry t={t} after {last_tick}")
            last_tick = t
        if kind == "mission-event" and isinstance(t, (int, float)) and t < last_tick:
            fail(f"{name}: the event at t={t} comes after telemetry at {last_tick}")
        out.append((kind, b["id"], b.get("data", "")))
    if kinds and kinds[-1] == "end":
        end = json.loads(events[-1]["data"])
        if end.get("reason") != "completed" or not isinstance(end.get("t"), (int, float)) or round(end["t"], 4) != REPLAY_END:
            fail(f"{name}: end event {end} is not a completed replay at {REPLAY_END} h (replayEndHours)")
    return out

if curl_status != "0":
    fail(f"stream: curl exited {curl_status} (28 = the stream did not end within 30 s)")
headers = open(f"{report}/stream-headers.txt", encoding="utf-8", errors="replace").read().lower()
for needle in ("http/1.1 200", "content-type: text/event-stream", "cache-control: no-store", "x-request-id:"):
    if needle not in headers:
        fail(f"stream: response head lacks {needle!r}")
full = check_events("stream", parse(open(f"{report}/stream.txt", encoding="utf-8").read()))
kinds = [k for k, _, _ in full]
if kinds.count("mission-event") != EVENT_COUNT:
    fail(f"stream: {kinds.count('mission-event')} mission-event events, expected Apollo 11's {EVENT_COUNT}")
if resume_status != "0":
    fail(f"resumed stream: curl exited {resume_status}")
resumed_events = check_events("resumed stream", parse(open(f"{report}/stream-resumed.txt", encoding="utf-8").read()), (700_000_000, 0))
resumed = [k for k, _, _ in resumed_events]
tail = [e for e in full if e[0] != "telemetry" and (int(e[1].split(".")[0]), int((e[1].split(".") + ["0"])[1])) > (700_000_000, 0)]
if [e for e in resumed_events if e[0] != "telemetry"] != tail:
    fail(f"resumed stream: mission events and end {[e[1] for e in resumed_events if e[0] != 'telemetry']} "
         f"are not the recording's after 700000000 {[e[1] for e in tail]}")

# After the end: 204 without a body, for a reconnect with the end's id and for `from` past the end.
for headers, query in (({"Last-Event-ID": full[-1][1] if full else "703080000.2"}, "speed=1e6"), ({}, "from=999")):
    req = urllib.request.Request(f"{base}/v1/missions/apollo11/stream?{query}", headers={**headers, "Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req, timeout=10) as r:
        body = r.read()
        if r.status != 204 or body or r.headers.get("Content-Encoding"):
            fail(f"stream {query} {headers}: {r.status} with {len(body)} bytes, expected an empty 204")

# Errors come before the stream starts, as problems.
for query, status in (("apollo11/stream?speed=0", 400), ("apollo11/stream?speed=1e9", 400),
                      ("apollo11/stream?rate=31", 400), ("apollo11/stream?from=1378691", 400),
                      ("apollo11/stream?foo=1", 400), ("vulcan/stream", 404)):
    try:
        r = urllib.request.urlopen(f"{base}/v1/missions/{query}", timeout=10)
        got, ctype, body = r.status, r.headers.get("Content-Type", ""), r.read(4096)
        r.close()
    except urllib.error.HTTPError as e:
        got, ctype, body = e.code, e.headers.get("Content-Type", ""), e.read()
    if got != status or not ctype.startswith("application/problem+json"):
        fail(f"{query}: {got} {ctype}, expected {status} application/problem+json")
        continue
    for err in list(schemas["problem"].iter_errors(json.loads(body)))[:3]:
        fail(f"{query}: problem violates the schema: {err.message[:200]}")

for f in failures:
    print(f"FAIL: {f}", file=sys.stderr)
print(f"stream: {len(kinds)} events ({kinds.count('telemetry')} telemetry, {kinds.count('mission-event')} mission-event, "
      f"{kinds.count('end')} end); resumed: {len(resumed)} events; {len(failures)} failures", file=sys.stderr)
sys.exit(1 if failures else 0)
PY
STREAM_STATUS=$?
set -e

# --- 7. the rendered views, byte by byte ----------------------------------------------------------
# Schemathesis cannot look inside image bodies. Small renders must be what their Content-Type
# says: a PNG with the 8-byte signature and an IHDR of the requested size (also at the 4096 bound,
# 4096x16), a P6 PPM of exactly header + width x height x 3 bytes, an SVG that parses as XML
# (python3 xml.etree) with the requested root width/height (also 4096x4096, cheap for a vector
# drawing). Fixed dates and missions are cacheable for 60 s, not immutable (the pictures draw the
# ISS from element sets that can be reloaded: docs/http.md), with an ETag that answers
# If-None-Match with 304; absent dates are no-store without one. Errors are problems with the documented status.
log "checking GET /v1/views/system.{png,ppm,svg} directly"
set +e
"$VENV/bin/python" - "$SPEC" "$BASE" <<'PY'
import json, re, struct, sys, urllib.error, urllib.request
import xml.etree.ElementTree as ET
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

spec_path, base = sys.argv[1:3]
spec = yaml.safe_load(open(spec_path, encoding="utf-8"))
registry = Registry().with_resource("urn:spec", Resource.from_contents(spec, default_specification=DRAFT202012))
problem_schema = Draft202012Validator({"$ref": "urn:spec#/components/schemas/Problem"}, registry=registry)
REVALIDATE = "public, max-age=60"
failures, passed = [], 0

def fail(msg):
    failures.append(msg)

def get(query, headers=None):
    req = urllib.request.Request(f"{base}/v1/views/{query}", headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()

def expect_image(query, media, cache_control, etag):
    status, headers, body = get(query)
    ctype = headers.get("Content-Type", "")
    if status != 200 or ctype.split(";")[0].strip() != media:
        fail(f"{query}: {status} {ctype}, expected 200 {media}"); return None
    if headers.get("Cache-Control") != cache_control:
        fail(f"{query}: Cache-Control {headers.get('Cache-Control')!r}, expected {cache_control!r}")
    tag = headers.get("ETag")
    if etag and not (tag and re.fullmatch(r'"[0-9a-f]{32}"', tag)):
        fail(f"{query}: ETag {tag!r}, expected a strong 32-hex tag")
    if not etag and tag is not None:
        fail(f"{query}: ETag {tag!r} on a no-store answer")
    if not headers.get("X-Request-Id"):
        fail(f"{query}: no X-Request-Id")
    if etag and tag:
        again, _, rest = get(query, {"If-None-Match": tag})
        if again != 304 or rest:
            fail(f"{query}: If-None-Match {tag} gave {again} with {len(rest)} bytes, expected an empty 304")
    return body

def check_png(query, width, height, **kw):
    global passed
    body = expect_image(query, "image/png", **kw)
    if body is None:
        return
    if body[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{query}: no PNG signature (starts {body[:8]!r})"); return
    length, kind = struct.unpack(">I4s", body[8:16])
    if kind != b"IHDR" or length != 13:
        fail(f"{query}: first chunk is {kind!r} ({length} bytes), not a 13-byte IHDR"); return
    w, h, depth, colour = struct.unpack(">IIBB", body[16:26])
    if (w, h) != (width, height):
        fail(f"{query}: IHDR says {w}x{h}, expected {width}x{height}")
    if depth != 8 or colour not in (2, 6):
        fail(f"{query}: IHDR bit depth {depth}, colour type {colour}; expected 8-bit RGB(A)")
    if body[-12:-4] != b"\x00\x00\x00\x00IEND":
        fail(f"{query}: does not end with an IEND chunk")
    passed += 1

def check_ppm(query, width, height, **kw):
    global passed
    body = expect_image(query, "image/x-portable-pixmap", **kw)
    if body is None:
        return
    # P6 header: magic, width, height, maxval separated by whitespace (comments allowed), then one
    # whitespace byte before the raster.
    m = re.match(rb"P6(?:\s+(?:#[^\n]*\n\s*)*)(\d+)(?:\s+(?:#[^\n]*\n\s*)*)(\d+)(?:\s+(?:#[^\n]*\n\s*)*)(\d+)\s", body)
    if not m:
        fail(f"{query}: no P6 header (starts {body[:20]!r})"); return
    w, h, maxval = (int(g) for g in m.groups())
    if (w, h, maxval) != (width, height, 255):
        fail(f"{query}: header says {w}x{h} maxval {maxval}, expected {width}x{height} maxval 255")
    if len(body) != m.end() + w * h * 3:
        fail(f"{query}: {len(body)} bytes, expected a {m.end()}-byte header + {w}x{h}x3 = {m.end() + w * h * 3}")
    passed += 1

def check_svg(query, width, height, **kw):
    global passed
    body = expect_image(query, "image/svg+xml", **kw)
    if body is None:
        return
    try:
        root = ET.fromstring(body)
    except ET.ParseError as e:
        fail(f"{query}: the SVG does not parse as XML: {e}"); return
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        fail(f"{query}: root element {root.tag}, expected svg in the SVG namespace")
    if (root.get("width"), root.get("height")) != (str(width), str(height)):
        fail(f"{query}: root width/height {root.get('width')}x{root.get('height')}, expected {width}x{height}")
    passed += 1

def check_problem(query, status, parameter=None, valid_ids=False):
    global passed
    got, headers, body = get(query)
    ctype = headers.get("Content-Type", "")
    if got != status or not ctype.startswith("application/problem+json"):
        fail(f"{query}: {got} {ctype}, expected {status} application/problem+json"); return
    problem = json.loads(body)
    for err in list(problem_schema.iter_errors(problem))[:3]:
        fail(f"{query}: problem violates the schema: {err.message[:200]}")
    if parameter and problem.get("parameter") != parameter:
        fail(f"{query}: problem names parameter {problem.get('parameter')!r}, expected {parameter!r}")
    if valid_ids and not problem.get("validIds"):
        fail(f"{query}: problem has no validIds")
    passed += 1

fixed = dict(cache_control=REVALIDATE, etag=True)
now = dict(cache_control="no-store", etag=False)
check_png("system.png?date=2026-01-01&width=64&height=48", 64, 48, **fixed)
check_png("system.png?date=2026-01-01&width=4096&height=16&labels=none", 4096, 16, **fixed)
check_png("system.png?mission=apollo11&t=80&width=40&height=30", 40, 30, **fixed)
check_ppm("system.ppm?date=2026-01-01&width=64&height=48&labels=all", 64, 48, **fixed)
check_ppm("system.ppm?width=17&height=16", 17, 16, **now)
check_ppm("system.ppm?mission=cassini&t=1000&width=33&height=20&focus=saturn", 33, 20, **fixed)
check_svg("system.svg?date=2026-01-01&width=64&height=48", 64, 48, **fixed)
check_svg("system.svg?width=320&height=200&focus=saturn&labels=planets,stars", 320, 200, **now)
check_svg("system.svg?date=2026-01-01&width=4096&height=4096", 4096, 4096, **fixed)
check_svg("system.svg?mission=apollo11&t=102.75&width=200&height=100&azimuth=1&elevation=-0.5&distance=3", 200, 100, **fixed)

for fmt in ("svg", "ppm", "png"):
    check_problem(f"system.{fmt}?width=4097", 400, "width")
check_problem("system.svg?height=15", 400, "height")
check_problem("system.svg?focus=vulcan", 400, "focus", valid_ids=True)
check_problem("system.png?mission=vulcan", 404, "mission", valid_ids=True)
check_problem("system.svg?distance=0", 400, "distance")
check_problem("system.svg?elevation=1.6", 400, "elevation")
check_problem("system.svg?azimuth=abc", 400, "azimuth")
check_problem("system.svg?labels=planets,comets", 400, "labels")
check_problem("system.svg?t=-1", 400, "t")
check_problem("system.svg?mission=apollo11&t=1378691", 400, "t")
check_problem("system.svg?foo=1", 400, "foo")
check_problem("system.svg?width=64&width=64", 400, "width")

for f in failures:
    print(f"FAIL: {f}", file=sys.stderr)
print(f"views: {passed} checks passed, {len(failures)} failures", file=sys.stderr)
sys.exit(1 if failures else 0)
PY
VIEWS_STATUS=$?
set -e

# --- 8. summary -------------------------------------------------------------------------------
echo
echo "================ API conformance summary ================"
echo "spec validation            : ok"
if [[ $SERVED_OK -eq 1 ]]; then
    echo "/openapi.yaml == file      : ok"
else
    echo "/openapi.yaml == file      : FAILED"
fi
if [[ $ST_STATUS -eq 0 ]]; then
    echo "schemathesis (all checks)  : ok"
else
    echo "schemathesis (all checks)  : FAILED (exit $ST_STATUS; see $REPORT/schemathesis.txt)"
fi
if [[ $STREAM_STATUS -eq 0 ]]; then
    echo "mission stream (curl)      : ok (complete replay ends with event: end; resume; 204 after the end; errors)"
else
    echo "mission stream (curl)      : FAILED (see above and $REPORT/stream.txt)"
fi
if [[ $VIEWS_STATUS -eq 0 ]]; then
    echo "views (PNG/PPM/SVG bytes)  : ok (PNG signature + IHDR, PPM length, SVG parses; errors)"
else
    echo "views (PNG/PPM/SVG bytes)  : FAILED (see above)"
fi
# Per-check tallies over every test case, from the NDJSON event log.
if [[ -s "$REPORT/events.ndjson" ]]; then
    "$VENV/bin/python" - "$REPORT/events.ndjson" <<'PY'
import collections, json, sys

counts = collections.defaultdict(collections.Counter)

def walk(node):
    if isinstance(node, dict):
        checks = node.get("checks")
        if isinstance(checks, dict):
            for results in checks.values():
                for r in results if isinstance(results, list) else []:
                    if isinstance(r, dict) and "name" in r and "status" in r:
                        counts[r["name"]][r["status"]] += 1
        for key, value in node.items():
            if key != "checks":
                walk(value)
    elif isinstance(node, list):
        for value in node:
            walk(value)

with open(sys.argv[1]) as f:
    for line in f:
        if line.strip():
            walk(json.loads(line))

total = collections.Counter()
print(f"{'check':<30} {'passed':>8} {'failed':>8} {'skipped':>8}")
for name in sorted(counts):
    c = counts[name]
    total.update(c)
    print(f"{name:<30} {c['success']:>8} {c['failure']:>8} {c['skip']:>8}")
print(f"{'all checks':<30} {total['success']:>8} {total['failure']:>8} {total['skip']:>8}")
PY
fi
sed -n '/^Test cases:/,/^Seed:/p' "$REPORT/schemathesis.txt" | grep -v '^$' || true
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "server                     : CRASHED during the run (see $SERVER_LOG)"
    exit 1
fi
echo "=========================================================="

[[ $SERVED_OK -eq 1 && $ST_STATUS -eq 0 && $STREAM_STATUS -eq 0 && $VIEWS_STATUS -eq 0 ]]
