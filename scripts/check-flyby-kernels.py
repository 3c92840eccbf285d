#!/usr/bin/env python3
"""Check mission kernels built from physics (New Horizons, Parker Solar Probe, BepiColombo) with
NAIF's own toolkit (spiceypy), independently of the Swift reader.

For each kernel it walks the vehicle's path every minute within a day of each flyby, each
segment boundary and each powered phase's ends, and every hour elsewhere, and reports:

- the largest heliocentric speed (must stay below 200 km/s);
- the least clearance above each body's radius (must stay positive; the launch pad itself and
  the ascent's powered phase are exempt);
- the largest velocity change per step that gravity (the Sun, the planets, the Moon as point
  masses from DE440, and the Earth's J2) does not explain, outside the vehicle's powered phases — the "speed jumps"
  a burn would make;
- at every boundary between segments, the jump in position and in velocity (position must be
  continuous, velocity too unless a powered phase holds the boundary);
- for every event stating a distance or altitude, the path's closest approach on that day (or
  within a day of the time) against the published figure.

usage: scripts/check-flyby-kernels.py [mission ...] [--kernels DIR] [--resources DIR]
Exit status 1 when a check fails. Needs `pip install spiceypy numpy`.
"""
import argparse
import json
import os
import sys
import tempfile

try:  # only for running: `--help` answers without them
    import numpy as np
    import spiceypy as sp
except ImportError as e:
    np = sp = None
    MISSING = e

# NAIF's leapseconds (naif0012.tls): TAI - UTC from 1972 on; the DELTET constants of the LSK.
LEAP_SECONDS = [
    (10, "1972-JAN-1"), (11, "1972-JUL-1"), (12, "1973-JAN-1"), (13, "1974-JAN-1"), (14, "1975-JAN-1"),
    (15, "1976-JAN-1"), (16, "1977-JAN-1"), (17, "1978-JAN-1"), (18, "1979-JAN-1"), (19, "1980-JAN-1"),
    (20, "1981-JUL-1"), (21, "1982-JUL-1"), (22, "1983-JUL-1"), (23, "1985-JUL-1"), (24, "1988-JAN-1"),
    (25, "1990-JAN-1"), (26, "1991-JAN-1"), (27, "1992-JUL-1"), (28, "1993-JUL-1"), (29, "1994-JUL-1"),
    (30, "1996-JAN-1"), (31, "1997-JUL-1"), (32, "1999-JAN-1"), (33, "2006-JAN-1"), (34, "2009-JAN-1"),
    (35, "2012-JUL-1"), (36, "2015-JUL-1"), (37, "2017-JAN-1"),
]

MISSIONS = {"newhorizons": -98, "parker": -96, "bepicolombo": -121}

# Bodies checked for clearance and summed for gravity: NAIF id as in DE440's kernel, engine id.
BODIES = [(10, "sun"), (1, "mercury"), (2, "venus"), (399, "earth"), (301, "moon"), (4, "mars"),
          (5, "jupiter"), (6, "saturn"), (7, "uranus"), (8, "neptune"), (9, "pluto")]
GM = {10: 1.32712440041279419e11, 1: 22031.868551, 2: 324858.592, 399: 398600.435507, 301: 4902.800118,
      4: 42828.375816, 5: 126712764.1, 6: 37940584.8418, 7: 5794556.4, 8: 6836527.10058, 9: 975.5}  # DE440 (Park et al. 2021)


def leapseconds_kernel():
    entries = "\n".join(f"                           {n},   @{d}" for n, d in LEAP_SECONDS)
    text = ("KPL/LSK\n\n\\begindata\n\nDELTET/DELTA_T_A       =   32.184\nDELTET/K               =    1.657D-3\n"
            "DELTET/EB              =    1.671D-2\nDELTET/M               = (  6.239996D0   1.99096871D-7 )\n\n"
            f"DELTET/DELTA_AT        = ( {entries.strip()} )\n\n\\begintext\n")
    f = tempfile.NamedTemporaryFile("w", suffix=".tls", delete=False)
    f.write(text)
    f.close()
    return f.name


def et(iso):
    return sp.str2et(iso.replace("Z", ""))


def utc(t):
    return sp.et2utc(t, "ISOC", 1) + "Z"


def segments(path, target):
    """(start, end, centre, frame, handle, descriptor, name) of the target's segments, in file order."""
    handle = sp.dafopr(path)
    sp.dafbfs(handle)
    out = []
    while sp.daffna():
        summary = sp.dafgs(n=5)
        dc, ic = sp.dafus(summary, 2, 6)
        if ic[0] == target:
            out.append((dc[0], dc[1], ic[1], ic[2], handle, summary, sp.dafgn().strip()))
    return out


def segment_state(seg, t):
    """The segment's own state at t, heliocentric ECLIPJ2000 (km, km/s)."""
    start, end, centre, frame, handle, descr, _ = seg
    _, state, _ = sp.spkpvn(handle, descr, t)
    state = np.array(state)
    if frame == 1:
        m = sp.pxform("J2000", "ECLIPJ2000", t)
        state = np.concatenate([m @ state[:3], m @ state[3:]])
    c, _ = sp.spkezr(str(centre), t, "ECLIPJ2000", "NONE", "10")
    return state + np.array(c)


# The Earth's J2 (EGM2008) and equatorial radius, and its pole in ecliptic J2000 (the J2000
# equator's pole: ecliptic longitude 90°, 23.439 279° from the ecliptic's pole). The kernels
# integrate their escapes under the Earth's oblateness, 15 mm/s² at 200 km.
EARTH_J2, EARTH_RADIUS = 1.0826267e-3, 6378.1366
EARTH_POLE = np.array([0.0, np.sin(np.radians(23.439279)), np.cos(np.radians(23.439279))]) if np is not None else None


def gravity(r, t):
    """Heliocentric acceleration (km/s²) of a point at r: the Sun, and each body's pull minus its pull on the Sun;
    the Earth's J2 too."""
    a = -GM[10] * r / np.linalg.norm(r) ** 3
    for naif, _ in BODIES[1:]:
        p, _ = sp.spkpos(str(naif), t, "ECLIPJ2000", "NONE", "10")
        p = np.array(p)
        d = p - r
        a += GM[naif] * (d / np.linalg.norm(d) ** 3 - p / np.linalg.norm(p) ** 3)
        if naif == 399:
            x = -d
            rr = np.linalg.norm(x)
            z = x @ EARTH_POLE
            k = 1.5 * EARTH_J2 * GM[399] * EARTH_RADIUS ** 2 / rr ** 5
            a += k * (x * (5 * z * z / (rr * rr) - 1) - 2 * z * EARTH_POLE)
    return a


def check(mission, target, kernel, missions, radii):
    m = next(x for x in missions if x["id"] == mission)
    vehicle = next(v for v in m["vehicles"] if v["naifId"] == target)
    powered = [(et(p["from"]), et(p["to"]), p["name"]) for p in vehicle.get("phases", []) if p["kind"] == "powered"]
    launch_phase = min(powered, key=lambda p: p[0]) if powered else None

    def in_powered(a, b=None):
        """The powered phase holding [a, b] in part (a burn inside the step)."""
        b = a if b is None else b
        return next((p for p in powered if p[0] - 1 <= b and a <= p[1] + 1), None)

    segs = segments(kernel, target)
    if not segs:
        print(f"{mission}: no segment for {target} in {kernel}")
        return False
    start, end = min(s[0] for s in segs), max(s[1] for s in segs)
    ok = True
    print(f"{mission} ({target}): {len(segs)} segments, {utc(start)} to {utc(end)}, {os.path.getsize(kernel)} bytes")

    # Boundaries between consecutive segments.
    worst_r = (0.0, None)
    jumps = []
    for a, b in zip(segs, segs[1:]):
        t = b[0]
        sa, sb = segment_state(a, t), segment_state(b, t)
        dr, dv = np.linalg.norm(sa[:3] - sb[:3]), np.linalg.norm(sa[3:] - sb[3:])
        if dr > worst_r[0]:
            worst_r = (dr, (a[6], b[6], utc(t)))
        if dv > 1e-6:
            jumps.append((t, dv, a[6], b[6]))
    print(f"  boundaries: largest position jump {worst_r[0] * 1000:.3f} m {worst_r[1] or ''}")
    if worst_r[0] > 0.01:
        print("  FAIL: the path is not continuous in position")
        ok = False
    for t, dv, na, nb in jumps:
        phase = in_powered(t)
        where = f'in powered phase "{phase[2]}"' if phase else "IN NO POWERED PHASE"
        print(f"  velocity jump {dv * 1000:.3f} m/s at {utc(t)} ({na} -> {nb}), {where}")
        if not phase:
            ok = False

    # The walk: minutes near events, boundaries and phase ends; hours elsewhere.
    marks = [s[0] for s in segs] + [end]
    for e in m["events"]:
        if e.get("fact", {}).get("body"):
            t = et(e["date"])
            marks += [t, t + 43200] if e.get("timeFrom") == "closest-approach" else [t]
    for p in powered:
        marks += [p[0], p[1]]
    marks = sorted(marks)
    times, t, i = [], start, 0
    while t < end:
        times.append(t)
        while i < len(marks) and marks[i] < t - 86400:
            i += 1
        near = i < len(marks) and abs(marks[i] - t) <= 86400
        t += 60 if near else 3600
    times.append(end)
    max_speed = (0.0, None)
    clearance = {name: (np.inf, None) for _, name in BODIES}
    worst_jump = (0.0, None)
    previous = None
    for t in times:
        s, _ = sp.spkezr(str(target), t, "ECLIPJ2000", "NONE", "10")
        s = np.array(s)
        speed = np.linalg.norm(s[3:])
        if speed > max_speed[0]:
            max_speed = (speed, t)
        at_pad = launch_phase and launch_phase[0] - 1 <= t <= launch_phase[1] + 1
        for naif, name in BODIES:
            if at_pad and name == "earth":
                continue
            p, _ = sp.spkpos(str(naif), t, "ECLIPJ2000", "NONE", "10")
            d = np.linalg.norm(s[:3] - np.array(p)) - radii[name]
            if d < clearance[name][0]:
                clearance[name] = (d, t)
        if previous is not None:
            t0, s0 = previous
            h = t - t0
            if not in_powered(t0, t):
                mid = 0.5 * (s0[:3] + s[:3]) + (s0[3:] - s[3:]) * h / 8
                g = (gravity(s0[:3], t0) + 4 * gravity(mid, 0.5 * (t0 + t)) + gravity(s[:3], t)) / 6
                unexplained = np.linalg.norm(s[3:] - s0[3:] - g * h) / h * 60
                if unexplained > worst_jump[0]:
                    worst_jump = (unexplained, t0)
        previous = (t, s)
    print(f"  walked {len(times)} states: largest speed {max_speed[0]:.2f} km/s at {utc(max_speed[1])}")
    if max_speed[0] >= 200:
        print("  FAIL: 200 km/s or faster")
        ok = False
    print(f"  largest velocity change per minute that gravity does not explain, outside powered phases: "
          f"{worst_jump[0] * 1000:.3f} m/s at {utc(worst_jump[1]) if worst_jump[1] else '-'}")
    for name, (d, t) in clearance.items():
        if d < 50_000_000 or name == "sun":
            print(f"  clearance above {name}: {d:,.0f} km at {utc(t)}")
        if d <= 0:
            print(f"  FAIL: inside {name}")
            ok = False

    # Published closest approaches.
    for e in m["events"]:
        f = e.get("fact", {})
        body = f.get("body")
        if not body or ("distanceKm" not in f and "altitudeKm" not in f):
            continue
        naif = next(n for n, name in BODIES if name == body)
        published = f.get("distanceKm") or f["altitudeKm"] + radii[body]
        t0 = et(e["date"])
        lo, hi = (t0, t0 + 86400) if e.get("timeFrom") == "closest-approach" else (t0 - 86400, t0 + 86400)
        lo, hi = max(lo, start), min(hi, end)
        if lo >= hi:
            continue

        def distance(t):
            s, _ = sp.spkpos(str(target), t, "ECLIPJ2000", "NONE", str(naif))
            return np.linalg.norm(s)
        grid = np.arange(lo, hi, 60.0)
        k = int(np.argmin([distance(t) for t in grid]))
        a, b = grid[max(0, k - 1)], grid[min(len(grid) - 1, k + 1)]
        for _ in range(60):
            m1, m2 = a + (b - a) * 0.382, a + (b - a) * 0.618
            if distance(m1) < distance(m2):
                b = m2
            else:
                a = m1
        t = 0.5 * (a + b)
        when = "" if e.get("timeFrom") == "closest-approach" else f", {t - t0:+.1f} s from the published time"
        print(f"  {e['name']}: {distance(t):,.1f} km from {body}'s centre at {utc(t)} (published {published:,.1f} km{when})")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("missions", nargs="*", default=list(MISSIONS))
    ap.add_argument("--kernels", default="Resources/missions")
    ap.add_argument("--resources", default="Resources")
    args = ap.parse_args()
    if sp is None:
        sys.exit("check-flyby-kernels.py: %s (pip install spiceypy numpy)" % MISSING)
    sp.furnsh(leapseconds_kernel())
    sp.furnsh(os.path.join(args.resources, "de440-1900-2100.bsp"))
    missions = json.load(open(os.path.join(args.resources, "missions.json")))
    radii = {b["id"]: b["radius_km"] for b in json.load(open(os.path.join(args.resources, "bodies.json")))["bodies"]}
    ok = True
    for mission in args.missions:
        kernel = os.path.join(args.kernels, f"{mission}.bsp")
        sp.furnsh(kernel)
        ok = check(mission, MISSIONS[mission], kernel, missions, radii) and ok
        sp.unload(kernel)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
