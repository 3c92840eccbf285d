#!/usr/bin/env python3
"""Frame rates of the viewer side by side with a bare WebGL2 page, in one browser, in one run.

    python3 scripts/browser/frame_rates.py --base http://127.0.0.1:8080/ [--rounds 3] [--seconds 8]

Three pages at 1280x720, measured in turn (bare, overview, each mission), `--rounds` times, so a
noisy machine slows all of them alike: a bare WebGL2 page with one spinning triangle (served by
this script from a loopback port), the viewer's overview playing dates at 1 day/s (so it draws
every frame), and each mission replayed at its own speed. A rate is frames over seconds from
`requestAnimationFrame` timestamps; each page's figure is the median over the rounds. The viewer
check (viewer_check.py) imports `measure`; run alone, this prints the table and the ratios.
"""

import argparse
import http.server
import os
import statistics
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp_pipe import Browser  # noqa: E402

# The same context attributes as the viewer's (render3d.js CONTEXT_ATTRIBUTES), the same canvas size.
BARE_PAGE = b"""<!doctype html>
<html><head><meta charset="utf-8"><title>bare WebGL2</title>
<style>html,body{margin:0;height:100%;background:#03040c}canvas{display:block;width:100vw;height:100vh}</style></head>
<body><canvas id="c"></canvas><script>
const c = document.getElementById('c');
c.width = innerWidth * devicePixelRatio; c.height = innerHeight * devicePixelRatio;
const gl = c.getContext('webgl2', { antialias: false, alpha: false, preserveDrawingBuffer: false, powerPreference: 'high-performance' });
const sh = (t, s) => { const x = gl.createShader(t); gl.shaderSource(x, s); gl.compileShader(x); return x; };
const p = gl.createProgram();
gl.attachShader(p, sh(gl.VERTEX_SHADER, `#version 300 es
in vec2 a; uniform float t;
void main() { float c = cos(t), s = sin(t); gl_Position = vec4(mat2(c, s, -s, c) * a, 0.0, 1.0); }`));
gl.attachShader(p, sh(gl.FRAGMENT_SHADER, `#version 300 es
precision highp float; out vec4 o; void main() { o = vec4(1.0, 0.7, 0.3, 1.0); }`));
gl.linkProgram(p); gl.useProgram(p);
gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, 0.8, -0.7, -0.5, 0.7, -0.5]), gl.STATIC_DRAW);
gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
const tl = gl.getUniformLocation(p, 't');
window.__ready = true;
(function frame(now) {
  gl.viewport(0, 0, c.width, c.height);
  gl.clearColor(3 / 255, 4 / 255, 12 / 255, 1); gl.clear(gl.COLOR_BUFFER_BIT);
  gl.uniform1f(tl, now / 1000); gl.drawArrays(gl.TRIANGLES, 0, 3);
  requestAnimationFrame(frame);
})(performance.now());
</script></body></html>"""


class BarePage:
    """Serves BARE_PAGE on a loopback port (a thread), so the check needs nothing else."""

    def __init__(self):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(BARE_PAGE)))
                self.end_headers()
                self.wfile.write(BARE_PAGE)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def frame_rate(page, seconds):
    """Frames per second from requestAnimationFrame timestamps over `seconds`, and the median frame (ms)."""
    page.evaluate("window.__stamps = []; (function f(t) { window.__stamps.push(t); requestAnimationFrame(f); })(performance.now()); 0")
    time.sleep(seconds)
    stamps = page.evaluate("window.__stamps")
    if len(stamps) < 2 or stamps[-1] <= stamps[0]:
        return 0.0, 0.0
    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
    return (len(stamps) - 1) / ((stamps[-1] - stamps[0]) / 1000), statistics.median(gaps)


READY = "window.__solarsystem && window.__solarsystem.ready"


def open_bare(browser, bare):
    page = browser.new_page(1280, 720)
    page.goto(bare.url)
    page.wait_for("window.__ready", timeout=30)
    return page


def open_overview(browser, base):
    page = browser.new_page(1280, 720)
    page.goto(urllib.parse.urljoin(base, "?date=2026-11-22T00:00:00Z&speed=86400"))
    page.wait_for(READY + " && window.__solarsystem.exact", timeout=60)
    page.evaluate("document.getElementById('play').click()")
    page.wait_for("window.__solarsystem.playing", timeout=30)
    return page


def open_mission(browser, base, mission):
    page = browser.new_page(1280, 720)
    page.goto(urllib.parse.urljoin(base, f"?mission={mission}"))
    page.wait_for(READY + " && window.__solarsystem.mission", timeout=60)
    time.sleep(0.3)
    page.evaluate("document.getElementById('play').click()")
    page.wait_for("window.__solarsystem.playing", timeout=30)
    return page


def measure(browser, base, missions=("apollo11", "voyager2"), rounds=3, seconds=8, warmup=2, log=print):
    """{name: [fps per round]} for 'bare', 'overview' and each mission; one page open at a time
    (a page in the background would share the two cores), each played from its start every round."""
    bare = BarePage()
    rates = {name: [] for name in ("bare", "overview", *missions)}
    problems = []
    try:
        for r in range(rounds):
            for name in rates:
                if name == "bare":
                    page = open_bare(browser, bare)
                elif name == "overview":
                    page = open_overview(browser, base)
                else:
                    page = open_mission(browser, base, name)
                time.sleep(warmup)
                fps, median_ms = frame_rate(page, seconds)
                rates[name].append(fps)
                problems += [f"{name}: {p}" for p in page.problems]
                log(f"  round {r + 1}  {name:10s} {fps:5.1f} frames/s (median frame {median_ms:.1f} ms)")
                page.close()
    finally:
        bare.close()
    return rates, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--missions", default="apollo11,voyager2")
    args = parser.parse_args()
    base = args.base if args.base.endswith("/") else args.base + "/"
    with Browser() as browser:
        rates, problems = measure(browser, base, tuple(args.missions.split(",")), args.rounds, args.seconds)
    med = {k: statistics.median(v) for k, v in rates.items()}
    print("median frames/s: " + ", ".join(f"{k} {v:.1f}" for k, v in med.items()))
    for k, v in med.items():
        if k in ("bare", "overview"):
            continue
        print(f"  {k}: {v / med['overview']:.2f}x the overview, {v / med['bare']:.2f}x the bare page")
    for p in problems:
        print("  problem:", p)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
