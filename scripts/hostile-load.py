#!/usr/bin/env python3
"""Issue 34's attacks against a running server, with /healthz and an uncached /v1/positions timed
meanwhile: the figures a hostile client must not move.

The attacks, in waves, from many connections at once:
  - a day of passes of a deep-space satellite far from its set's epoch (the 700-s request), each
    at another date so nothing is cached; the satellite must be in the server's --tle
    (AMC-4, NORAD 25954, from the SGP4 verification set: see --print-tle);
  - the same requests abandoned a moment after they are sent (the client closes);
  - long series (100,000 rows) of a body, streamed, read slowly then dropped;
  - half-sent requests and idle connections.
Meanwhile /healthz and /v1/positions at a new date each time (never cached) are timed every
100 ms on fresh connections. Prints their p50/p99/max before and during the attack and the
server's CPU seconds (--pid) the attack cost.

usage: scripts/hostile-load.py --port 8080 --pid $(pgrep -f 'solarsystem serve') [--seconds 20]
       scripts/hostile-load.py --print-tle > amc4.tle     # then: solarsystem serve --tle amc4.tle
"""
import argparse
import asyncio
import random
import time

from proc_stats import cpu_seconds

AMC4 = ("AMC-4\n"
        "1 25954U 99060A   04039.68057285 -.00000108  00000-0  00000-0 0  6847\n"
        "2 25954   0.0004 243.8136 0001765  15.5294  22.7134  1.00271289 15615\n")


async def get(host, port, target, timeout=30.0):
    """One GET on a fresh connection; returns (status, seconds)."""
    t0 = time.monotonic()
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    try:
        writer.write(f"GET {target} HTTP/1.1\r\nHost: load\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        status = int(head.split(b" ", 2)[1])
        while await asyncio.wait_for(reader.read(65536), timeout):
            pass
        return status, time.monotonic() - t0
    finally:
        writer.close()


async def probe(args, name, make_target, stop, out):
    """GETs `make_target(n)` every 100 ms until `stop`, appending (status, seconds) to `out`."""
    n = 0
    while time.monotonic() < stop:
        n += 1
        try:
            out.append(await get(args.host, args.port, make_target(n)))
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
            out.append((0, float("inf")))
        await asyncio.sleep(0.1)


def day(n):
    """A different date each time (no cache hit), inside DE440's span."""
    return "%04d-%02d-%02dT%02d:%02d:00Z" % (1950 + n % 140, 1 + n % 12, 1 + n % 28, n % 24, (n * 7) % 60)


async def deep_space(args, n, abandon):
    year = 2500 + (n * 37) % 499
    target = f"/v1/sky/events?kinds=pass&bodies=norad:25954&lat={n % 60}&lon={n % 170}&start={year}-01-01&stop={year}-01-02"
    if abandon:
        reader, writer = await asyncio.open_connection(args.host, args.port)
        writer.write(f"GET {target} HTTP/1.1\r\nHost: load\r\n\r\n".encode())
        await writer.drain()
        await asyncio.sleep(0.05)
        writer.close()
        return 499
    status, _ = await get(args.host, args.port, target, timeout=120)
    return status


async def slow_series(args, n):
    """A long CSV series (about 88,000 rows), read slowly for 2 s, then dropped."""
    reader, writer = await asyncio.open_connection(args.host, args.port, limit=4096)
    target = f"/v1/positions/mars?start=19{50 + n % 40}-01-01T{n % 24:02d}:00:00Z&stop=20{10 + n % 40}-01-01&step=6h&format=csv"
    writer.write(f"GET {target} HTTP/1.1\r\nHost: load\r\n\r\n".encode())
    await writer.drain()
    for _ in range(20):
        await reader.read(4096)
        await asyncio.sleep(0.1)
    writer.close()


async def half_sent(args):
    reader, writer = await asyncio.open_connection(args.host, args.port)
    writer.write(b"GET /v1/positions?date=2026-01-01 HTTP/1.1\r\nHost: lo")
    await writer.drain()
    await asyncio.sleep(args.seconds)
    writer.close()


async def attack(args, stop, outcomes):
    """Three loops at once until `stop`: waves of deep-space pass days (every other one abandoned),
    slow long series, and half-sent requests held open. `outcomes` counts what each attack got."""
    async def passes():
        n = 0
        while time.monotonic() < stop:
            wave = [deep_space(args, n + i, abandon=(i % 2 == 1)) for i in range(args.wave)]
            n += args.wave
            for r in await asyncio.gather(*wave, return_exceptions=True):
                key = f"pass day {r}" if isinstance(r, int) else f"pass day {type(r).__name__}"
                outcomes[key] = outcomes.get(key, 0) + 1

    async def series():
        n = 0
        while time.monotonic() < stop:
            wave = [slow_series(args, n + i) for i in range(max(1, args.wave // 4))]
            n += len(wave)
            for r in await asyncio.gather(*wave, return_exceptions=True):
                key = "slow series dropped" if r is None else f"slow series {type(r).__name__}"
                outcomes[key] = outcomes.get(key, 0) + 1

    idle = [asyncio.create_task(half_sent(args)) for _ in range(args.idle)]
    await asyncio.gather(passes(), series())
    for t in idle:
        t.cancel()
    outcomes["half-sent held"] = args.idle


def summary(name, rows):
    ok = sorted(s for st, s in rows if st == 200)
    bad = sum(1 for st, _ in rows if st != 200)
    if not ok:
        return f"{name}: no answers ({bad} failed)"
    p = lambda q: ok[min(len(ok) - 1, int(q * len(ok)))] * 1000
    return f"{name}: {len(ok)} answered, {bad} failed; p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, max {ok[-1] * 1000:.1f} ms"


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int)
    ap.add_argument("--pid", type=int)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--wave", type=int, default=10, help="requests per wave")
    ap.add_argument("--idle", type=int, default=200, help="half-sent requests held open")
    ap.add_argument("--print-tle", action="store_true")
    args = ap.parse_args()
    if args.print_tle:
        print(AMC4, end="")
        return
    if not args.port:
        ap.error("--port is required")
    for phase in ("quiet", "attack"):
        stop = time.monotonic() + args.seconds
        health, positions = [], []
        cpu0 = cpu_seconds(args.pid) if args.pid else None
        jobs = [probe(args, "healthz", lambda n: "/healthz", stop, health),
                probe(args, "positions", lambda n: f"/v1/positions?date={day(n + random.randint(0, 10**6))}", stop, positions)]
        outcomes = {}
        if phase == "attack":
            jobs.append(attack(args, stop, outcomes))
        await asyncio.gather(*jobs)
        cpu1 = cpu_seconds(args.pid) if args.pid else None
        print(f"[{phase}] " + summary("/healthz", health))
        print(f"[{phase}] " + summary("uncached /v1/positions", positions))
        if cpu0 is not None and cpu1 is not None:
            print(f"[{phase}] server CPU {cpu1 - cpu0:.1f} s in {args.seconds:.0f} s")
        if outcomes:
            print(f"[{phase}] attacks: " + ", ".join(f"{k} × {v}" for k, v in sorted(outcomes.items())))


if __name__ == "__main__":
    asyncio.run(main())
