#!/usr/bin/env python3
"""End-to-end checks of the web viewer in headless Chromium, against a running server.

    python3 scripts/browser/viewer_check.py --base http://127.0.0.1:8080/ [--screenshots docs]

Fails (exit 1, naming each failed check) unless:
  - the page loads with no console errors and draws a non-blank canvas, at 1280x720 and 390x844
    (screenshots written to --screenshots as viewer.png, viewer-phone.png and viewer-saturn.png);
  - for a fixed date, every planet the viewer reports is where this script's own perspective
    projection of /v1/scene puts it, through the camera the viewer reports, within 2 px; the
    camera of a focus preset is the server's /v1/camera/focus framing; labels do not overlap;
  - the "picture" link is the server's PNG of the same view: its size, and (read as SVG) every
    planet in it within 2 px of where the page drew it, before and after a pan;
  - an API error reaches the page as the problem's detail, with a non-blank canvas;
  - mouse, wheel, keyboard and touch move the camera; controls are labelled and reachable by Tab;
    prefers-reduced-motion makes preset changes immediate;
  - a mission replayed at high speed through a proxy that cuts the event stream once reaches the
    page with every mission event exactly once and ends;
  - the page works behind a reverse proxy that serves it under /solar/ (relative URLs only);
  - the page draws with WebGL2, and the matrices it drew with put every planet within 2 px of the
    same projection, as do the centroids of the pixels it drew for each planet in the overview; every planet is labelled in the overview at 1280x720 and 390x844 and no label
    covers Saturn's disc or rings; the 2D fallback (?renderer=2d) draws and projects the same;
  - an Earth close-up correlates with the server's ray-cast /v1/views/system.png of the same
    camera above EARTH_CORRELATION_BOUND, and the same Earth with its map turned 180° does not;
  - the first textured frame comes within 1.5 s on a cold cache; 0 and Home bring back the preset
    in the overview, a focus preset and a mission view; Apollo 11's Eagle is drawn on the Moon's
    disc while landed;
  - a 40 s Apollo 11 replay asks each body's series at most once per playback window and the
    orbits not at all, and draws at >= 30 frames/s (the figure is printed);
  - side by side in this browser (frame_rates.py, medians of three rounds, all printed), Apollo 11's
    and Voyager 2's replays draw at >= 0.9x the frame rate of the overview playing dates and
    >= 0.6x that of a bare WebGL2 page with one spinning triangle;
  - after WEBGL_lose_context loses and restores the context, the page draws again, textured;
  - path-traversal attempts get 400 or 404 and never a file.
Only the standard library and Chromium (apt-get install -y chromium) are needed.
"""

import argparse
import base64
import json
import statistics
import struct
import zlib
import math
import os
import re
import socket
import sys
import threading
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp_pipe import Browser, CDPError  # noqa: E402
import frame_rates  # noqa: E402

FIXED_DATE = "2026-11-22T00:00:00Z"
READY = "window.__solarsystem && window.__solarsystem.ready && window.__solarsystem.exact"


class Checks:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
            print(f"  ok    {what}")
        else:
            self.failures.append(what)
            print(f"  FAIL  {what}")
        return ok


def get_json(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


# -- projection, written here from the camera's definition (independent of the page's code) ----

def sub(a, b):
    return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def unit(a):
    n = math.sqrt(dot(a, a))
    return [x / n for x in a]


def project(point, eye, target, up, fov_deg, width, height):
    """gluLookAt + gluPerspective (vertical field of view) + viewport, top-left origin."""
    f = unit(sub(target, eye))
    s = unit(cross(f, up))
    u = cross(s, f)
    d = sub(point, eye)
    x, y, z = dot(d, s), dot(d, u), -dot(d, f)
    if z >= 0:
        return None
    g = 1 / math.tan(math.radians(fov_deg) / 2)
    ndc_x = g / (width / height) * x / -z
    ndc_y = g * y / -z
    return [(ndc_x + 1) / 2 * width, (1 - ndc_y) / 2 * height]


def canvas_stats(page):
    """Fraction of the view's pixels that differ from the background, and distinct colours: the
    WebGL canvas (labels and markers included), or the 2D canvas without WebGL."""
    return page.evaluate("""(() => {
      const sky = document.getElementById('sky');
      const gl = document.getElementById('gl');
      const c = document.createElement('canvas');
      // In WebGL mode everything is in the WebGL canvas (#sky has no bitmap); else in #sky.
      const shown = gl.hidden ? sky : gl;
      c.width = shown.width; c.height = shown.height;
      const x = c.getContext('2d');
      // The WebGL buffer is not preserved after a frame: draw, then copy it, in this one task.
      if (window.__solarsystemDraw) window.__solarsystemDraw();
      if (!gl.hidden) x.drawImage(gl, 0, 0, c.width, c.height);
      if (sky.width && sky.height) x.drawImage(sky, 0, 0);
      const d = x.getImageData(0, 0, c.width, c.height).data;
      let lit = 0; const colours = new Set();
      for (let i = 0; i < d.length; i += 4) {
        if (Math.abs(d[i] - 3) + Math.abs(d[i + 1] - 4) + Math.abs(d[i + 2] - 12) > 30) lit++;
        if (i % 64 === 0) colours.add((d[i] >> 3) << 10 | (d[i + 1] >> 3) << 5 | (d[i + 2] >> 3));
      }
      return { lit: lit / (d.length / 4), colours: colours.size, width: c.width, height: c.height };
    })()""")


# -- the checks -----------------------------------------------------------------------------

def check_desktop(browser, base, checks, shots):
    print("page at 1280x720, fixed date")
    page = browser.new_page(1280, 720)
    page.goto(urllib.parse.urljoin(base, f"?date={FIXED_DATE}"))
    page.wait_for(READY, timeout=60)
    time.sleep(0.3)
    state = page.evaluate("window.__solarsystem")
    stats = canvas_stats(page)
    checks.check(stats["lit"] > 0.003 and stats["colours"] > 20, f"canvas is drawn ({stats['lit']:.2%} lit, {stats['colours']} colours)")
    if shots:
        page.screenshot(os.path.join(shots, "viewer.png"))
    checks.check(state["renderer"] == "webgl2", f"the page draws with WebGL2 ({state['renderer']}{': ' + state['rendererNote'] if state['rendererNote'] else ''})")
    scene = get_json(urllib.parse.urljoin(base, f"v1/scene?date={urllib.parse.quote(state['dateParam'])}"))
    check_projection(checks, state, scene, "overview", at_least=9)
    check_gl_matrices(checks, state, scene, "overview")
    check_drawn_centres(checks, page, scene, "overview", at_least=9)
    check_labels(checks, state)
    check_planets_labelled(checks, state, "1280x720")

    # The "picture" link: the server's PNG, the size of the view.
    with urllib.request.urlopen(state["picture"], timeout=60) as r:
        png = r.read()
        kind = r.headers.get("Content-Type")
    size = (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) if png[:8] == b"\x89PNG\r\n\x1a\n" else None
    vp = state["viewport"]
    checks.check(kind == "image/png" and size == (round(vp["width"]), round(vp["height"])), f"picture link is a {size} PNG of the {vp['width']}x{vp['height']} view")
    check_picture_is_view(checks, state, "overview", at_least=8)

    print("focus preset: Saturn")
    page.goto(urllib.parse.urljoin(base, f"?date={FIXED_DATE}&focus=saturn"))
    page.wait_for(READY, timeout=60)
    state = page.evaluate("window.__solarsystem")
    cam = state["camera"]
    aspect = state["viewport"]["width"] / state["viewport"]["height"]
    focus = get_json(urllib.parse.urljoin(base, f"v1/camera/focus/saturn?date={FIXED_DATE}&aspect={aspect:.4f}"))
    same = (abs(cam["azimuth"] - focus["azimuthRad"]) < 1e-9 and abs(cam["elevation"] - focus["elevationRad"]) < 1e-9
            and abs(cam["distance"] - focus["distance"]) < 1e-9 * focus["distance"]
            and max(abs(a - b) for a, b in zip(cam["target"], focus["target"])) < 1e-9)
    checks.check(same, "Saturn preset is /v1/camera/focus/saturn's framing")

    check_projection(checks, state, scene, "Saturn preset")
    check_gl_matrices(checks, state, scene, "Saturn preset")
    check_labels(checks, state)
    check_labels_off_rings(checks, state, "saturn")
    # In 2026 the rings are nearly edge-on; in mid-2017 they were open 26°.
    open_rings = browser.new_page(1280, 720)
    open_rings.goto(urllib.parse.urljoin(base, "?date=2017-06-15T00:00:00Z&focus=saturn"))
    state = open_rings.wait_for(READY + " && window.__solarsystem.gl && window.__solarsystem.gl.texturesPending === 0 && window.__solarsystem", timeout=60)
    check_labels(checks, state)
    check_labels_off_rings(checks, state, "saturn")
    if shots:
        time.sleep(0.3)
        open_rings.screenshot(os.path.join(shots, "viewer-saturn.png"))
    open_rings.close()
    checks.check(not page.problems, "no console errors at 1280x720" + (f": {page.problems}" if page.problems else ""))
    return page


def check_projection(checks, state, scene, what, at_least=1):
    cam, vp = state["camera"], state["viewport"]
    worst, missing, compared = 0.0, [], 0
    for body in scene["bodies"]:
        if body["type"] not in ("planet", "dwarf_planet"):
            continue
        expected = project(body["position"], cam["eye"], cam["target"], cam["up"], cam["fovDeg"], vp["width"], vp["height"])
        reported = state["planets"].get(body["id"])
        if expected is None:
            continue
        if reported is None:
            missing.append(body["id"])
            continue
        compared += 1
        worst = max(worst, math.hypot(expected[0] - reported[0], expected[1] - reported[1]))
    checks.check(not missing and compared >= at_least and worst <= 2,
                 f"{what}: {compared} planets within 2 px of the projection of /v1/scene (worst {worst:.3f} px)"
                 + (f"; not reported: {missing}" if missing else ""))


def check_gl_matrices(checks, state, scene, what):
    """The matrices the WebGL renderer drew with (projection, view rotation, eye) put every planet
    where this script's own projection does: the GL picture is the reported camera's."""
    g, vp, cam = state["gl"], state["viewport"], state["camera"]
    if not g:
        checks.check(False, f"{what}: no WebGL matrices reported")
        return
    P, R, eye = g["proj"], g["view"], g["eye"]
    worst, compared = 0.0, 0
    for body in scene["bodies"]:
        if body["type"] not in ("planet", "dwarf_planet"):
            continue
        expected = project(body["position"], cam["eye"], cam["target"], cam["up"], cam["fovDeg"], vp["width"], vp["height"])
        if expected is None:
            continue
        d = sub(body["position"], eye)
        v = [R[0] * d[0] + R[3] * d[1] + R[6] * d[2], R[1] * d[0] + R[4] * d[1] + R[7] * d[2], R[2] * d[0] + R[5] * d[1] + R[8] * d[2]]
        clip = [sum(P[c * 4 + r] * (v + [1])[c] for c in range(4)) for r in range(4)]
        if clip[3] <= 0:
            worst = math.inf
            continue
        x = (clip[0] / clip[3] + 1) / 2 * vp["width"]
        y = (1 - clip[1] / clip[3]) / 2 * vp["height"]
        compared += 1
        worst = max(worst, math.hypot(x - expected[0], y - expected[1]))
    checks.check(compared >= 1 and worst <= 2, f"{what}: through the WebGL matrices, {compared} planets within 2 px of the projection (worst {worst:.4f} px)")


def check_drawn_centres(checks, page, scene, what, at_least=1):
    """Where the WebGL canvas really drew each planet: the centroid of the pixels that are not
    sky within (drawn radius + 2 px) of the reported centre, from a capture with labels off,
    against this script's projection of /v1/scene. (The orbit line through a planet and
    Saturn's rings are symmetric about its centre; a dot's unlit side is still drawn, at a
    quarter of its light, so the silhouette is whole.)"""
    labels = page.evaluate("document.getElementById('labels').checked")
    if labels:
        page.evaluate("document.getElementById('labels').click()")
    state = page.wait_for(READY + " && window.__solarsystem", timeout=30)
    image = png_pixels(base64.b64decode(page.evaluate("window.__solarsystemCapture()").split(",", 1)[1]))
    if labels:
        page.evaluate("document.getElementById('labels').click()")
        page.wait_for("window.__solarsystem.labels.length > 0", timeout=10, interval=0.05)
    w, h, bpp, rows = image
    cam, vp = state["camera"], state["viewport"]
    scale = w / vp["width"]
    worst, compared, missing = 0.0, 0, []
    for body in scene["bodies"]:
        if body["type"] not in ("planet", "dwarf_planet"):
            continue
        expected = project(body["position"], cam["eye"], cam["target"], cam["up"], cam["fovDeg"], vp["width"], vp["height"])
        drawn = state["bodies"].get(body["id"])
        if expected is None or not drawn or not drawn["visible"] or drawn["r"] > 40:
            continue
        reach = (drawn["r"] + 2) * scale
        cx, cy = expected[0] * scale, expected[1] * scale
        sx = sy = n = 0
        for y in range(max(0, int(cy - reach)), min(h, int(cy + reach) + 2)):
            row = rows[y]
            for x in range(max(0, int(cx - reach)), min(w, int(cx + reach) + 2)):
                if (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 > reach * reach:
                    continue
                o = x * bpp
                if 0.2126 * row[o] + 0.7152 * row[o + 1] + 0.0722 * row[o + 2] > 25:
                    sx += x + 0.5
                    sy += y + 0.5
                    n += 1
        if n < 3:
            missing.append(body["id"])
            continue
        compared += 1
        worst = max(worst, math.hypot(sx / n / scale - expected[0], sy / n / scale - expected[1]))
    checks.check(compared >= at_least and not missing and worst <= 2,
                 f"{what}: {compared} planets drawn (centroid of their pixels) within 2 px of the projection of /v1/scene (worst {worst:.2f} px)"
                 + (f"; not found in the picture: {missing}" if missing else ""))


PLANETS = ["mercury", "venus", "earth", "mars", "jupiter", "saturn", "uranus", "neptune"]


def check_planets_labelled(checks, state, what):
    """Every planet drawn inside the view has its label (planets go before moons and stars)."""
    vp = state["viewport"]
    shown = [p for p in PLANETS if p in state["planets"] and 0 <= state["planets"][p][0] <= vp["width"] and 0 <= state["planets"][p][1] <= vp["height"]]
    labelled = {l["id"] for l in state["labels"]}
    missing = [p for p in shown if p not in labelled]
    checks.check(len(shown) == 8 and not missing, f"{what}: all {len(shown)} planets in view are labelled" + (f"; unlabelled: {missing}" if missing else ""))


def check_labels_off_rings(checks, state, planet):
    """No label box over the planet's disc or its rings (the rings' outer radius, as drawn)."""
    b = state["bodies"].get(planet)
    if not b:
        checks.check(False, f"{planet} not reported")
        return
    ring = b.get("ringR") or b["r"]
    covering = []
    for l in state["labels"]:
        if l["id"] == planet:
            continue
        x, y, w, h = l["box"]["x"], l["box"]["y"], l["box"]["w"], l["box"]["h"]
        cx, cy = max(x, min(b["x"], x + w)), max(y, min(b["y"], y + h))
        if (cx - b["x"]) ** 2 + (cy - b["y"]) ** 2 < ring ** 2:
            covering.append(l["id"])
    checks.check(not covering and ring > b["r"], f"no label on {planet}'s disc or rings (ring radius {ring:.0f} px)" + (f": {covering}" if covering else ""))


def check_picture_is_view(checks, state, what, at_least=1):
    """The "picture" link asked as SVG (same parameters): each planet the page drew inside the
    canvas is a `<circle id="body-…">` within 2 px of the page's pixel."""
    url = state["picture"].replace("/v1/views/system.png", "/v1/views/system.svg")
    with urllib.request.urlopen(url, timeout=60) as r:
        svg = r.read().decode()
    circles = {m[1]: (float(m[2]), float(m[3])) for m in re.finditer(r'<circle id="body-([a-z0-9]+)" cx="([-0-9.]+)" cy="([-0-9.]+)"', svg)}
    vp = state["viewport"]
    worst, compared, missing = 0.0, 0, []
    for body, (x, y) in state["planets"].items():
        if not (0 <= x <= vp["width"] and 0 <= y <= vp["height"]):
            continue
        drawn = circles.get(body)
        if drawn is None:
            missing.append(body)
            continue
        compared += 1
        worst = max(worst, math.hypot(drawn[0] - x, drawn[1] - y))
    query = urllib.parse.urlsplit(url).query
    checks.check(compared >= at_least and not missing and worst <= 2,
                 f"{what}: the picture shows {compared} planets within 2 px of the page's (worst {worst:.3f} px; {query})"
                 + (f"; missing from the picture: {missing}" if missing else ""))


def check_labels(checks, state):
    boxes = state["labels"]
    overlaps = [(a["id"], b["id"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                if a["box"]["x"] < b["box"]["x"] + b["box"]["w"] and b["box"]["x"] < a["box"]["x"] + a["box"]["w"]
                and a["box"]["y"] < b["box"]["y"] + b["box"]["h"] and b["box"]["y"] < a["box"]["y"] + a["box"]["h"]]
    planets = {l["id"] for l in boxes}
    checks.check(not overlaps and len(boxes) >= 5, f"{len(boxes)} labels, none overlapping" + (f": {overlaps[:3]}" if overlaps else "")
                 + f" (planets labelled: {len(planets & {'mercury', 'venus', 'earth', 'mars', 'jupiter', 'saturn', 'uranus', 'neptune'})})")


def check_controls(page, checks):
    print("mouse, wheel, keyboard, tab order")
    page.goto(page.evaluate("location.href"))
    page.wait_for(READY, timeout=60)
    before = page.evaluate("window.__solarsystem.camera")
    page.mouse("mouseMoved", 640, 400, buttons=0)
    page.mouse("mousePressed", 640, 400)
    for x in range(650, 760, 10):
        page.mouse("mouseMoved", x, 420)
    page.mouse("mouseReleased", 760, 420)
    time.sleep(0.2)
    after = page.evaluate("window.__solarsystem.camera")
    checks.check(abs(after["azimuth"] - before["azimuth"]) > 0.3 and abs(after["elevation"] - before["elevation"]) > 0.05, "dragging orbits the camera")
    page.mouse("mouseWheel", 640, 400, delta_y=300)
    time.sleep(0.2)
    zoomed = page.evaluate("window.__solarsystem.camera")
    checks.check(zoomed["distance"] > after["distance"] * 1.2, "the wheel zooms")
    page.mouse("mousePressed", 640, 400, modifiers=8)
    page.mouse("mouseMoved", 700, 400, modifiers=8)
    page.mouse("mouseReleased", 700, 400, modifiers=8)
    time.sleep(0.2)
    panned = page.evaluate("window.__solarsystem.camera")
    checks.check(max(abs(a - b) for a, b in zip(panned["target"], zoomed["target"])) > 1e-3, "Shift-drag pans")
    check_picture_is_view(checks, page.evaluate("window.__solarsystem"), "after orbiting, zooming and panning")
    page.evaluate("document.getElementById('sky').focus()")
    page.key("ArrowLeft", key_code=37)
    page.key("+", code="Equal", key_code=187, text="+")
    time.sleep(0.2)  # the page publishes its camera when it next draws
    keyed = page.evaluate("window.__solarsystem.camera")
    checks.check(abs(keyed["azimuth"] - panned["azimuth"]) > 0.01 and keyed["distance"] < panned["distance"], "arrow keys orbit and + zooms")

    unlabelled = page.evaluate("""[...document.querySelectorAll('input, select, button, a, canvas')]
      .filter(e => e.getAttribute('aria-hidden') !== 'true')
      .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim()).map(e => e.id)""")
    checks.check(not unlabelled, "every control has a label" + (f": missing {unlabelled}" if unlabelled else ""))
    # Tab from the top of a freshly loaded page.
    page.goto(page.evaluate("location.href"))
    page.wait_for(READY, timeout=60)
    order = []
    for _ in range(12):
        page.key("Tab", key_code=9)
        order.append(page.evaluate("document.activeElement.id"))
    while order and not order[0]:
        order.pop(0)  # the document itself
    expected = ["date", "go", "now", "play", "speed", "focus", "mission", "sky", "labels", "smallbodies", "picture"]
    checks.check(order[: len(expected)] == expected, f"Tab order: the toolbar, the canvas, its buttons: {order}")


def check_small_bodies(browser, base, checks, shots):
    print("the asteroids-and-comets layer")
    page = browser.new_page(1280, 720)
    page.goto(urllib.parse.urljoin(base, f"?date={FIXED_DATE}&smallbodies=1"))
    page.wait_for(READY + " && window.__solarsystem.smallBodies && window.__solarsystem.smallBodies.loaded", timeout=120)
    time.sleep(0.3)
    state = page.evaluate("window.__solarsystem")
    drawn = state["smallBodies"]["drawn"]
    ids = [d["id"] for d in drawn]
    checks.check(len(drawn) >= 5 and all(d["pathPoints"] > 100 for d in drawn),
                 f"small bodies drawn with their paths: {len(drawn)} ({', '.join(ids)})")
    scene = get_json(urllib.parse.urljoin(base, f"v1/scene?date={urllib.parse.quote(state['dateParam'])}&smallBodies={urllib.parse.quote(','.join(ids))}"))
    cam, vp = state["camera"], state["viewport"]
    worst, compared = 0.0, 0
    for body in scene.get("smallBodies", []):
        expected = project(body["position"], cam["eye"], cam["target"], cam["up"], cam["fovDeg"], vp["width"], vp["height"])
        reported = next((d for d in drawn if d["id"] == body["id"]), None)
        if expected is None or reported is None or reported["x"] is None:
            continue
        compared += 1
        worst = max(worst, math.hypot(expected[0] - reported["x"], expected[1] - reported["y"]))
    checks.check(compared >= 5 and worst <= 2, f"small bodies: {compared} within 2 px of the projection of /v1/scene?smallBodies= (worst {worst:.3f} px)")
    labelled = [l["id"] for l in state["labels"] if l["id"].startswith("small:")]
    checks.check(len(labelled) >= 1, f"small bodies are labelled ({len(labelled)})")
    checks.check("smallBodies=" in state["picture"], "the picture link carries the small bodies")
    with urllib.request.urlopen(state["picture"], timeout=120) as r:
        checks.check(r.headers.get("Content-Type") == "image/png" and len(r.read()) > 1000, "the picture with the small bodies is a PNG")
    if shots:
        page.screenshot(os.path.join(shots, "viewer-smallbodies.png"))
    checks.check(not page.problems, "no console errors with the small-body layer" + (f": {page.problems}" if page.problems else ""))
    page.close()


def check_playback(browser, base, checks):
    print("playing time at 1 week/s")
    page = browser.new_page(1280, 720)
    page.goto(urllib.parse.urljoin(base, f"?date={FIXED_DATE}&speed=604800"))
    page.wait_for(READY, timeout=60)
    page.evaluate("""window.__frames = 0; (function f() { window.__frames++; requestAnimationFrame(f); })();
      performance.clearResourceTimings(); performance.setResourceTimingBufferSize(5000);
      document.getElementById('play').click()""")
    start = page.evaluate("window.__solarsystem.date")
    page.wait_for("window.__solarsystem.playing && window.__solarsystem.date > '2026-12-06'", timeout=60)
    positions = []
    for _ in range(6):
        positions.append(page.evaluate("[window.__solarsystem.date, window.__solarsystem.planets.earth]"))
        time.sleep(0.3)
    frames = page.evaluate("window.__frames")
    requests = page.evaluate("performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)")
    scenes = sum(1 for r in requests if r.endswith("/v1/scene"))
    series = sum(1 for r in requests if "/v1/positions/" in r)
    dates = [d for d, _ in positions]
    checks.check(dates == sorted(dates) and dates[0] > start, f"the clock runs: {start} → {dates[-1]}")
    moved = [math.hypot(b[1][0] - a[1][0], b[1][1] - a[1][1]) for a, b in zip(positions, positions[1:]) if a[1] and b[1]]
    checks.check(len(moved) >= 4 and max(moved) < 40, f"the Earth moves in small steps ({', '.join(f'{m:.1f}' for m in moved)} px per 0.3 s)")
    checks.check(series > 0 and scenes <= 3 and scenes + series < frames, f"motion from the series endpoint, not per frame: {series} series and {scenes} scene requests in {frames} frames")
    page.evaluate("document.getElementById('play').click()")
    page.wait_for(READY, timeout=30)
    checks.check(not page.problems, "no console errors while playing" + (f": {page.problems}" if page.problems else ""))
    page.close()


def check_reduced_motion(browser, base, checks):
    print("prefers-reduced-motion")
    page = browser.new_page(1280, 720)
    page.emulate_media({"prefers-reduced-motion": "reduce"})
    page.goto(urllib.parse.urljoin(base, f"?date={FIXED_DATE}"))
    page.wait_for(READY, timeout=60)
    page.evaluate("""(() => { const s = document.getElementById('focus'); s.value = 'jupiter';
      s.dispatchEvent(new Event('change')); })()""")
    page.wait_for("window.__solarsystem.camera.focus === 'jupiter' && window.__solarsystem.ready", timeout=20, interval=0.02)
    cam = page.evaluate("window.__solarsystem.camera")
    focus = get_json(urllib.parse.urljoin(base, f"v1/camera/focus/jupiter?date={FIXED_DATE}&aspect={1280 / 720:.4f}"))
    checks.check(abs(cam["distance"] - focus["distance"]) < 1e-9 * focus["distance"], "with reduced motion a preset is reached at once, without a camera flight")
    checks.check(not page.problems, "no console errors with reduced motion" + (f": {page.problems}" if page.problems else ""))
    page.close()


def check_phone(browser, base, checks, shots):
    print("page at 390x844 (touch)")
    page = browser.new_page(390, 844, mobile=True)
    page.goto(urllib.parse.urljoin(base, f"?date={FIXED_DATE}"))
    page.wait_for(READY, timeout=60)
    time.sleep(0.3)
    stats = canvas_stats(page)
    checks.check(stats["lit"] > 0.003, f"phone: canvas is drawn ({stats['lit']:.2%} lit)")
    overflow = page.evaluate("document.documentElement.scrollWidth")
    checks.check(overflow <= 390, f"phone: nothing wider than the screen ({overflow} px)")
    if shots:
        page.screenshot(os.path.join(shots, "viewer-phone.png"))
    state = page.evaluate("window.__solarsystem")
    check_drawn_centres(checks, page, get_json(urllib.parse.urljoin(base, f"v1/scene?date={urllib.parse.quote(state['dateParam'])}")), "phone", at_least=9)
    state = page.evaluate("window.__solarsystem")
    check_planets_labelled(checks, state, "phone 390x844")
    check_labels(checks, state)
    rect = page.evaluate("(() => { const r = document.getElementById('sky').getBoundingClientRect(); return [r.left, r.top]; })()")
    x, y = rect[0] + 195, rect[1] + 250
    page.touch("touchStart", [(x, y)])
    for k in range(1, 8):
        page.touch("touchMove", [(x + 12 * k, y)])
    page.touch("touchEnd", [])
    time.sleep(0.2)
    turned = page.evaluate("window.__solarsystem.camera")
    checks.check(abs(turned["azimuth"] - state["camera"]["azimuth"]) > 0.2, "phone: a one-finger drag orbits")
    page.touch("touchStart", [(x - 40, y), (x + 40, y)])
    for k in range(1, 6):
        page.touch("touchMove", [(x - 40 - 15 * k, y), (x + 40 + 15 * k, y)])
    page.touch("touchEnd", [])
    time.sleep(0.2)
    pinched = page.evaluate("window.__solarsystem.camera")
    checks.check(pinched["distance"] < turned["distance"] * 0.8, "phone: pinching zooms in")
    # A double tap on empty sky brings back the overview's preset.
    sx, sy = rect[0] + 30, rect[1] + 60
    for _ in range(2):
        page.touch("touchStart", [(sx, sy)])
        page.touch("touchEnd", [])
        time.sleep(0.08)
    try:
        reset = page.wait_for(f"Math.abs(window.__solarsystem.camera.distance - {state['camera']['distance']!r}) < 1e-6 * {state['camera']['distance']!r} && " + READY + " && window.__solarsystem.camera", timeout=10, interval=0.05)
    except CDPError:
        reset = page.evaluate("window.__solarsystem.camera")
    checks.check(abs(reset["distance"] - state["camera"]["distance"]) < 1e-6 * state["camera"]["distance"] and abs(reset["azimuth"] - state["camera"]["azimuth"]) < 1e-6,
                 f"phone: a double tap resets the view (distance {pinched['distance']:.1f} → {reset['distance']:.1f}, preset {state['camera']['distance']:.1f})")
    checks.check(not page.problems, "no console errors at 390x844" + (f": {page.problems}" if page.problems else ""))
    page.close()


def png_pixels(data):
    """(width, height, bytes per pixel, rows) of an 8-bit, non-interlaced RGB or RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or interlace or ctype not in (2, 6):
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})")
        elif kind == b"IDAT":
            idat += body
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev, i = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def disc_correlation(one, two, x0, y0, r):
    """Pearson correlation of the two images' luminance (Rec. 709 weights on the sRGB bytes) over
    the pixels within 0.95 r of (x0, y0): the disc only, so neither the black sky around it nor
    the lines and stars drawn over the sky count."""
    xs, ys = [], []
    for y in range(max(0, int(y0 - r)), min(one[1], two[1], int(y0 + r) + 1)):
        for x in range(max(0, int(x0 - r)), min(one[0], two[0], int(x0 + r) + 1)):
            if (x - x0) ** 2 + (y - y0) ** 2 >= (0.95 * r) ** 2:
                continue
            for img, out in ((one, xs), (two, ys)):
                row, o = img[3][y], x * img[2]
                out.append(0.2126 * row[o] + 0.7152 * row[o + 1] + 0.0722 * row[o + 2])
    if len(xs) < 100:
        return float("nan"), len(xs)
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((a - mx) * (b - my) for a, b in zip(xs, ys))
    sxx, syy = sum((a - mx) ** 2 for a in xs), sum((b - my) ** 2 for b in ys)
    return (sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else 0.0), len(xs)


# The Earth close-up must correlate with the server's ray-cast picture of the same camera above
# this. Both draw the same map, turned by the same sceneQuaternion, lit the same way (Lambert,
# 2 % ambient, ×1.5 exposure, sRGB); what differs is the sampling (GPU mipmaps and the
# rasteriser's edge against the ray-caster's bilinear taps) and the lines each draws over the disc
# (the page hides heliocentric orbits there, the picture does not). Measured: 0.98 when right; the
# same page with the map turned 90° or 180° about the pole (`spin=`) gives −0.2 to −0.3, so 0.8
# leaves room for sampling differences and none for a wrongly oriented globe.
EARTH_CORRELATION_BOUND = 0.8
EARTH_CAMERA = "date=2026-11-22T00:00:00Z&focus=earth&azimuth=-0.45&elevation=0.2&distance=0.3"


def earth_correlation(browser, base, spin):
    page = browser.new_page(480, 480)
    page.goto(urllib.parse.urljoin(base, f"?{EARTH_CAMERA}&spin={spin}"))
    page.wait_for(READY + " && window.__solarsystem.gl && window.__solarsystem.gl.texturesPending === 0", timeout=60)
    page.evaluate("document.getElementById('labels').click()")
    time.sleep(0.3)
    state = page.wait_for(READY + " && window.__solarsystem", timeout=30)
    with urllib.request.urlopen(state["picture"] + "&labels=none", timeout=60) as r:
        server = png_pixels(r.read())
    mine = png_pixels(base64.b64decode(page.evaluate("window.__solarsystemCapture()").split(",", 1)[1]))
    earth = state["bodies"]["earth"]
    value, n = disc_correlation(server, mine, earth["x"], earth["y"], earth["r"])
    page.close()
    return value, n, earth["r"], (server[0], server[1]) == (mine[0], mine[1])


def check_earth_texture(browser, base, checks):
    print("the Earth close-up against the server's ray-cast picture")
    good, n, r, same = earth_correlation(browser, base, 0)
    checks.check(same and good > EARTH_CORRELATION_BOUND,
                 f"Earth ({r:.0f} px radius, {n} pixels): luminance correlation with /v1/views/system.png {good:.3f} > {EARTH_CORRELATION_BOUND}")
    wrong, _, _, _ = earth_correlation(browser, base, 180)
    checks.check(wrong < EARTH_CORRELATION_BOUND, f"a map turned 180° about the pole fails the bound ({wrong:.3f})")


def check_first_textured_frame(browser, base, checks):
    print("first textured frame, cold cache")
    page = browser.new_page(1280, 720)
    page.send("Network.enable")
    page.send("Network.clearBrowserCache")
    page.send("Network.setCacheDisabled", {"cacheDisabled": True})
    page.goto(urllib.parse.urljoin(base, f"?{EARTH_CAMERA}"))
    state = page.wait_for("window.__solarsystem && window.__solarsystem.firstTexturedMs !== null && window.__solarsystem", timeout=30, interval=0.05)
    ms = state["firstTexturedMs"]
    checks.check(ms <= 1500, f"first textured frame {ms:.0f} ms after the navigation began (bound 1500 ms)")
    page.close()


def check_reset_keys(browser, base, checks):
    """`0` and Home bring back the view's preset after turning the camera, in the overview, a
    focus preset and a mission's own framing."""
    print("the reset keys in every view")
    for what, query in (("overview", f"date={FIXED_DATE}"), ("Jupiter preset", f"date={FIXED_DATE}&focus=jupiter"),
                        ("mission view", "mission=apollo11")):
        page = browser.new_page(1280, 720)
        page.goto(urllib.parse.urljoin(base, "?" + query))
        before = page.wait_for(READY + " && window.__solarsystem.camera", timeout=60)
        ok = True
        for key, code, key_code in (("0", "Digit0", 48), ("Home", "Home", 36)):
            page.evaluate("document.getElementById('sky').focus()")
            for _ in range(5):
                page.key("ArrowLeft", key_code=37)
            page.key("ArrowUp", key_code=38)
            # The page publishes its camera when it next draws (later on a loaded machine).
            try:
                turned = page.wait_for(f"Math.abs(window.__solarsystem.camera.azimuth - {before['azimuth']!r}) > 0.2 && window.__solarsystem.camera", timeout=5, interval=0.05)
            except CDPError:
                turned = page.evaluate("window.__solarsystem.camera")
            page.key(key, code=code, key_code=key_code, text=key if len(key) == 1 else None)
            try:
                after = page.wait_for(f"Math.abs(window.__solarsystem.camera.azimuth - {before['azimuth']!r}) < 1e-6 && " + READY + " && window.__solarsystem.camera", timeout=10, interval=0.05)
            except CDPError:
                after = page.evaluate("window.__solarsystem.camera")
            moved = abs(turned["azimuth"] - before["azimuth"]) > 0.2
            back = abs(after["azimuth"] - before["azimuth"]) < 1e-6 and abs(after["elevation"] - before["elevation"]) < 1e-6 \
                and abs(after["distance"] - before["distance"]) < 1e-6 * before["distance"]
            ok = ok and moved and back
            checks.check(moved and back, f"{what}: {key} brings the preset back (azimuth {turned['azimuth']:.3f} → {after['azimuth']:.3f}, preset {before['azimuth']:.3f})")
        page.close()


def check_tap_and_moon(browser, base, checks):
    print("tap to select; the Earth's preset keeps the Moon in shot")
    page = browser.new_page(1280, 720)
    page.goto(urllib.parse.urljoin(base, f"?date={FIXED_DATE}"))
    state = page.wait_for(READY + " && window.__solarsystem", timeout=60)
    x, y = state["planets"]["jupiter"]
    rect = page.evaluate("(() => { const r = document.getElementById('sky').getBoundingClientRect(); return [r.left, r.top]; })()")
    page.mouse("mouseMoved", rect[0] + x, rect[1] + y, buttons=0)
    page.mouse("mousePressed", rect[0] + x, rect[1] + y)
    page.mouse("mouseReleased", rect[0] + x, rect[1] + y)
    after = page.wait_for("window.__solarsystem.camera.focus === 'jupiter' && " + READY + " && window.__solarsystem", timeout=20)
    checks.check(after["camera"]["focus"] == "jupiter", "a tap on Jupiter focuses it")
    page.close()
    landing = "1969-07-20T20:17:40Z"
    for w, h in ((1280, 720), (390, 844)):
        page = browser.new_page(w, h, mobile=w < 600)
        page.goto(urllib.parse.urljoin(base, f"?date={landing}&focus=earth"))
        state = page.wait_for(READY + " && window.__solarsystem", timeout=60)
        moon, vp = state["bodies"].get("moon"), state["viewport"]
        inside = bool(moon) and moon["visible"] and 0 <= moon["x"] <= vp["width"] and 0 <= moon["y"] <= vp["height"]
        checks.check(inside, f"{w}x{h}: focus=earth at the Apollo 11 landing keeps the Moon in shot ({moon and (round(moon['x']), round(moon['y']))} in {vp['width']}x{vp['height']})")
        page.close()


def check_phone_mission(browser, base, checks):
    print("a mission on a phone: the scene stays visible, every event reachable")
    page = browser.new_page(390, 844, mobile=True)
    page.goto(urllib.parse.urljoin(base, "?mission=apollo11"))
    page.wait_for(READY, timeout=60)
    sky = page.evaluate("(() => { const r = document.getElementById('sky').getBoundingClientRect(); return r.height; })()")
    panel = page.evaluate("(() => { const r = document.getElementById('mission-panel').getBoundingClientRect(); return r.height; })()")
    checks.check(panel < 0.2 * sky, f"phone: the mission panel starts collapsed ({panel:.0f} px of a {sky:.0f} px scene)")
    page.evaluate("document.getElementById('panel-toggle').click()")
    time.sleep(0.2)
    panel = page.evaluate("(() => { const r = document.getElementById('mission-panel').getBoundingClientRect(); return r.height; })()")
    reached = page.evaluate("""(() => {
      const panel = document.getElementById('mission-panel').getBoundingClientRect();
      return [...document.querySelectorAll('#timeline li')].map(li => {
        li.scrollIntoView({ block: 'nearest' });
        const r = li.getBoundingClientRect();
        return r.height > 0 && r.top >= panel.top - 1 && r.bottom <= panel.bottom + 1 && r.bottom <= innerHeight;
      });
    })()""")
    checks.check(panel <= 0.5 * sky and reached and all(reached),
                 f"phone: opened, the panel takes {panel:.0f} of {sky:.0f} px and all {sum(reached)} of {len(reached)} events scroll into it")
    checks.check(not page.problems, "no console errors in the phone mission view" + (f": {page.problems}" if page.problems else ""))
    page.close()


def check_eagle_on_moon(browser, base, checks):
    print("Apollo 11: Eagle on the Moon while landed")
    for hours in (103.5, 115, 124):
        page = browser.new_page(1280, 720)
        page.goto(urllib.parse.urljoin(base, f"?mission=apollo11&hours={hours}"))
        state = page.wait_for(READY + " && window.__solarsystem", timeout=60)
        moon = state["bodies"].get("moon")
        eagle = next((m for m in state["markers"] if m["id"] == "lm_eagle"), None)
        if not moon or not eagle or eagle["x"] is None:
            checks.check(False, f"T+{hours} h: Moon or Eagle not drawn ({moon}, {eagle})")
        else:
            # The reported radius is R·(pixels per unit)/depth; off the view's axis, by an angle θ,
            # perspective stretches the drawn disc radially to about r / cos θ.
            vp = state["viewport"]
            ppu = vp["height"] / 2 / math.tan(math.radians(state["camera"]["fovDeg"]) / 2)
            theta = math.atan(math.hypot(moon["x"] - vp["width"] / 2, moon["y"] - vp["height"] / 2) / ppu)
            bound = moon["r"] / math.cos(theta) + 0.5
            d = math.hypot(eagle["x"] - moon["x"], eagle["y"] - moon["y"])
            checks.check(d <= bound, f"T+{hours} h: Eagle {d:.2f} px from the Moon's centre, within its drawn disc ({moon['r']:.2f} px, {bound:.2f} px off-axis)")
        page.close()


# During a 40 s replay of Apollo 11 at its own speed (10 000×: 111 mission hours), motion windows
# of 12 s of playback each: at most ceil(40 / 12) + 1 windows (the next is prefetched halfway
# through the current one), each one request per body; the orbits are not fetched again at all.
REPLAY_SECONDS = 40
MAX_WINDOWS = math.ceil(REPLAY_SECONDS / 12) + 1
MIN_FPS = 30


def check_replay_requests(browser, base, checks):
    print(f"Apollo 11 replayed for {REPLAY_SECONDS} s at 1280x720: requests and frame rate")
    page = browser.new_page(1280, 720)
    page.goto(urllib.parse.urljoin(base, "?mission=apollo11"))
    page.wait_for(READY, timeout=60)
    time.sleep(0.5)
    page.evaluate("""performance.clearResourceTimings(); performance.setResourceTimingBufferSize(5000);
      window.__stamps = []; (function f(t) { window.__stamps.push(t); requestAnimationFrame(f); })(performance.now());
      document.getElementById('play').click()""")
    time.sleep(10)
    stamps = page.evaluate("window.__stamps")
    time.sleep(REPLAY_SECONDS - 10)
    entries = page.evaluate("performance.getEntriesByType('resource').map(e => [e.name, e.transferSize || e.encodedBodySize || 0])")
    page.evaluate("document.getElementById('play').click()")
    fps = (len(stamps) - 1) / ((stamps[-1] - stamps[0]) / 1000) if len(stamps) > 1 else 0
    gaps = sorted(b - a for a, b in zip(stamps, stamps[1:]))
    print(f"  fps   {fps:.1f} frames/s over {(stamps[-1] - stamps[0]) / 1000:.1f} s of play at 1280x720 (median frame {statistics.median(gaps):.1f} ms, 95th percentile {gaps[int(len(gaps) * 0.95)]:.1f} ms)")
    checks.check(fps >= MIN_FPS, f"{fps:.1f} frames/s during the replay (bound {MIN_FPS})")
    per_body, windows, orbits, total_bytes = {}, {}, 0, 0
    for url, size in entries:
        total_bytes += size
        parts = urllib.parse.urlsplit(url)
        if "/v1/positions/" in parts.path:
            body = parts.path.rsplit("/", 1)[1]
            start = urllib.parse.parse_qs(parts.query).get("start", [""])[0]
            per_body[body] = per_body.get(body, 0) + 1
            windows.setdefault(body, []).append(start)
        elif parts.path.endswith("/v1/orbits"):
            orbits += 1
    worst = max(per_body.values(), default=0)
    repeated = [b for b, starts in windows.items() if len(starts) != len(set(starts))]
    print(f"  info  {len(entries)} requests, {total_bytes / 1024:.0f} KB in {REPLAY_SECONDS} s: {sum(per_body.values())} series for {len(per_body)} bodies, {orbits} orbits (the event stream is not in the resource timings)")
    checks.check(per_body and worst <= MAX_WINDOWS and not repeated,
                 f"at most one series request per body per playback window: {worst} per body (bound {MAX_WINDOWS})" + (f"; repeated windows: {repeated}" if repeated else ""))
    checks.check(orbits == 0, f"the orbits are not fetched again while the replay runs ({orbits})")
    checks.check(len(entries) <= MAX_WINDOWS * 24 + 10, f"{len(entries)} requests in {REPLAY_SECONDS} s (bound {MAX_WINDOWS * 24 + 10})")
    checks.check(not page.problems, "no console errors during the 40 s replay" + (f": {page.problems}" if page.problems else ""))
    page.close()
    return fps


# Issue 39's bounds: a mission replay at least this share of the overview's frame rate (playing
# dates, so it draws every frame) and of a bare WebGL2 page's, same browser, same run.
REPLAY_VS_OVERVIEW = 0.9
REPLAY_VS_BARE = 0.6


def check_frame_rates(browser, base, checks):
    """The three frame rates side by side (scripts/browser/frame_rates.py), medians of three rounds."""
    print("frame rates at 1280x720: a bare WebGL2 page, the overview playing, Apollo 11 and Voyager 2 replayed (3 rounds, medians)")
    rates, problems = frame_rates.measure(browser, base, ("apollo11", "voyager2"), rounds=3, seconds=6,
                                          log=lambda line: print("  " + line.strip()))
    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"  fps   bare WebGL2 {med['bare']:.1f}, overview {med['overview']:.1f}, Apollo 11 {med['apollo11']:.1f}, Voyager 2 {med['voyager2']:.1f} frames/s (load average {os.getloadavg()[0]:.1f})")
    # The ratios are a benchmark's: judged when a person runs the check on a quiet machine
    # (FRAME_RATE_BOUNDS=enforce, viewer-check.sh's default); CI, on a shared machine where one
    # page's rate swings ±20 % between rounds, prints them and whether the goal was met.
    enforce = os.environ.get("FRAME_RATE_BOUNDS", "enforce") != "report"

    def goal(ok, what):
        if enforce:
            checks.check(ok, what)
        else:
            print(f"  {'goal' if ok else 'MISSED'}  {what} (reported, not judged: FRAME_RATE_BOUNDS=report)")
    for mission in ("apollo11", "voyager2"):
        vs_overview = med[mission] / med["overview"] if med["overview"] else 0
        vs_bare = med[mission] / med["bare"] if med["bare"] else 0
        goal(vs_overview >= REPLAY_VS_OVERVIEW, f"{mission} replay {med[mission]:.1f} frames/s = {vs_overview:.2f}x the overview's {med['overview']:.1f} (bound {REPLAY_VS_OVERVIEW})")
        goal(vs_bare >= REPLAY_VS_BARE, f"{mission} replay {med[mission]:.1f} frames/s = {vs_bare:.2f}x the bare WebGL2 page's {med['bare']:.1f} (bound {REPLAY_VS_BARE})")
    checks.check(not problems, "no console errors while measuring frame rates" + (f": {problems}" if problems else ""))


def check_context_loss(browser, base, checks):
    """WEBGL_lose_context: the page waits the loss out and draws again, textures and labels included, once restored."""
    print("a lost WebGL context")
    page = browser.new_page(1280, 720)
    page.goto(urllib.parse.urljoin(base, f"?date={FIXED_DATE}&focus=earth"))
    page.wait_for(READY + " && window.__solarsystem.gl.texturesPending === 0", timeout=60)
    page.evaluate("""window.__lose = document.getElementById('gl').getContext('webgl2').getExtension('WEBGL_lose_context');
      window.__lose.loseContext(); 0""")
    lost = page.wait_for("window.__solarsystem.gl.lost", timeout=10)
    page.evaluate("window.__lose.restoreContext(); 0")
    state = page.wait_for("window.__solarsystem.gl.restores >= 1 && !window.__solarsystem.gl.lost && window.__solarsystem.gl.texturesPending === 0 && window.__solarsystem", timeout=30)
    textured = page.wait_for("(() => { const n = window.__solarsystem.gl.texturedFrames; window.__solarsystemDraw(); return window.__solarsystem.gl.texturedFrames > n; })()", timeout=10)
    stats = canvas_stats(page)
    checks.check(bool(lost) and state["gl"]["restores"] == 1 and textured and stats["lit"] > 0.003 and stats["colours"] > 20,
                 f"after loseContext/restoreContext the page draws again, textured ({stats['lit']:.2%} lit, {stats['colours']} colours)")
    check_labels(checks, state)
    checks.check(not page.problems, "no console errors around the lost context" + (f": {page.problems}" if page.problems else ""))
    page.close()


def check_2d_fallback(browser, base, checks):
    print("the 2D canvas fallback (?renderer=2d)")
    page = browser.new_page(1280, 720)
    page.goto(urllib.parse.urljoin(base, f"?date={FIXED_DATE}&renderer=2d"))
    state = page.wait_for(READY + " && window.__solarsystem", timeout=60)
    stats = canvas_stats(page)
    checks.check(state["renderer"] == "2d" and stats["lit"] > 0.003 and stats["colours"] > 20, f"2D: canvas is drawn ({stats['lit']:.2%} lit, {stats['colours']} colours)")
    scene = get_json(urllib.parse.urljoin(base, f"v1/scene?date={urllib.parse.quote(state['dateParam'])}"))
    check_projection(checks, state, scene, "2D overview", at_least=9)
    check_labels(checks, state)
    check_planets_labelled(checks, state, "2D 1280x720")
    checks.check(not page.problems, "no console errors in 2D" + (f": {page.problems}" if page.problems else ""))
    page.close()
    # A browser without WebGL2: the page falls back by itself.
    page = browser.new_page(1280, 720)
    page.send("Page.addScriptToEvaluateOnNewDocument", {"source": """(() => {
      const original = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
        return kind === 'webgl2' ? null : original.call(this, kind, ...rest);
      };
    })()"""})
    page.goto(urllib.parse.urljoin(base, f"?date={FIXED_DATE}"))
    state = page.wait_for(READY + " && window.__solarsystem", timeout=60)
    stats = canvas_stats(page)
    checks.check(state["renderer"] == "2d" and stats["lit"] > 0.003 and not page.problems,
                 f"without WebGL2 the page draws in 2D by itself ({state['renderer']}: {state['rendererNote']!r}, {stats['lit']:.2%} lit)"
                 + (f"; errors: {page.problems}" if page.problems else ""))
    page.close()


def check_error_display(browser, base, checks):
    print("API errors on the page")
    page = browser.new_page(1280, 720)
    page.goto(urllib.parse.urljoin(base, "?date=3500-01-01"))
    page.wait_for("!document.getElementById('error').hidden", timeout=30)
    shown = page.evaluate("document.getElementById('error-text').textContent")
    try:
        urllib.request.urlopen(urllib.parse.urljoin(base, "v1/scene?date=3500-01-01T00:00:00Z"), timeout=30)
        detail = None
    except urllib.error.HTTPError as e:
        detail = json.load(e).get("detail")
    checks.check(bool(detail) and detail in shown, f"a 400 from the API shows its detail: {shown!r}")
    stats = canvas_stats(page)
    checks.check(stats["lit"] > 0.0005, "the canvas is not blank after an error")
    page.close()


class LoopbackProxy:
    """A TCP proxy on a free loopback port in front of the server; subclasses say how to `serve`
    one client connection."""

    def __init__(self, target_host, target_port):
        self.target = (target_host, target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self.serve, args=(client,), daemon=True).start()

    def serve(self, client):
        raise NotImplementedError

    def close(self):
        self.listener.close()


class PrefixProxy(LoopbackProxy):
    """A reverse proxy that serves the server under /solar/: request lines `GET /solar/x` are
    forwarded as `GET /x`; anything outside the prefix gets 404 from the proxy itself."""

    PREFIX = b"/solar"

    def __init__(self, target_host, target_port):
        self.outside = []
        super().__init__(target_host, target_port)

    def serve(self, client):
        # One request per connection keeps the rewriting simple: the proxy answers Connection: close.
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = client.recv(65536)
            if not chunk:
                client.close()
                return
            head += chunk
        line, rest = head.split(b"\r\n", 1)
        method, target, version = line.split(b" ", 2)
        if not target.startswith(self.PREFIX + b"/"):
            self.outside.append(target.decode())
            client.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            client.close()
            return
        headers = [h for h in rest.split(b"\r\n") if not h.lower().startswith(b"connection:")]
        request = b" ".join([method, target[len(self.PREFIX):], version]) + b"\r\nConnection: close\r\n" + b"\r\n".join(headers)
        with socket.create_connection(self.target) as upstream:
            upstream.sendall(request)
            while True:
                data = upstream.recv(65536)
                if not data:
                    break
                client.sendall(data)
        client.close()


def check_prefix(browser, base, checks):
    print("behind a path prefix (/solar/)")
    parsed = urllib.parse.urlsplit(base)
    proxy = PrefixProxy(parsed.hostname, parsed.port or 80)
    try:
        page = browser.new_page(1280, 720)
        page.goto(f"http://127.0.0.1:{proxy.port}/solar/?date={FIXED_DATE}&focus=mars")
        page.wait_for(READY, timeout=60)
        state = page.evaluate("window.__solarsystem")
        checks.check(len(state["planets"]) >= 1 and canvas_stats(page)["lit"] > 0.003 and state["picture"].startswith(f"http://127.0.0.1:{proxy.port}/solar/v1/"),
                     "the page, its modules and its API calls work under /solar/")
        checks.check(not proxy.outside, "nothing was asked outside the prefix" + (f": {proxy.outside}" if proxy.outside else ""))
        checks.check(not page.problems, "no console errors under the prefix" + (f": {page.problems}" if page.problems else ""))
        page.close()
    finally:
        proxy.close()


class CuttingProxy(LoopbackProxy):
    """Forwards TCP to the server; cuts the first connection that asks for an event stream once
    `cut_after` bytes of the stream have gone through, so the page must reconnect and resume.
    (The browser may send the stream request on a kept-alive connection, so every request line is
    looked at, not only a connection's first.)"""

    def __init__(self, target_host, target_port, cut_after=6000):
        self.cut_after = cut_after
        self.cuts = 0
        self.lock = threading.Lock()
        super().__init__(target_host, target_port)

    def serve(self, client):
        upstream = socket.create_connection(self.target)
        armed = threading.Event()

        def close_both():
            for s in (client, upstream):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        def requests():
            try:
                while True:
                    data = client.recv(65536)
                    if not data:
                        break
                    if b"/stream?" in data and b"GET " in data:
                        with self.lock:
                            if self.cuts == 0:
                                self.cuts = 1
                                armed.set()
                    upstream.sendall(data)
            except OSError:
                pass
            close_both()

        threading.Thread(target=requests, daemon=True).start()
        sent = 0
        try:
            while True:
                data = upstream.recv(65536)
                if not data:
                    break
                client.sendall(data)
                if armed.is_set():
                    sent += len(data)
                    if sent >= self.cut_after:
                        break
        except OSError:
            pass
        close_both()
        client.close()
        upstream.close()


def check_mission(browser, base, checks, mission="apollo11", speed=100000):
    print(f"mission replay: {mission} at {speed}x through a proxy that cuts the stream once")
    parsed = urllib.parse.urlsplit(base)
    proxy = CuttingProxy(parsed.hostname, parsed.port or 80)
    try:
        proxied = f"http://127.0.0.1:{proxy.port}{parsed.path or '/'}"
        page = browser.new_page(1280, 720)
        page.goto(urllib.parse.urljoin(proxied, f"?mission={mission}&speed={speed}&play=1"))
        detail = get_json(urllib.parse.urljoin(base, f"v1/missions/{mission}"))
        seconds = detail["replayEndHours"] * 3600 / speed
        state = page.wait_for("window.__solarsystem && window.__solarsystem.mission && window.__solarsystem.mission.ended && window.__solarsystem.mission",
                              timeout=seconds + 45, interval=0.25)
        got = [(e["t"], e["name"]) for e in state["events"]]
        want = [(e["t"], e["name"]) for e in detail["events"]]
        checks.check(proxy.cuts == 1 and state["reconnects"] >= 1, f"the stream was cut and the page reconnected ({state['reconnects']} reconnects)")
        checks.check(sorted(got) == sorted(want) and len(set(got)) == len(got),
                     f"every mission event reached the page once ({len(got)} of {len(want)}; {state['deliveries']} deliveries)"
                     + ("" if sorted(got) == sorted(want) else f": missing {sorted(set(want) - set(got))}, extra {sorted(set(got) - set(want))}"))
        done = page.evaluate("document.querySelectorAll('#timeline li.done').length")
        checks.check(done == len(want), f"the timeline marks {done} of {len(want)} events")
        telemetry = page.evaluate("['t-met', 't-phase', 't-distance', 't-speed', 't-last'].map(id => document.getElementById(id).textContent)")
        checks.check(all(t and t != "—" for t in telemetry), f"telemetry panel filled: {telemetry}")
        # Turned and panned by hand around the mission (still its focus): the picture follows.
        if page.evaluate("window.__solarsystem.playing"):
            page.evaluate("document.getElementById('play').click()")
        framed = page.wait_for(READY + " && window.__solarsystem", timeout=30)
        check_picture_is_view(checks, framed, f"{mission}, its own framing")
        before = framed["camera"]
        page.evaluate("document.getElementById('sky').focus()")
        page.key("ArrowLeft", key_code=37)
        page.key("ArrowUp", key_code=38, modifiers=8)
        time.sleep(0.3)  # the page publishes when it next draws
        state = page.wait_for(READY + " && window.__solarsystem", timeout=30)
        moved = state["camera"]["focus"] == "mission" and abs(state["camera"]["azimuth"] - before["azimuth"]) > 0.01 \
            and max(abs(a - b) for a, b in zip(state["camera"]["target"], before["target"])) > 0
        checks.check(moved, f"{mission}: the arrow keys turn and Shift+arrow pans the mission camera")
        check_picture_is_view(checks, state, f"{mission}, turned and panned by hand")
        # A cut connection is logged by the browser; anything else is a real error.
        problems = [p for p in page.problems if "/stream" not in p]
        checks.check(not problems, "no console errors during the replay" + (f": {problems}" if problems else ""))
        page.close()
    finally:
        proxy.close()


TRAVERSALS = [
    "/../../etc/passwd",
    "/js/../../../etc/passwd",
    "/..%2f..%2fetc%2fpasswd",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/js/%2e%2e/index.html",
    "/js%2fmain.js",
    "/%2e%2e%5c%2e%2e%5cetc%5cpasswd",
    "/index.html%00.png",
    "/%00",
    "//etc/passwd",
    "/.git/config",
    "/js/.hidden.js",
    "/etc/passwd",
    "/Resources/web/index.html",
    "/js/",
    "/C:%5cWindows%5cwin.ini",
    "http://localhost/../../etc/passwd",
]


def raw_get(host, port, target):
    with socket.create_connection((host, port), timeout=10) as s:
        s.sendall(f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.") else 0
    return status, data


def check_traversal(base, checks):
    print("path traversal")
    parsed = urllib.parse.urlsplit(base)
    for target in TRAVERSALS:
        status, data = raw_get(parsed.hostname, parsed.port or 80, target)
        leaked = b"root:" in data or b"[core]" in data or b"<!doctype html" in data.lower()
        trail = f"GET {target} -> {status}"
        if status == 308:
            # Empty path segments are one rule for every route (docs/http.md): a 308 to the path
            # without them. The redirect must stay on this origin (a single leading slash, never
            # `//host`), and where it leads must be refused as well.
            location = next((line.split(b":", 1)[1].strip().decode("latin-1")
                             for line in data.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]
                             if line.lower().startswith(b"location:")), "")
            if not location.startswith("/") or location.startswith("//"):
                checks.check(False, f"{trail} to {location!r}, which leaves this origin")
                continue
            status, data = raw_get(parsed.hostname, parsed.port or 80, location)
            leaked = leaked or b"root:" in data or b"[core]" in data or b"<!doctype html" in data.lower()
            trail += f" {location} -> {status}"
        checks.check(status in (400, 404) and not leaked, trail + (" (file content leaked)" if leaked else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True, help="the viewer's URL, e.g. http://127.0.0.1:8080/")
    parser.add_argument("--screenshots", help="directory for viewer.png and viewer-phone.png")
    parser.add_argument("--chromium", help="Chromium executable (default: found on PATH)")
    args = parser.parse_args()
    base = args.base if args.base.endswith("/") else args.base + "/"
    checks = Checks()
    try:
        with Browser(args.chromium) as browser:
            page = check_desktop(browser, base, checks, args.screenshots)
            check_controls(page, checks)
            page.close()
            check_phone(browser, base, checks, args.screenshots)
            check_reduced_motion(browser, base, checks)
            check_small_bodies(browser, base, checks, args.screenshots)
            check_playback(browser, base, checks)
            check_prefix(browser, base, checks)
            check_error_display(browser, base, checks)
            check_mission(browser, base, checks)
            check_2d_fallback(browser, base, checks)
            check_earth_texture(browser, base, checks)
            check_first_textured_frame(browser, base, checks)
            check_reset_keys(browser, base, checks)
            check_eagle_on_moon(browser, base, checks)
            check_tap_and_moon(browser, base, checks)
            check_phone_mission(browser, base, checks)
            check_replay_requests(browser, base, checks)
            check_context_loss(browser, base, checks)
            check_frame_rates(browser, base, checks)
        check_traversal(base, checks)
    except (CDPError, OSError) as e:
        checks.check(False, f"the check could not run: {e}")
    print(f"viewer: {checks.passed} passed, {len(checks.failures)} failed")
    for f in checks.failures:
        print(f"  failed: {f}")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
