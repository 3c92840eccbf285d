#!/usr/bin/env python3
"""Runs every check page in this directory in headless Chromium against a live server.

Started by scripts/browser-check.sh (which finds or installs Chromium and builds the server);
see the comment at the top of that script for how to add a check. Standard library only.

Set-up, all on 127.0.0.1:
  * server "any"    : `solarsystem serve` with the default --cors-origins (*)
  * server "listed" : `solarsystem serve --cors-origins <page origin>`
  * stream proxy    : forwards to "any", and cuts the first connection that carries Undocking
                      right after that event, so an EventSource must reconnect by itself
  * page server     : serves this directory (a second origin: another port) and takes each
                      page's results at POST /report
Each page runs in a fresh Chromium profile (an empty HTTP cache) until it reports or times out.
"""
import argparse
import http.server
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Reports:
    def __init__(self):
        self.lock = threading.Lock()
        self.by_page = {}
        self.arrived = threading.Condition(self.lock)

    def add(self, report):
        with self.lock:
            self.by_page[report.get("page")] = report
            self.arrived.notify_all()

    def wait(self, page, timeout):
        deadline = time.monotonic() + timeout
        with self.lock:
            while page not in self.by_page:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.arrived.wait(left)
            return self.by_page[page]


def page_server(port, reports):
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=HERE, **kw)

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                reports.add(json.loads(body))
                self.send_response(204)
            except ValueError:
                self.send_response(400)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class CuttingProxy:
    """TCP proxy to the API; the first connection whose response carries `marker` is closed
    right after the event holding it (after its blank line), without the chunked terminator."""

    def __init__(self, port, upstream_port, marker):
        self.upstream_port = upstream_port
        self.marker = marker
        self.cut_done = False
        self.connections = 0
        self.no_content = 0
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", port))
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                self.connections += 1
            threading.Thread(target=self.serve, args=(client,), daemon=True).start()

    def serve(self, client):
        upstream = socket.create_connection(("127.0.0.1", self.upstream_port))

        def pump_up():
            try:
                while data := client.recv(65536):
                    upstream.sendall(data)
            except OSError:
                pass

        threading.Thread(target=pump_up, daemon=True).start()
        pending = b""
        try:
            while data := upstream.recv(65536):
                with self.lock:
                    may_cut = not self.cut_done
                    self.no_content += data.count(b"HTTP/1.1 204 ")
                if may_cut:
                    pending += data
                    at = pending.find(self.marker)
                    end = pending.find(b"\n\n", at) if at >= 0 else -1
                    if end >= 0:
                        with self.lock:
                            self.cut_done = True
                        client.sendall(pending[: end + 2])
                        break
                    client.sendall(pending)
                    pending = b""
                else:
                    client.sendall(data)
        except OSError:
            pass
        for s in (client, upstream):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()


def start_server(binary, port, repo, extra):
    log = open(os.path.join(tempfile.gettempdir(), f"browser-check-server-{port}.log"), "w")
    proc = subprocess.Popen(
        [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
         "--db", ":memory:", "--migrations", os.path.join(repo, "Migrations"), *extra],
        cwd=repo, stdout=log, stderr=subprocess.STDOUT)
    for _ in range(150):
        if proc.poll() is not None:
            raise SystemExit(f"browser-check: the server exited at start-up (log: {log.name})")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("browser-check: the server did not answer /healthz within 30 s")


def run_page(chromium, url, page, reports, timeout):
    profile = tempfile.mkdtemp(prefix="browser-check-profile-")
    proc = subprocess.Popen(
        [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--disable-extensions", "--mute-audio", f"--user-data-dir={profile}", url],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        return reports.wait(page, timeout)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
        shutil.rmtree(profile, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--chromium", required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--timeout", type=float, default=60, help="seconds a page may take to report")
    ap.add_argument("pages", nargs="*", help="page file names (default: every *.html here)")
    args = ap.parse_args()

    pages = args.pages or sorted(f for f in os.listdir(HERE) if f.endswith(".html"))
    page_port, any_port, listed_port, proxy_port = free_port(), free_port(), free_port(), free_port()
    page_origin = f"http://127.0.0.1:{page_port}"
    reports = Reports()
    servers = []
    try:
        servers.append(start_server(args.binary, any_port, args.repo, []))
        servers.append(start_server(args.binary, listed_port, args.repo, ["--cors-origins", page_origin]))
        page_server(page_port, reports)
        proxy = CuttingProxy(proxy_port, any_port, b'"name":"Undocking"')
        query = (f"api=http://127.0.0.1:{any_port}&apiListed=http://127.0.0.1:{listed_port}"
                 f"&stream=http://127.0.0.1:{proxy_port}&report=/report")
        passed = failed = 0
        for page in pages:
            started = time.monotonic()
            report = run_page(args.chromium, f"{page_origin}/{page}?{query}", page, reports, args.timeout)
            seconds = time.monotonic() - started
            if report is None:
                print(f"FAIL {page}: no report within {args.timeout:.0f} s")
                failed += 1
                continue
            for r in report.get("results", []):
                if r.get("ok"):
                    passed += 1
                    print(f"ok   {page}: {r['name']}")
                else:
                    failed += 1
                    print(f"FAIL {page}: {r['name']}: {r.get('error')}")
            if not report.get("results"):
                failed += 1
                print(f"FAIL {page}: the page ran no check")
            print(f"     {page} took {seconds:.1f} s")
        print(f"browser-check: the stream proxy saw {proxy.connections} connection(s), cut one: {proxy.cut_done}, "
              f"answers 204: {proxy.no_content}")
        if "event-stream.html" in pages and not (proxy.cut_done and proxy.no_content >= 1):
            failed += 1
            print("FAIL event-stream.html: the proxy did not cut a stream, or no reconnect after the end got 204")
        print(f"browser-check: {passed} passed, {failed} failed")
        return 1 if failed else 0
    finally:
        for s in servers:
            s.terminate()
            try:
                s.wait(timeout=15)
            except subprocess.TimeoutExpired:
                s.kill()


if __name__ == "__main__":
    sys.exit(main())
