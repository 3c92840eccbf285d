#!/usr/bin/env python3
"""SSE load: N concurrent mission replays at RATE Hz for SECONDS against a running server.

Each client opens /v1/missions/MISSION/stream?speed=SPEED&rate=RATE on its own connection and
reads telemetry events. The lag of an event is how far its mission time (the `id:`, MET in ms)
trails what the wall clock says it should be since the client's request:
    lag = (now - request_sent) - MET / SPEED
(the server starts its replay clock when it answers, so this includes connection set-up, which
10,000 clients connecting at 2,000/s make long for some). It also prints the set-up alone (request
sent to first event) and the lag from each stream's first event, which excludes it:
    stream lag = (now - first event's arrival) - (MET - first MET) / SPEED
Prints events received, events/s, lag p50/p99/max, events out of order (an id not above the
previous one on the same stream), clients that ended early, the server's resident memory (VmRSS
of --pid) sampled every second (max and last) and --after seconds after the clients have gone
(what the server gave back), and the latency of GET /healthz asked every 50 ms on one keep-alive
connection meanwhile (p50/p99/max), from a process of its own so the clients' work does not
count in it. It also prints each client process's CPU time: one near 100 % of a core is the
measurement's limit (its events wait in its socket buffers and count as lag), not the server's.

The clients are spread over --procs processes (default 2, each an asyncio loop), so a 10,000-
client run measures the server rather than one Python thread; each process raises its
open-file limit to the hard limit (10,000 clients need it above 10,000).

--no-read: the clients send their request and never read (the server must bound what it holds
for them: each stream's queue, and all the streams' together, dropping the slowest).

usage: scripts/sse-load.py --port 8080 --pid $(pgrep -f 'solarsystem serve') [--clients 1000]
       scripts/sse-load.py --port 8080 --pid … --clients 10000 --rate 1 --seconds 60
       scripts/sse-load.py --port 8080 --pid … --clients 6000 --no-read --seconds 30 --after 10
"""
import argparse
import asyncio
import multiprocessing
import resource
import socket
import time

from proc_stats import cpu_seconds, rss_kb


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
    last_id = None
    first = None
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
                parts = block[j + 5:k].split(b".")
                met_ms = int(parts[0])
                event_id = (met_ms, int(parts[1]) if len(parts) > 1 else 0)
                if last_id is not None and event_id <= last_id:
                    stats["out_of_order"] += 1
                last_id = event_id
                now = time.monotonic()
                stats["events"] += 1
                stats["lags"].append((now - sent) - met_ms / 1000.0 / args.speed)
                if first is None:
                    first = (now, met_ms)
                    stats["setups"].append(now - sent)
                stats["stream_lags"].append((now - first[0]) - (met_ms - first[1]) / 1000.0 / args.speed)
    except (asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError) as e:
        stats["errors"] += 1
    finally:
        writer.close()


def raise_file_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


async def run_clients(args, count, stop_at, offset):
    stats = {"events": 0, "lags": [], "stream_lags": [], "setups": [], "errors": 0, "ended_early": 0, "connect_errors": 0, "bad_status": 0,
             "held": 0, "out_of_order": 0}
    tasks = []
    # Clients start at 2,000/s overall, spread over the processes.
    await asyncio.sleep(offset)
    for n in range(count):
        tasks.append(asyncio.create_task(client(args, stats, stop_at)))
        if n % 50 == 49:
            await asyncio.sleep(0.025 * args.procs)
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats


def client_process(args, count, stop_at, offset, queue):
    raise_file_limit()
    stats = asyncio.run(run_clients(args, count, stop_at, offset))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    stats["client_cpu"] = [usage.ru_utime + usage.ru_stime]
    queue.put(stats)


def probe_process(args, stop_at, queue):
    """GET /healthz every 50 ms on one keep-alive connection; the latencies in seconds."""
    latencies, failures = [], 0
    sock = None
    while time.monotonic() < stop_at:
        t0 = time.monotonic()
        try:
            if sock is None:
                sock = socket.create_connection((args.host, args.port), timeout=5)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: probe\r\n\r\n")
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = sock.recv(4096)
                if not chunk:
                    raise ConnectionError("closed")
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = next((int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")), 0)
            while len(body) < length:
                body += sock.recv(4096)
            latencies.append(time.monotonic() - t0)
        except OSError:
            failures += 1
            if sock is not None:
                sock.close()
            sock = None
        time.sleep(max(0, 0.05 - (time.monotonic() - t0)))
    queue.put({"probe": latencies, "probe_failures": failures})


def metric(args, name):
    """One unlabelled sample of the server's /metrics (None when it has no such series)."""
    try:
        with socket.create_connection((args.host, args.port), timeout=5) as sock:
            sock.sendall(b"GET /metrics HTTP/1.1\r\nHost: load\r\nConnection: close\r\n\r\n")
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
    except OSError:
        return None
    for line in data.decode(errors="replace").splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--pid", type=int)
    p.add_argument("--clients", type=int, default=1000)
    p.add_argument("--rate", type=int, default=10)
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--speed", type=float, default=1000)
    p.add_argument("--mission", default="apollo11")
    p.add_argument("--procs", type=int, default=2, help="client processes")
    p.add_argument("--no-read", action="store_true", help="clients never read what they are sent")
    p.add_argument("--after", type=float, default=0, help="seconds to sample the server's memory after the clients close")
    p.add_argument("--rcvbuf", type=int, default=0, help="the clients' SO_RCVBUF in bytes (0: the system's)")
    args = p.parse_args()
    hard = raise_file_limit()
    if args.clients // args.procs + 64 > hard:
        p.error(f"{args.clients // args.procs} clients per process need more than the hard open-file limit {hard}: use more --procs")
    start = time.monotonic()
    stop_at = start + args.seconds
    cpu0 = cpu_seconds(args.pid) if args.pid else None
    queue = multiprocessing.Queue()
    procs = []
    share = [args.clients // args.procs + (1 if i < args.clients % args.procs else 0) for i in range(args.procs)]
    for i, count in enumerate(share):
        procs.append(multiprocessing.Process(target=client_process, args=(args, count, stop_at, 0.05 * i / args.procs, queue)))
    procs.append(multiprocessing.Process(target=probe_process, args=(args, stop_at, queue)))
    for pr in procs:
        pr.start()
    rss = []
    while time.monotonic() < stop_at:
        time.sleep(1)
        if args.pid:
            r = rss_kb(args.pid)
            if r:
                rss.append(r)
    stats = {"events": 0, "lags": [], "stream_lags": [], "setups": [], "errors": 0, "ended_early": 0, "connect_errors": 0, "bad_status": 0,
             "held": 0, "out_of_order": 0, "probe": [], "probe_failures": 0, "client_cpu": []}
    for _ in procs:
        part = queue.get()
        for k, v in part.items():
            stats[k] += v
    for pr in procs:
        pr.join()
    elapsed = time.monotonic() - start
    cpu1 = cpu_seconds(args.pid) if args.pid else None
    after = []
    end_after = time.monotonic() + args.after
    while args.pid and time.monotonic() < end_after:
        time.sleep(1)
        r = rss_kb(args.pid)
        if r:
            after.append(r)

    def pct(values, q):
        return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")
    lags = sorted(stats["lags"])
    probe = sorted(stats["probe"])
    expected = args.clients * args.rate * args.seconds
    print(f"sse-load: {args.clients} clients x {args.rate} Hz for {args.seconds:.0f} s ({args.mission}, speed {args.speed:g}), {args.procs} client processes")
    print(f"sse-load: {stats['events']} telemetry events ({stats['events'] / expected * 100:.1f}% of {expected:.0f}), {stats['events'] / elapsed:.0f}/s, "
          f"{stats['out_of_order']} out of order")
    print(f"sse-load: lag p50 {pct(lags, 0.5) * 1000:.1f} ms, p99 {pct(lags, 0.99) * 1000:.1f} ms, max {lags[-1] * 1000 if lags else float('nan'):.1f} ms")
    setups, stream_lags = sorted(stats["setups"]), sorted(stats["stream_lags"])
    print(f"sse-load: of which set-up (request sent to first event): p50 {pct(setups, 0.5) * 1000:.1f} ms, p99 {pct(setups, 0.99) * 1000:.1f} ms, "
          f"max {setups[-1] * 1000 if setups else float('nan'):.1f} ms")
    print(f"sse-load: lag from each stream's first event (set-up excluded): p50 {pct(stream_lags, 0.5) * 1000:.1f} ms, "
          f"p99 {pct(stream_lags, 0.99) * 1000:.1f} ms, max {stream_lags[-1] * 1000 if stream_lags else float('nan'):.1f} ms")
    print(f"sse-load: errors {stats['errors']}, ended early {stats['ended_early']}, connect errors {stats['connect_errors']}, non-200 {stats['bad_status']}")
    print(f"sse-load: /healthz every 50 ms meanwhile: {len(probe)} answers, p50 {pct(probe, 0.5) * 1000:.1f} ms, p99 {pct(probe, 0.99) * 1000:.1f} ms, "
          f"max {probe[-1] * 1000 if probe else float('nan'):.1f} ms, {stats['probe_failures']} failed")
    if cpu0 is not None and cpu1 is not None:
        used = cpu1 - cpu0
        per_event = f", {used / stats['events'] * 1e6:.0f} µs per event" if stats["events"] else ""
        print(f"sse-load: server CPU {used:.1f} s in {elapsed:.0f} s ({used / elapsed * 100:.0f}% of one core){per_event}")
    if stats["client_cpu"]:
        # A client process near 100 % of a core is the measurement's limit, not the server's:
        # its events wait in its own socket buffers and count as lag.
        shares = ", ".join(f"{c / elapsed * 100:.0f}%" for c in stats["client_cpu"])
        print(f"sse-load: client processes' CPU {sum(stats['client_cpu']):.1f} s ({shares} of one core each)")
    skipped = metric(args, "solarsystem_mission_stream_ticks_skipped_total")
    if skipped is not None:
        print(f"sse-load: telemetry ticks the server skipped for clients 64 KiB behind (since it started): {skipped:.0f}")
    if args.no_read:
        print(f"sse-load: {stats['held']} of {args.clients} clients that never read held to the end")
    if rss:
        print(f"sse-load: server RSS max {max(rss) / 1024:.1f} MiB, last {rss[-1] / 1024:.1f} MiB")
    if after:
        print(f"sse-load: server RSS {args.after:.0f} s after the clients closed: {after[-1] / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
