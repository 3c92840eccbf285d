#!/usr/bin/env python3
"""astroquery, unmodified, as a client of this server's Horizons endpoint (issue 36).

Starts the built server (`.build/debug/solarsystem serve`, or $SOLARSYSTEM_BIN) on a free
loopback port, points astroquery's Horizons class at it with the one line its option list needs,
and asks `.vectors()`, `.ephemerides()` and `.elements()` for a planet, the Moon from a site, a
spacecraft, Ceres and Apophis. Every table is compared with the server's own /v1 answers:

- vectors (heliocentric ecliptic J2000, au, au/d) with /v1/positions/{id} to the printed digits;
- ephemerides' astrometric and apparent RA/Dec and airless azimuth/elevation with /v1/sky;
- elements' a, e, i, Ω, ω with the osculating elements of /v1/positions' state (two-body, the
  Sun's GM as Horizons prints it in the header).

Test time only: run by .ci/run in a virtualenv with astroquery from PyPI. Prints one line per
check and "N passed, M failed"; exits non-zero on any failure.
"""
import json
import math
import os
import re
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("SOLARSYSTEM_BIN", os.path.join(ROOT, ".build", "debug", "solarsystem"))

AU_KM = 149597870.7
GM_SUN_AU3_D2 = 2.9591220828411951e-04  # the Sun's GM in au^3/d^2 as the elements' header gives it

passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name} {detail}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def start_server():
    log = open(os.path.join("/tmp", f"horizons-astroquery-{os.getpid()}.log"), "w+")
    data = os.path.join("/tmp", f"horizons-astroquery-{os.getpid()}")
    os.makedirs(data, exist_ok=True)
    proc = subprocess.Popen([BIN, "serve", "--host", "127.0.0.1", "--port", "0", "--resources", os.path.join(ROOT, "Resources"),
                             "--db", os.path.join(data, "cache.sqlite")], stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    deadline = time.time() + 120
    while time.time() < deadline:
        log.seek(0)
        for line in log:
            if '"listening"' in line:
                port = int(re.search(r'"address":"127\.0\.0\.1:(\d+)"', line).group(1))
                return proc, port
        if proc.poll() is not None:
            log.seek(0)
            sys.exit("server exited:\n" + log.read()[-3000:])
        time.sleep(0.2)
    proc.kill()
    sys.exit("server did not start listening within 120 s")


def get_json(base, path):
    with urllib.request.urlopen(base + path, timeout=60) as r:
        return json.loads(r.read())


def elements_from_state(r, v, gm):
    """Osculating a, e, i, node, argument of perihelion (deg) from a heliocentric ecliptic state."""
    rn = math.sqrt(sum(x * x for x in r))
    v2 = sum(x * x for x in v)
    h = (r[1] * v[2] - r[2] * v[1], r[2] * v[0] - r[0] * v[2], r[0] * v[1] - r[1] * v[0])
    hn = math.sqrt(sum(x * x for x in h))
    a = 1 / (2 / rn - v2 / gm)
    rv = sum(x * y for x, y in zip(r, v))
    evec = [((v2 - gm / rn) * r[k] - rv * v[k]) / gm for k in range(3)]
    e = math.sqrt(sum(x * x for x in evec))
    inc = math.degrees(math.acos(h[2] / hn))
    node = math.degrees(math.atan2(h[0], -h[1])) % 360
    n = (-h[1], h[0], 0.0)
    nn = math.hypot(n[0], n[1])
    w = math.degrees(math.acos(max(-1, min(1, (n[0] * evec[0] + n[1] * evec[1]) / (nn * e)))))
    if evec[2] < 0:
        w = 360 - w
    return a, e, inc, node, w


def angle_diff(a, b):
    d = abs(a - b) % 360
    return min(d, 360 - d)


def main():
    from astroquery.jplhorizons import Horizons, conf

    proc, port = start_server()
    base = f"http://127.0.0.1:{port}"
    try:
        # The one line astroquery needs: its option list accepts only JPL's URL otherwise.
        type(conf).horizons_server.cfgtype = 'string'
        conf.horizons_server = base + "/api/horizons.api"

        epochs = {"start": "2026-01-01", "stop": "2026-01-03", "step": "1d"}
        # (label, Horizons id, id_type, /v1 id)
        targets = [("Mars", "499", None, "mars"), ("Voyager 1", "-31", None, "naif:-31"),
                   ("Ceres", "Ceres", "smallbody", "sb:1"), ("Apophis", "99942", "smallbody", "sb:99942")]
        for label, hid, id_type, v1 in targets:
            kw = {"id_type": id_type} if id_type else {}
            vec = Horizons(id=hid, location="500@10", epochs=epochs, **kw).vectors(refplane="ecliptic", cache=False)
            check(f"vectors {label}: rows", len(vec) == 3, f"({len(vec)})")
            worst_km = worst_v = 0.0
            for row in vec:
                jd_utc = float(row["datetime_jd"]) - 69.184 / 86400  # TDB → UTC in 2026 (37 leap s + 32.184 s)
                s = get_json(base, f"/v1/positions/{v1}?times=jd:{jd_utc:.10f}&frame=ecliptic-j2000&center=sun&units=au")["samples"][0]
                p, v = s["position"], s["velocity"]
                worst_km = max(worst_km, math.dist((row["x"], row["y"], row["z"]), p) * AU_KM)
                worst_v = max(worst_v, math.dist((row["vx"], row["vy"], row["vz"]), v) * AU_KM / 86400)
            # 16 digits printed (under a metre here); /v1 takes UTC, so the instant goes through a fixed
            # TDB − UTC of 69.184 s that leaves out TDB − TT's periodic term (1.7 ms at most: 10 m
            # at Voyager's or Apophis's speed relative to the Sun).
            check(f"vectors {label}: /v1/positions", worst_km < 0.01 and worst_v < 1e-6, f"(worst {worst_km * 1000:.3f} m, {worst_v * 1e6:.3f} mm/s)")

            el = Horizons(id=hid, location="500@10", epochs=epochs, **kw).elements(refplane="ecliptic", cache=False)
            row = el[0]
            jd_utc = float(row["datetime_jd"]) - 69.184 / 86400
            s = get_json(base, f"/v1/positions/{v1}?times=jd:{jd_utc:.10f}&frame=ecliptic-j2000&center=sun&units=au")["samples"][0]
            a, e, inc, node, w = elements_from_state(s["position"], s["velocity"], GM_SUN_AU3_D2)
            ok = abs(row["a"] - a) / a < 1e-9 and abs(row["e"] - e) < 1e-9 and abs(row["incl"] - inc) < 1e-7 \
                and angle_diff(row["Omega"], node) < 1e-6 and angle_diff(row["w"], w) < 1e-5
            check(f"elements {label}: /v1 state's osculating elements", ok,
                  f"(a {row['a']:.12g}/{a:.12g}, e {row['e']:.10g}/{e:.10g}, i {row['incl']:.8f}/{inc:.8f})")

        # Observer tables: the Moon from Palomar (MPC code 675, and the same site as coordinates),
        # Mars and Ceres from the geocentre's site list too.
        site = {"lon": -116.8630, "lat": 33.3560, "elevation": 1.712}
        for label, hid, id_type, v1, location in [("Moon from a site", "301", None, "moon", site),
                                                  ("Mars from a site", "499", None, "mars", site),
                                                  ("Ceres from a site", "Ceres", "smallbody", "sb:1", site)]:
            kw = {"id_type": id_type} if id_type else {}
            eph = Horizons(id=hid, location=location, epochs=epochs, **kw).ephemerides(quantities="1,2,4,9,20,23,24,29", cache=False)
            check(f"ephemerides {label}: rows", len(eph) == 3, f"({len(eph)})")
            worst_astro = worst_app = worst_hz = 0.0
            for row in eph:
                date = row["datetime_str"]  # 2026-Jan-01 00:00
                iso = time.strftime("%Y-%m-%dT%H:%M:00Z", time.strptime(date, "%Y-%b-%d %H:%M"))
                sky = get_json(base, f"/v1/sky?date={iso}&lat={site['lat']}&lon={site['lon']}&elevation={site['elevation'] * 1000}&bodies={v1}&refraction=false")
                b = sky["bodies"][0]
                cosd = math.cos(math.radians(b["decJ2000Deg"]))
                worst_astro = max(worst_astro, math.hypot(angle_diff(row["RA"], b["raJ2000Deg"]) * cosd, row["DEC"] - b["decJ2000Deg"]) * 3600)
                worst_app = max(worst_app, math.hypot(angle_diff(row["RA_app"], b["raDeg"]) * cosd, row["DEC_app"] - b["decDeg"]) * 3600)
                worst_hz = max(worst_hz, max(angle_diff(row["AZ"], b["azimuthDeg"]) * math.cos(math.radians(b["altitudeDeg"])),
                                             abs(row["EL"] - b["altitudeDeg"])) * 3600)
            # Horizons prints RA/Dec to 1e-5 deg (0.036") and Az/El to 1e-6 deg.
            check(f"ephemerides {label}: /v1/sky", worst_astro < 0.04 and worst_app < 0.04 and worst_hz < 0.04,
                  f"(astrometric {worst_astro:.4f}\", apparent {worst_app:.4f}\", az/el {worst_hz:.4f}\")")
        eph = Horizons(id="301", location="675", epochs=epochs).ephemerides(quantities="1,4", cache=False)
        check("ephemerides Moon from MPC code 675", len(eph) == 3 and all(-90 <= el <= 90 for el in eph["EL"]))

        # Ambiguous and unknown names answer as Horizons does: astroquery raises.
        for name in ["Jupiter Barycenter XYZ", "NoSuchBody;"]:
            try:
                Horizons(id=name, location="500@10", epochs=epochs).vectors(cache=False)
                check(f"unknown target {name!r} refused", False)
            except Exception as e:  # astroquery raises ValueError with Horizons' text
                check(f"unknown target {name!r} refused", True, f"({type(e).__name__})")

        # SPK export: CSPICE (spiceypy) reads the automatic file (type 2 for Mars and Ceres, type 13
        # for Voyager 1); jplephem (what Skyfield uses) reads types 2 and 3 only, so it gets a type-2
        # file of Mars and Ceres (a type-2 fit of Voyager 1 is refused: see docs/horizons.md). Both
        # against /v1/positions (Sun-centred ICRF km) within 1 m; /v1's jdTDB as a double is good to
        # ~10 µs, 0.3 m at Mars's speed, which the bound includes.
        import spiceypy
        from jplephem.spk import SPK
        span = "start=2026-01-01&stop=2026-01-21&center=sun"
        for reader, kind, bodies in [("spiceypy", "automatic", [(499, "mars"), (-31, "naif:-31"), (2000001, "sb:1")]),
                                     ("jplephem", "2", [(499, "mars"), (2000001, "sb:1")])]:
            path = f"/tmp/horizons-export-{os.getpid()}-{kind}.bsp"
            listed = ",".join(v1 for _, v1 in bodies)
            with urllib.request.urlopen(f"{base}/v1/kernels/export.bsp?{span}&bodies={listed}&type={kind}", timeout=300) as r, open(path, "wb") as f:
                f.write(r.read())
            worst = {}
            for naif, v1 in bodies:
                for k in range(0, 20 * 24, 7):
                    iso = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.mktime(time.strptime("2026-01-01", "%Y-%m-%d")) - time.timezone + k * 3600 + 60))
                    smp = get_json(base, f"/v1/positions/{v1}?times={iso}&frame=equatorial-j2000&center=sun&units=km")["samples"][0]
                    et = (smp["jdTDB"] - 2451545.0) * 86400
                    if reader == "spiceypy":
                        spiceypy.furnsh(path)
                        state, _ = spiceypy.spkgeo(naif, et, "J2000", 10)
                        spiceypy.kclear()
                        pos = state[:3]
                    else:
                        kernel = SPK.open(path)
                        pos = kernel[10, naif].compute(smp["jdTDB"])
                        kernel.close()
                    worst[v1] = max(worst.get(v1, 0.0), math.dist(pos, smp["position"]) * 1000)
            check(f"export.bsp ({kind}) read by {reader}", all(w < 1 for w in worst.values()),
                  "(" + ", ".join(f"{b} {w:.3f} m" for b, w in worst.items()) + ")")

        # Speed: 1,000-row tables through HTTP (the benchmark budgets are engine time; this is wall time).
        for kind, extra in [("VECTORS", ""), ("OBSERVER", "&QUANTITIES='1,2,3,4,5,9,10,13,19,20,21,23,24,25,29,31,33,34,42,43'&CENTER='675'")]:
            url = (base + "/api/horizons.api?format=text&COMMAND='499'&EPHEM_TYPE=" + kind + "&START_TIME='2026-01-01'&STOP_TIME='2026-01-01 16:39'&STEP_SIZE='1 m'"
                   + (extra or "&CENTER='500@10'"))
            urllib.request.urlopen(url.replace(" ", "%20")).read()
            t0 = time.perf_counter()
            body = urllib.request.urlopen(url.replace(" ", "%20")).read().decode()
            dt = time.perf_counter() - t0
            lines = body.split("$$SOE\n")[1].split("$$EOE")[0].count("\n") if "$$SOE" in body else 0
            print(f"info {kind} 1,000-row table over HTTP: {lines} lines in {dt * 1000:.1f} ms (debug or release as built)")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
