#!/usr/bin/env python3
"""What a /v1/sky observer table costs the server, by the quantities it asks for.

Asks a running server (`solarsystem serve`, a release build) for the same CSV table (ten bodies,
--instants instants) with no quantities and with each set below, and reads the server's CPU time
from /proc around each answer (the machine's other load does not count). Prints, per set, the
CPU time, µs per row, the cost in plain rows (ratio to the table without quantities) and the
server's estimate of it, V1API.skyRowCost (4 + 0.2 a quantity + 3 for the rates), which V1API.maxSkyWork bounds
(400,000 plain rows) so that a table is refused before its head rather than stopped mid-stream by
the 10 s CPU budget. Medians of --runs runs. The estimate should be at or above the measured cost.

    python3 scripts/bench-sky-table.py --port 8080 --pid $(pgrep -f 'solarsystem serve')
"""
import argparse
import datetime
import statistics
import sys
import urllib.request

sys.path.insert(0, __import__("os").path.dirname(__file__))
from proc_stats import cpu_seconds  # noqa: E402

SETS = [("none", None), ("1", "1"), ("20", "20"), ("1-5", "1,2,3,4,5"), ("41-47", "41,42,43,44,45,46,47"),
        ("13-20", "13,14,15,16,17,18,19,20"), ("3", "3"), ("all (40)", "all")]
COUNTS = {"none": 0, "1": 1, "20": 1, "1-5": 5, "41-47": 7, "13-20": 8, "3": 1, "all (40)": 40}
BODIES = "sun,moon,mercury,venus,mars,jupiter,saturn,uranus,neptune,pluto"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--pid", type=int, required=True, help="the server's process id (its CPU time is read from /proc)")
    ap.add_argument("--instants", type=int, default=2000, help="instants per table (ten bodies each)")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    if cpu_seconds(args.pid) is None:
        sys.exit(f"no process {args.pid}")
    begin = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    rows = args.instants * 10
    per_row = {}
    for name, quantities in SETS:
        times = []
        for run in range(args.runs):
            # A distinct start each run, so no answer comes from the cache.
            a = begin + datetime.timedelta(seconds=run)
            b = a + datetime.timedelta(minutes=5 * (args.instants - 1))
            url = (f"http://127.0.0.1:{args.port}/v1/sky?lat=52&lon=0&format=csv&bodies={BODIES}&step=5m"
                   f"&start={a:%Y-%m-%dT%H:%M:%SZ}&stop={b:%Y-%m-%dT%H:%M:%SZ}" + (f"&quantities={quantities}" if quantities else ""))
            before = cpu_seconds(args.pid)
            with urllib.request.urlopen(url, timeout=120) as r:
                body = r.read()
                if r.status != 200:
                    sys.exit(f"{url}: {r.status}")
            after = cpu_seconds(args.pid)
            lines = body.count(b"\n") - 1
            if lines != rows:
                sys.exit(f"{url}: {lines} rows, expected {rows}")
            times.append(after - before)
        per_row[name] = statistics.median(times) / rows
    plain = per_row["none"]
    print(f"sky table: {args.instants} instants x 10 bodies = {rows} rows, CSV, server CPU, median of {args.runs}")
    for name, _ in SETS:
        count = COUNTS[name]
        rates = name in ("1-5", "41-47", "3", "all (40)")   # they hold 3, 5 or 47
        estimate = 1 if count == 0 else 4 + 0.2 * count + (3 if rates else 0)
        print(f"  quantities {name:9s}: {per_row[name] * 1e6:7.1f} µs a row, {per_row[name] / plain:5.2f} plain rows (estimate {estimate:.1f})")


if __name__ == "__main__":
    main()
