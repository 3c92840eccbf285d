#!/usr/bin/env python3
"""Open N idle TCP connections to HOST:PORT and hold them (for scripts/bench-http.sh).

Prints "idle: holding K connections" once they are open, then sleeps until SIGTERM/SIGINT or
--seconds elapse; on exit prints how many the server had closed meanwhile.
"""
import argparse
import resource
import select
import signal
import socket
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--seconds", type=float, default=600)
    args = ap.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, args.count + 256)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))

    stop = {"now": False}

    def handler(signum, frame):
        stop["now"] = True

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)

    socks = []
    failures = 0
    for _ in range(args.count):
        if stop["now"]:
            break
        try:
            s = socket.create_connection((args.host, args.port), timeout=10)
            s.setblocking(False)
            socks.append(s)
        except OSError as e:
            failures += 1
            if failures > 100:
                print(f"idle: giving up after {failures} failures ({e})", file=sys.stderr, flush=True)
                break
    print(f"idle: holding {len(socks)} connections ({failures} failed)", flush=True)

    deadline = time.monotonic() + args.seconds
    while not stop["now"] and time.monotonic() < deadline:
        time.sleep(0.2)

    # Readable while idle means the server closed it (EOF) or answered (503 when shedding).
    poller = select.poll()
    for s in socks:
        poller.register(s, select.POLLIN)
    closed = len(poller.poll(0))
    for s in socks:
        s.close()
    print(f"idle: released {len(socks)} connections; {closed} had been closed or answered by the server", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
