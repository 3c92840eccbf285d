#!/usr/bin/env bash
# replicas-check.sh: three replicas of the server behind nginx on loopback, as a load balancer
# in front of a scaled-out deployment would run them, and the checks that make them
# interchangeable:
#   1. load spread over the replicas (every one serves a share);
#   2. a rolling restart under that load: each replica in turn gets SIGTERM, drains, exits 0 and
#      is started again, and no client request fails (nginx retries what a closing replica
#      refuses: proxy_next_upstream; the retries are counted from its log);
#   3. an event stream cut mid-replay resumes with Last-Event-ID on a different replica: every
#      event once, in order, and the mission events are exactly those of an uncut replay;
#   4. ETags (identity and gzip) are equal on every replica for the same answer, and
#      If-None-Match gets 304 whichever replica answers, so a CDN or browser cache holds
#      across them.
#
#   scripts/replicas-check.sh                   # processes: builds the release binary first
#   BIN=.build/release/solarsystem scripts/replicas-check.sh
#   MODE=docker IMAGE=solarsystem scripts/replicas-check.sh   # three containers instead
#
# Needs nginx (Debian's; installed with apt-get when missing and run as root), curl, python3.
# Loopback only: ports BASE_PORT (nginx) and BASE_PORT+1…+3 (replicas), default 18180.
# Runs about a minute; .ci/run runs it (process mode) with the release binary it built.
set -euo pipefail
cd "$(dirname "$0")/.."

MODE=${MODE:-process}
BASE_PORT=${BASE_PORT:-18180}
LOAD_SECONDS=${LOAD_SECONDS:-25}
IMAGE=${IMAGE:-solarsystem}
PROXY=$BASE_PORT
REPLICAS=(1 2 3)
WORK=$(mktemp -d)
chmod 755 "$WORK"
declare -A PIDS=()
NGINX_STARTED=0
say() { printf '[replicas] %s\n' "$*"; }
fail() { say "FAIL: $*"; exit 1; }
port_of() { echo $((BASE_PORT + $1)); }

command -v python3 >/dev/null || fail "python3 is needed"
command -v curl >/dev/null || fail "curl is needed"
if ! command -v nginx >/dev/null; then
    [ "$(id -u)" = 0 ] || fail "nginx is missing (apt-get install nginx)"
    say "installing nginx"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
fi

case $MODE in
process)
    if [ -z "${BIN:-}" ]; then
        say "swift build -c release --product solarsystem"
        swift build -c release --product solarsystem >"$WORK/build.log" 2>&1 || { tail -30 "$WORK/build.log"; fail "build"; }
        BIN=$(swift build -c release --show-bin-path)/solarsystem
    fi
    [ -x "$BIN" ] || fail "no executable at $BIN"
    ;;
docker)
    docker image inspect "$IMAGE" >/dev/null 2>&1 || fail "no image $IMAGE (scripts/docker-check.sh builds one)"
    ;;
*) fail "MODE must be process or docker" ;;
esac

# Replica i: its own port and its own cache (the SQLite file is per replica; nothing is shared).
start_replica() {
    local i=$1 port
    port=$(port_of "$i")
    if [ "$MODE" = docker ]; then
        if docker inspect "solarsystem-replica-$i" >/dev/null 2>&1; then
            docker start "solarsystem-replica-$i" >/dev/null
        else
            docker run -d --name "solarsystem-replica-$i" --network host --read-only \
                -e SOLARSYSTEM_HOST=127.0.0.1 -e SOLARSYSTEM_PORT="$port" \
                -v "solarsystem-replica-$i:/data" "$IMAGE" >/dev/null
        fi
    else
        mkdir -p "$WORK/replica-$i"
        "$BIN" serve --host 127.0.0.1 --port "$port" --db "$WORK/replica-$i/cache.sqlite" \
            --log-format json --shutdown-grace 8 >>"$WORK/replica-$i.log" 2>&1 &
        PIDS[$i]=$!
    fi
}

wait_ready() {
    local i=$1
    for _ in $(seq 300); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$(port_of "$i")/readyz")" = 200 ] && return 0
        sleep 0.2
    done
    fail "replica $i not ready after 60 s"
}

# SIGTERM, then wait for the exit: STOP_CODE (its exit status) and STOP_MS (how long it took).
stop_replica() {
    local i=$1 start
    start=$(date +%s%N)
    if [ "$MODE" = docker ]; then
        docker stop -t 10 "solarsystem-replica-$i" >/dev/null
        STOP_CODE=$(docker inspect -f '{{.State.ExitCode}}' "solarsystem-replica-$i")
    else
        kill -TERM "${PIDS[$i]}"
        STOP_CODE=0
        wait "${PIDS[$i]}" || STOP_CODE=$?
        unset "PIDS[$i]"
    fi
    STOP_MS=$(( ($(date +%s%N) - start) / 1000000 ))
}

cleanup() {
    set +e
    for i in "${!PIDS[@]}"; do kill -TERM "${PIDS[$i]}" 2>/dev/null; wait "${PIDS[$i]}" 2>/dev/null; done
    if [ "$MODE" = docker ]; then
        for i in "${REPLICAS[@]}"; do
            docker rm -f "solarsystem-replica-$i" >/dev/null 2>&1
            docker volume rm "solarsystem-replica-$i" >/dev/null 2>&1
        done
    fi
    [ "$NGINX_STARTED" = 1 ] && [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null
    sleep 0.3
    rm -rf "$WORK"
}
trap cleanup EXIT

for i in "${REPLICAS[@]}"; do start_replica "$i"; done
for i in "${REPLICAS[@]}"; do wait_ready "$i"; done
say "3 replicas ready ($MODE) on ports $(port_of 1)-$(port_of 3)"

# nginx as a user process with its own prefix. Keep-alive to the replicas (as a production proxy
# would), retries of what a draining replica refuses or closes, no buffering for event streams
# (the server also sends X-Accel-Buffering: no), and the replica that answered in X-Upstream.
mkdir -p "$WORK/nginx"
user_line=""
[ "$(id -u)" = 0 ] && user_line="user root root;"
upstreams=""
for i in "${REPLICAS[@]}"; do upstreams+="    server 127.0.0.1:$(port_of "$i") max_fails=1 fail_timeout=2s;"$'\n'; done
cat >"$WORK/nginx.conf" <<EOF
$user_line
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 2048; }
http {
  log_format replicas '\$status "\$upstream_addr" "\$upstream_status" \$request_time "\$request"';
  access_log $WORK/nginx-access.log replicas;
  client_body_temp_path $WORK/nginx/body;
  proxy_temp_path $WORK/nginx/proxy;
  fastcgi_temp_path $WORK/nginx/fastcgi;
  uwsgi_temp_path $WORK/nginx/uwsgi;
  scgi_temp_path $WORK/nginx/scgi;
  upstream solarsystem {
$upstreams    keepalive 32;
  }
  server {
    listen 127.0.0.1:$PROXY;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host \$host;
    proxy_connect_timeout 2s;
    proxy_next_upstream error timeout http_502 http_503;
    proxy_next_upstream_tries 3;
    add_header X-Upstream \$upstream_addr always;
    location / {
      proxy_pass http://solarsystem;
    }
    location ~ ^/v1/missions/[^/]+/stream\$ {
      proxy_pass http://solarsystem;
      proxy_buffering off;
      proxy_read_timeout 1h;
    }
  }
}
EOF
nginx -t -q -c "$WORK/nginx.conf" -p "$WORK/nginx" 2>"$WORK/nginx-t.log" || { cat "$WORK/nginx-t.log"; fail "nginx configuration"; }
nginx -c "$WORK/nginx.conf" -p "$WORK/nginx"
NGINX_STARTED=1
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PROXY/healthz" && break; sleep 0.1; done
say "nginx on 127.0.0.1:$PROXY"

# --- 1 and 2: load, and a rolling restart in the middle of it -------------------------------
python3 - "$PROXY" "$LOAD_SECONDS" >"$WORK/load.json" 2>"$WORK/load.err" <<'EOF' &
# Keep-alive clients through the proxy, each request a GET of a mix of cached and computed
# answers; every status, failure and answering replica is counted.
import http.client, json, random, sys, threading, time
port, seconds = int(sys.argv[1]), float(sys.argv[2])
targets = ["/healthz", "/v1/bodies", "/v1/positions?date=2026-11-22", "/v1/scene?date=2026-11-22",
           "/v1/missions/apollo11/telemetry?t={t}", "/v1/positions?date=2026-{m:02d}-{d:02d}T{h:02d}:00:00Z",
           "/v1/rotations?date=2027-{m:02d}-{d:02d}"]
lock = threading.Lock()
statuses, upstreams, failures = {}, {}, []
end = time.time() + seconds
def client(seed):
    rng = random.Random(seed)
    conn = None
    while time.time() < end:
        path = rng.choice(targets).format(t=rng.uniform(0, 190), m=rng.randint(1, 12), d=rng.randint(1, 28), h=rng.randint(0, 23))
        try:
            if conn is None:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
            conn.request("GET", path)
            r = conn.getresponse()
            r.read()
            with lock:
                statuses[r.status] = statuses.get(r.status, 0) + 1
                up = r.getheader("X-Upstream", "?")
                upstreams[up] = upstreams.get(up, 0) + 1
                if r.status != 200:
                    failures.append(f"{r.status} {path}")
            if r.getheader("Connection", "").lower() == "close":
                conn.close(); conn = None
        except Exception as e:
            with lock:
                failures.append(f"{type(e).__name__}: {e} {path}")
            if conn is not None:
                conn.close()
            conn = None
threads = [threading.Thread(target=client, args=(i,)) for i in range(8)]
for t in threads: t.start()
for t in threads: t.join()
json.dump({"statuses": statuses, "upstreams": upstreams, "failures": failures[:20], "failed": len(failures)}, sys.stdout)
EOF
LOAD=$!
sleep 4
for i in "${REPLICAS[@]}"; do
    stop_replica "$i"
    [ "$STOP_CODE" = 0 ] || fail "replica $i exited $STOP_CODE after SIGTERM"
    say "rolling restart: replica $i drained and exited 0 in $STOP_MS ms"
    start_replica "$i"
    wait_ready "$i"
    say "rolling restart: replica $i ready again"
    sleep 1
done
wait "$LOAD" || { cat "$WORK/load.err"; fail "the load generator failed"; }
python3 - "$WORK/load.json" "$WORK/nginx-access.log" "$BASE_PORT" <<'EOF' || fail "load"
import json, sys
r = json.load(open(sys.argv[1]))
total = sum(r["statuses"].values())
print(f"[replicas] load: {total} requests, statuses {r['statuses']}, by replica {r['upstreams']}")
retried = [l for l in open(sys.argv[2]) if ", " in l.split('"')[1]]
print(f"[replicas] nginx retried {len(retried)} requests on another replica (refused or closed by a draining one)")
for l in retried[:5]: print("[replicas]   " + l.strip())
base = int(sys.argv[3])
ok = True
for i in (1, 2, 3):
    key = f"127.0.0.1:{base + i}"
    if not any(key in u for u in r["upstreams"]):
        print(f"[replicas] FAIL: replica {i} served nothing"); ok = False
if r["failed"]:
    print(f"[replicas] FAIL: {r['failed']} requests failed: {r['failures']}"); ok = False
if total < 100:
    print("[replicas] FAIL: too few requests to mean anything"); ok = False
sys.exit(0 if ok else 1)
EOF

# --- 3: an event stream cut and resumed on another replica -----------------------------------
python3 - "$PROXY" "$(port_of 1)" <<'EOF' || fail "event stream resume"
import socket, select, sys, time
proxy, direct = int(sys.argv[1]), int(sys.argv[2])
PATH = "/v1/missions/apollo11/stream?speed=200000&rate=10"

def open_stream(port, last_id=None):
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    extra = f"Last-Event-ID: {last_id}\r\n" if last_id is not None else ""
    s.sendall(f"GET {PATH} HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\n{extra}\r\n".encode())
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = s.recv(65536)
        if not chunk: raise SystemExit("stream closed before its head")
        buf += chunk
    head, rest = buf.split(b"\r\n\r\n", 1)
    lines = head.decode().split("\r\n")
    assert " 200 " in lines[0] + " ", lines[0]
    headers = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
    assert headers.get("transfer-encoding") == "chunked", headers
    return s, headers, rest

class Events:
    """Server-sent events out of a chunked body, read as they come."""
    def __init__(self, sock, rest):
        self.sock, self.raw, self.body, self.done = sock, rest, b"", False
    def _dechunk(self):
        while True:
            i = self.raw.find(b"\r\n")
            if i < 0: return
            size = int(self.raw[:i].split(b";")[0], 16)
            if size == 0: self.done = True; return
            if len(self.raw) < i + 2 + size + 2: return
            self.body += self.raw[i + 2:i + 2 + size]
            self.raw = self.raw[i + 2 + size + 2:]
    def parsed(self):
        out = []
        while b"\n\n" in self.body:
            block, self.body = self.body.split(b"\n\n", 1)
            ev = {"event": "message", "id": None, "data": []}
            for line in block.decode().split("\n"):
                if not line or line.startswith(":"): continue
                k, _, v = line.partition(":")
                v = v[1:] if v.startswith(" ") else v
                if k == "data": ev["data"].append(v)
                elif k in ("event", "id"): ev[k] = v
            if ev["data"] or ev["id"] is not None: out.append(ev)
        return out
    def read(self, quiet=None):
        """The next events; with quiet=seconds, [] when nothing arrives for that long."""
        while True:
            self._dechunk()
            evs = self.parsed()
            if evs or self.done: return evs
            if quiet is not None and not select.select([self.sock], [], [], quiet)[0]: return []
            chunk = self.sock.recv(65536)
            if not chunk: self.done = True; return self.parsed()
            self.raw += chunk

def mission_events(evs): return [e["data"][0] for e in evs if e["event"] == "mission-event"]

# The reference: one uncut replay straight from replica 1.
s, _, rest = open_stream(direct)
reader, reference = Events(s, rest), []
while not reader.done and not any(e["event"] == "end" for e in reference):
    reference += reader.read()
s.close()
assert reference and reference[-1]["event"] == "end", reference[-3:]

# Through the proxy: read at least 1 s and 3 mission events, then cut between two ticks (after
# a telemetry event, once nothing more arrives for 50 ms: a tick's events are written together).
s, h1, rest = open_stream(proxy)
first_replica = h1.get("x-upstream")
reader, got, started = Events(s, rest), [], time.time()
while True:
    evs = reader.read()
    got += evs
    assert not any(e["event"] == "end" for e in got), "the replay ended before the cut"
    if time.time() - started > 1.0 and len(mission_events(got)) >= 3 and got[-1]["event"] == "telemetry":
        more = reader.read(quiet=0.05)
        got += more
        if not more: break
s.close()
last_id = got[-1]["id"]
cut_at = len(got)

# Resume with Last-Event-ID, on another replica (the proxy spreads connections round robin).
for attempt in range(12):
    s, h2, rest = open_stream(proxy, last_id)
    if h2.get("x-upstream") != first_replica: break
    s.close()
else:
    raise SystemExit(f"every reconnect went to {first_replica}")
reader = Events(s, rest)
while not reader.done and not any(e["event"] == "end" for e in got[cut_at:]):
    got += reader.read()
s.close()

def event_key(i):
    # Stream ids as the spec says: MET milliseconds, then `.n` when several events share one
    # millisecond (`n = 0` written as the bare count): compare as (ms, n).
    ms, _, n = i.partition(".")
    return (int(ms), int(n or 0))
ids = [event_key(e["id"]) for e in got if e["id"] is not None]
keys = [(e["event"], e["id"], tuple(e["data"])) for e in got]
problems = []
if any(b < a for a, b in zip(ids, ids[1:])): problems.append("ids go backwards")
if len(set(keys)) != len(keys): problems.append("an event arrived twice")
if mission_events(got) != mission_events(reference): problems.append(f"mission events {mission_events(got)} != uncut {mission_events(reference)}")
if got[-1]["event"] != "end": problems.append("no end event")
if event_key(got[cut_at]["id"]) <= event_key(last_id) and got[cut_at]["event"] == "telemetry": problems.append("the resumed stream repeats the last telemetry")
print(f"[replicas] event stream: cut after {cut_at} events (id {last_id}) on {first_replica}, resumed on {h2.get('x-upstream')}: "
      f"{len(got)} events, {len(mission_events(got))} mission events as in the uncut replay, ids in order, none twice")
if problems:
    print("[replicas] FAIL: " + "; ".join(problems)); sys.exit(1)
EOF

# --- 4: ETags equal across replicas ----------------------------------------------------------
for target in "/v1/positions?date=2026-11-22" "/v1/scene?date=2026-11-22" "/v1/bodies" "/v1/missions/apollo11" "/v1/rotations?date=2026-11-22"; do
    for enc in identity gzip; do
        tags=()
        for i in "${REPLICAS[@]}"; do
            tag=$(curl -s -o /dev/null -D - -H "Accept-Encoding: $enc" "http://127.0.0.1:$(port_of "$i")$target" |
                tr -d '\r' | awk -F': ' 'tolower($1) == "etag" { print $2 }')
            [ -n "$tag" ] || fail "$target ($enc) from replica $i has no ETag"
            tags+=("$tag")
        done
        if [ "${tags[0]}" != "${tags[1]}" ] || [ "${tags[1]}" != "${tags[2]}" ]; then fail "$target ($enc): ETags differ: ${tags[*]}"; fi
        # Revalidation through the proxy: 304 from whichever replica answers.
        for _ in 1 2 3; do
            code=$(curl -s -o /dev/null -w '%{http_code}' -H "Accept-Encoding: $enc" -H "If-None-Match: ${tags[0]}" "http://127.0.0.1:$PROXY$target")
            [ "$code" = 304 ] || fail "$target ($enc): If-None-Match through the proxy answered $code"
        done
    done
done
say "ETags: equal on the 3 replicas for 5 answers, identity and gzip; If-None-Match gets 304 through the proxy"
say "all checks passed"
