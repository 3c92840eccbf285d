#!/usr/bin/env python3
"""Load generators for scripts/bench-api.sh (and by hand), against a running server.

  heavy  --port P --seconds S     8 clients fetching /v1/orbits?samples=4096 with gzip and 2
                                  fetching 70,000-sample series, in a loop, for S seconds; prints
                                  the answers completed.
  slow   --port P --pid PID       200 clients (--clients) that ask for the largest answers with a
                                  4 KiB receive buffer and never read; samples the server's VmRSS
                                  every 0.5 s for --seconds and prints the peak (MiB), then closes.
"""
import argparse
import socket
import threading
import time

HEAVY = ["/v1/orbits?date=now&samples=4096"] * 8 + [
    "/v1/positions/moon?start=2026-01-01&stop=2027-12-31&step=15m&center=earth"] * 2
LARGEST = [
    "/v1/orbits?date=2026-11-22&samples=4096", "/v1/orbits?date=now&samples=4096",
    "/v1/positions/mars?start=1950-01-01&stop=2026-01-01&step=7h&format=csv",
    "/v1/stars", "/v1/stars?format=csv", "/v1/missions/cassini/trajectory?samples=20000",
]


def read_response(sock):
    """Reads one HTTP/1.1 response (Content-Length or chunked) and returns the body size."""
    f = sock.makefile("rb")
    status = f.readline()
    length, chunked = None, False
    while True:
        line = f.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        if name.lower() == "content-length":
            length = int(value)
        if name.lower() == "transfer-encoding" and "chunked" in value.lower():
            chunked = True
    total = 0
    if chunked:
        while True:
            size = int(f.readline().split(b";")[0], 16)
            if size == 0:
                f.readline()
                break
            total += len(f.read(size))
            f.readline()
    elif length is not None:
        total = len(f.read(length))
    return status, total


def heavy(args):
    stop = time.monotonic() + args.seconds
    done = [0]
    lock = threading.Lock()

    def worker(i, path):
        while time.monotonic() < stop:
            try:
                s = socket.create_connection((args.host, args.port))
                gzip = "Accept-Encoding: gzip\r\n" if i < 8 else ""
                s.sendall(f"GET {path} HTTP/1.1\r\nHost: load\r\n{gzip}Connection: close\r\n\r\n".encode())
                status, _ = read_response(s)
                s.close()
                if b" 200 " in status:
                    with lock:
                        done[0] += 1
            except OSError:
                time.sleep(0.05)

    threads = [threading.Thread(target=worker, args=(i, p)) for i, p in enumerate(HEAVY)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"heavy: {done[0]} heavy answers completed in {args.seconds} s")


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def slow(args):
    before = rss_mib(args.pid)
    socks = []
    for i in range(args.clients):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect((args.host, args.port))
        enc = "gzip" if i % 2 == 0 else "identity"
        s.sendall(f"GET {LARGEST[i % len(LARGEST)]} HTTP/1.1\r\nHost: load\r\nAccept-Encoding: {enc}\r\n\r\n".encode())
        socks.append(s)
    peak = 0.0
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        time.sleep(0.5)
        peak = max(peak, rss_mib(args.pid))
    print(f"slow: {args.clients} clients that do not read: resident {before:.1f} MiB before, peak {peak:.1f} MiB")
    for s in socks:
        s.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["heavy", "slow"])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--pid", type=int)
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--clients", type=int, default=200)
    args = p.parse_args()
    heavy(args) if args.mode == "heavy" else slow(args)


if __name__ == "__main__":
    main()
