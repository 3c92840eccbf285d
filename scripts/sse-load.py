#!/usr/bin/env python3
"""SSE load: N concurrent mission replays at RATE Hz for SECONDS against a running server.

Each client opens /v1/missions/MISSION/stream?speed=SPEED&rate=RATE on its own connection and
reads telemetry events. The lag of an event is how far its mission time (the `id:`, MET in ms)
trails what the wall clock says it should be since the client's request:
    lag = (now - request_sent) - MET / SPEED
(the server starts its replay clock when it answers, so this includes connection set-up).
Prints events received, events/s, lag p50/p99/max, clients that ended early, and the server's
resident memory (VmRSS of --pid) sampled every second (max and last), and --after seconds after
the clients have gone (what the server gave back).

--no-read: the clients send their request and never read (the server must bound what it holds
for them: each stream's queue, and all the streams' together, dropping the slowest).

usage: scripts/sse-load.py --port 8080 --pid $(pgrep -f 'solarsystem serve') [--clients 1000]
       scripts/sse-load.py --port 8080 --pid … --clients 6000 --no-read --seconds 30 --after 10
"""
import argparse
import asyncio
import socket
import time


async def client(args, stats, stop_at):
    try:
        if args.rcvbuf:
            # A small receive buffer, set before connecting (so the window is small from the
            # start): what the kernel does not take, the server has to hold or drop.
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, args.rcvbuf)
            s.setblocking(False)
            await asyncio.get_running_loop().sock_connect(s, (args.host, args.port))
            reader, writer = await asyncio.open_connection(sock=s, limit=1 << 20)
        else:
            reader, writer = await asyncio.open_connection(args.host, args.port, limit=1 << 20)
    except OSError as e:
        stats["connect_errors"] += 1
        return
    path = f"/v1/missions/{args.mission}/stream?speed={args.speed}&rate={args.rate}"
    writer.write(f"GET {path} HTTP/1.1\r\nHost: load\r\nAccept: text/event-stream\r\n\r\n".encode())
    sent = time.monotonic()
    await writer.drain()
    buf = b""
    if args.no_read:
        # Never read: hold the connection open to the end and see whether the server kept it
        # (a connection the server dropped reads as closed once the client looks at the end).
        try:
            await asyncio.sleep(max(0, stop_at - time.monotonic()))
            if writer.transport.is_closing() or reader.at_eof():
                stats["ended_early"] += 1
            else:
                stats["held"] += 1
        finally:
            writer.close()
        return
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n", 1)[0]:
            stats["bad_status"] += 1
            return
        while time.monotonic() < stop_at:
            chunk = await asyncio.wait_for(reader.read(65536), timeout=5)
            if not chunk:
                stats["ended_early"] += 1
                return
            buf += chunk
            while True:
                i = buf.find(b"\n\n")
                if i < 0:
                    break
                block, buf = buf[:i], buf[i + 2:]
                if b"event: telemetry" not in block:
                    continue
                j = block.find(b"\nid: ")
                if j < 0:
                    continue
                k = block.find(b"\n", j + 5)
                # `ms` or `ms.n` (a tick in the millisecond of a mission event).
                met_ms = int(block[j + 5:k].split(b".")[0])
                now = time.monotonic()
                stats["events"] += 1
                stats["lags"].append((now - sent) - met_ms / 1000.0 / args.speed)
    except (asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError) as e:
        stats["errors"] += 1
    finally:
        writer.close()


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None


async def main():
    p = argparse.ArgumentParser()
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--pid", type=int)
    p.add_argument("--clients", type=int, default=1000)
    p.add_argument("--rate", type=int, default=10)
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--speed", type=float, default=1000)
    p.add_argument("--mission", default="apollo11")
    p.add_argument("--no-read", action="store_true", help="clients never read what they are sent")
    p.add_argument("--after", type=float, default=0, help="seconds to sample the server's memory after the clients close")
    p.add_argument("--rcvbuf", type=int, default=0, help="the clients' SO_RCVBUF in bytes (0: the system's)")
    args = p.parse_args()
    stats = {"events": 0, "lags": [], "errors": 0, "ended_early": 0, "connect_errors": 0, "bad_status": 0, "held": 0}
    start = time.monotonic()
    stop_at = start + args.seconds
    tasks = []
    for n in range(args.clients):
        tasks.append(asyncio.create_task(client(args, stats, stop_at)))
        if n % 100 == 99:
            await asyncio.sleep(0.05)
    rss = []
    while time.monotonic() < stop_at:
        await asyncio.sleep(1)
        if args.pid:
            r = rss_kb(args.pid)
            if r:
                rss.append(r)
    await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.monotonic() - start
    after = []
    end_after = time.monotonic() + args.after
    while args.pid and time.monotonic() < end_after:
        await asyncio.sleep(1)
        r = rss_kb(args.pid)
        if r:
            after.append(r)
    lags = sorted(stats["lags"])
    def pct(q):
        return lags[min(len(lags) - 1, int(q * len(lags)))] if lags else float("nan")
    expected = args.clients * args.rate * args.seconds
    print(f"sse-load: {args.clients} clients x {args.rate} Hz for {args.seconds:.0f} s ({args.mission}, speed {args.speed:g})")
    print(f"sse-load: {stats['events']} telemetry events ({stats['events'] / expected * 100:.1f}% of {expected:.0f}), {stats['events'] / elapsed:.0f}/s")
    print(f"sse-load: lag p50 {pct(0.5) * 1000:.1f} ms, p99 {pct(0.99) * 1000:.1f} ms, max {lags[-1] * 1000 if lags else float('nan'):.1f} ms")
    print(f"sse-load: errors {stats['errors']}, ended early {stats['ended_early']}, connect errors {stats['connect_errors']}, non-200 {stats['bad_status']}")
    if args.no_read:
        print(f"sse-load: {stats['held']} of {args.clients} clients that never read held to the end")
    if rss:
        print(f"sse-load: server RSS max {max(rss) / 1024:.1f} MiB, last {rss[-1] / 1024:.1f} MiB")
    if after:
        print(f"sse-load: server RSS {args.after:.0f} s after the clients closed: {after[-1] / 1024:.1f} MiB")


if __name__ == "__main__":
    asyncio.run(main())
