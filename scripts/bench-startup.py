#!/usr/bin/env python3
"""Start-up time of `solarsystem serve`: from the process's start to its first `/healthz` answer.

Each run starts `serve` as users run it (default flags, the access log on) with a fresh cache
file, polls `/healthz` every 2 ms until it answers, and stops the server. Runs alternate
between the default (the DE440 kernel) and `--ephemeris none` in the same session, so the two
are side by side on a noisy machine; the medians are printed with the date and the load
average before and after.

    swift build -c release
    python3 scripts/bench-startup.py                # 7 runs of each
    python3 scripts/bench-startup.py --runs 3 --bin .build/release/solarsystem

Standard library only.
"""
import argparse
import datetime as dt
import os
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def one_run(binary, extra, directory):
    """Milliseconds from starting `serve` to its first `/healthz` answer."""
    port = free_port()
    db = os.path.join(directory, f"startup-{port}.sqlite")
    args = [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db] + extra
    start = time.monotonic()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"serve exited with {proc.returncode} before answering: {' '.join(args)}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                    r.read()
                return (time.monotonic() - start) * 1000
            except OSError:
                time.sleep(0.002)
            if time.monotonic() - start > 60:
                raise SystemExit("no /healthz answer within 60 s")
    finally:
        proc.terminate()
        proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=".build/release/solarsystem", help="the server binary (default %(default)s)")
    ap.add_argument("--runs", type=int, default=7, help="runs of each configuration (default %(default)s)")
    args = ap.parse_args()
    configs = [("default (DE440 kernel)", []), ("--ephemeris none", ["--ephemeris", "none"])]
    times = {name: [] for name, _ in configs}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as directory:
        for _ in range(args.runs):
            for name, extra in configs:
                times[name].append(one_run(args.bin, extra, directory))
    load_after = os.getloadavg()
    print(f"{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC, load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    for name, ms in times.items():
        print(f"{name}: median {statistics.median(ms):.0f} ms over {len(ms)} runs ({min(ms):.0f}–{max(ms):.0f}): "
              + " ".join(f"{m:.0f}" for m in ms))


if __name__ == "__main__":
    main()
