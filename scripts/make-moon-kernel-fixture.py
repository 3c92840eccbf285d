#!/usr/bin/env python3
"""A small satellite kernel for Titan and Europa, and what NAIF's CSPICE reads from it.

`--kernel` files that cover a moon win over the server's analytical moon theories (issue 38):
positions, telemetry, the sky, the scene and the pictures all take the moon from the kernel,
and `theory`/`model` name the file. NAIF's real satellite kernels (sat441.bsp, jup365.bsp) are
hundreds of megabytes, so the tests use one made here, laid out as those are: each moon and its
planet's centre relative to the system barycentre (606 and 699 from 6; 502 and 599 from 5),
J2000, SPK type 13 (Hermite, 10-minute states), over three days around two published flybys:
Cassini's T87 Titan flyby (2012-11-13T10:18:58Z) and Juno's Europa flyby (2022-09-29T09:36Z).

The moons' paths are Keplerian ellipses about the planet's centre with the mean elements of
JPL's planetary satellite tables (a, e; the plane of the planet's equator, IAU pole), phased so
the moon lies in the spacecraft's direction at the flyby (from the server's mission kernel and
DE440): a synthetic moon near the spacecraft, deliberately not the server's theory (thousands
of km apart), so a test can tell which one serves. The planet's centre moves opposite, by the moon's mass
share, as in NAIF's kernels.

It then evaluates, with CSPICE (spkezr, no aberration), at a dozen epochs per flyby:
the moon relative to its system's barycentre in ECLIPJ2000 (what /v1/positions?center=<planet>
gives: the engine's `saturn` and `jupiter` are DE440's system barycentres), relative to the
planet's centre, and the spacecraft relative to the moon from the server's own mission kernels and the
bundled DE440 (what /telemetry's nearestBody gives). Writes, deterministically:

    Tests/SolarSystemAPITests/Fixtures/moons-titan-europa.bsp
    Tests/SolarSystemAPITests/Fixtures/moons-titan-europa.json

spiceypy is a test-time tool only (pip install spiceypy numpy). Run from anywhere:

    python3 scripts/make-moon-kernel-fixture.py
"""

import json
import math
import os
import sys

try:
    import numpy as np
    import spiceypy as sp
except ImportError as error:  # --help answers without them; a run says what to install
    MISSING = error
else:
    MISSING = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "SolarSystemAPITests", "Fixtures")
KERNEL = os.path.join(OUT, "moons-titan-europa.bsp")
STATES = os.path.join(OUT, "moons-titan-europa.json")
SCRIPT = "scripts/make-moon-kernel-fixture.py"

DAY = 86400.0
STEP = 600.0          # seconds between the kernel's states
WINDOW = 7            # Hermite window (odd: NAIF's type 13 takes up to 27)
HALF_SPAN = 1.5 * DAY  # either side of the flyby

# GM (km^3/s^2): DE440 header and JPL's satellite ephemerides (sat441, jup365).
GM = {"saturn_system": 37940584.841800, "titan": 8978.138845, "jupiter_system": 126712764.100000, "europa": 3202.712}

# UTC -> TDB for these dates: TAI-UTC (IERS Bulletin C), TT = TAI + 32.184 s, and TDB - TT by
# NAIF's own formula (DELTET: K = 1.657e-3 s, EB = 0.01671, M = M0 + M1 t).
LEAP = {2012: 35.0, 2022: 37.0}

FLYBYS = [
    {"key": "cassini-t87", "moon": 606, "moonName": "titan", "planet": 699, "barycentre": 6, "craft": -82,
     "kernel": "Resources/missions/cassini.bsp", "utc": (2012, 11, 13, 10, 18, 58.0),
     # JPL planetary satellite mean elements (Laplace plane), rounded: a km, e, period days.
     "a": 1221870.0, "e": 0.0288, "period": 15.945421, "share": GM["titan"] / GM["saturn_system"],
     # IAU 2015 pole of Saturn (RA, Dec, degrees at J2000).
     "pole": (40.589, 83.537)},
    {"key": "juno-europa", "moon": 502, "moonName": "europa", "planet": 599, "barycentre": 5, "craft": -61,
     "kernel": "Resources/missions/juno.bsp", "utc": (2022, 9, 29, 9, 36, 0.0),
     "a": 671100.0, "e": 0.0094, "period": 3.551181, "share": GM["europa"] / GM["jupiter_system"],
     "pole": (268.056595, 64.495303)},
]


def julian_day(y, mo, d, h, mi, s):
    a = (14 - mo) // 12
    yy = y + 4800 - a
    m = mo + 12 * a - 3
    jdn = d + (153 * m + 2) // 5 + 365 * yy + yy // 4 - yy // 100 + yy // 400 - 32045
    return jdn - 0.5 + (h * 3600 + mi * 60 + s) / DAY


def et_of_utc(y, mo, d, h, mi, s):
    """TDB seconds past J2000 of a UTC calendar instant (the dates here)."""
    tt = (julian_day(y, mo, d, h, mi, s) - 2451545.0) * DAY + LEAP[y] + 32.184
    m = 6.239996 + 1.99096871e-7 * tt
    return tt + 1.657e-3 * math.sin(m + 0.01671 * math.sin(m))


def utc_text(y, mo, d, h, mi, s):
    return "%04d-%02d-%02dT%02d:%02d:%02dZ" % (y, mo, d, h, mi, int(s))


def equator_basis(pole_ra, pole_dec):
    """Unit vectors spanning the planet's equator (J2000): the node on the ICRF equator, and
    pole x node."""
    ra, dec = math.radians(pole_ra), math.radians(pole_dec)
    pole = np.array([math.cos(dec) * math.cos(ra), math.cos(dec) * math.sin(ra), math.sin(dec)])
    node = np.array([-math.sin(ra), math.cos(ra), 0.0])
    return node, np.cross(pole, node)


def kepler_state(f, et, epoch):
    """The moon relative to its planet's centre (km, km/s, J2000): an ellipse in the equator."""
    mu = (2 * math.pi / (f["period"] * DAY)) ** 2 * f["a"] ** 3
    n = math.sqrt(mu / f["a"] ** 3)
    mean = f["phase"] + n * (et - epoch)
    ecc = mean
    for _ in range(30):
        ecc -= (ecc - f["e"] * math.sin(ecc) - mean) / (1 - f["e"] * math.cos(ecc))
    a, e = f["a"], f["e"]
    x, y = a * (math.cos(ecc) - e), a * math.sqrt(1 - e * e) * math.sin(ecc)
    rate = n / (1 - e * math.cos(ecc))
    vx, vy = -a * math.sin(ecc) * rate, a * math.sqrt(1 - e * e) * math.cos(ecc) * rate
    p, q = equator_basis(*f["pole"])
    return np.concatenate([x * p + y * q, vx * p + vy * q])


def phase(f):
    """The mean anomaly at the flyby that puts the moon in the spacecraft's direction (seen from
    the system barycentre, in the planet's equator)."""
    sp.furnsh(os.path.join(ROOT, "Resources", "de440-1900-2100.bsp"))
    sp.furnsh(os.path.join(ROOT, f["kernel"]))
    craft, _ = sp.spkezr(str(f["craft"]), et_of_utc(*f["utc"]), "J2000", "NONE", str(f["barycentre"]))
    sp.kclear()
    p, q = equator_basis(*f["pole"])
    nu = math.atan2(float(np.dot(craft[:3], q)), float(np.dot(craft[:3], p)))
    e = f["e"]
    ecc = 2 * math.atan(math.sqrt((1 - e) / (1 + e)) * math.tan(nu / 2))
    return ecc - e * math.sin(ecc)


def write_kernel():
    for f in FLYBYS:
        f["phase"] = phase(f)
    if os.path.exists(KERNEL):
        os.remove(KERNEL)
    handle = sp.spkopn(KERNEL, "moons-titan-europa fixture", 1024)
    for f in FLYBYS:
        epoch = et_of_utc(*f["utc"])
        epochs = [epoch - HALF_SPAN + k * STEP for k in range(int(2 * HALF_SPAN / STEP) + 1)]
        moon = [kepler_state(f, t, epoch) for t in epochs]
        # As NAIF's kernels: moon and planet centre from the barycentre, opposite by the mass share.
        from_bary = [s * (1 - f["share"]) for s in moon]
        centre = [-s * f["share"] for s in moon]
        name = "synthetic %s (%s)" % (f["moonName"], SCRIPT)
        sp.spkw13(handle, f["moon"], f["barycentre"], "J2000", epochs[0], epochs[-1], name[:40], WINDOW, len(epochs), from_bary, epochs)
        sp.spkw13(handle, f["planet"], f["barycentre"], "J2000", epochs[0], epochs[-1], ("synthetic %d centre" % f["planet"])[:40],
                  WINDOW, len(epochs), centre, epochs)
    sp.spkcls(handle)


def expected():
    sp.furnsh(os.path.join(ROOT, "Resources", "de440-1900-2100.bsp"))
    cases = []
    for f in FLYBYS:
        # The mission kernel first, then the moon kernel, which outranks it (CSPICE: the file
        # loaded last wins), as `serve --kernel` ranks a user's file above the bundled kernels:
        # the mission kernels hold the moons they moved about the flybys too.
        sp.furnsh(os.path.join(ROOT, f["kernel"]))
        sp.furnsh(KERNEL)
        y, mo, d, h, mi, s = f["utc"]
        for minutes in (-1800, -600, -120, -30, -5, 0, 5, 30, 120, 600, 1800):
            t = julian_day(y, mo, d, h, mi, s) + minutes * 60 / DAY
            jd0 = math.floor(t + 0.5) - 0.5
            secs = round((t - jd0) * DAY)
            # Back to a calendar instant (whole seconds).
            z = int(jd0 + 0.5)
            a = z + 32044
            b = (4 * a + 3) // 146097
            c = a - 146097 * b // 4
            dd = (4 * c + 3) // 1461
            e = c - 1461 * dd // 4
            m = (5 * e + 2) // 153
            day = e - (153 * m + 2) // 5 + 1
            month = m + 3 - 12 * (m // 10)
            year = 100 * b + dd - 4800 + m // 10
            utc = (year, month, day, secs // 3600, (secs // 60) % 60, float(secs % 60))
            et = et_of_utc(*utc)
            moon, _ = sp.spkezr(str(f["moon"]), et, "ECLIPJ2000", "NONE", str(f["barycentre"]))
            centred, _ = sp.spkpos(str(f["moon"]), et, "ECLIPJ2000", "NONE", str(f["planet"]))
            craft, _ = sp.spkezr(str(f["craft"]), et, "ECLIPJ2000", "NONE", str(f["moon"]))
            cases.append({"flyby": f["key"], "moon": f["moonName"], "utc": utc_text(*utc), "et": et,
                          "moonFromBarycentreKm": [round(v, 6) for v in moon[:3]], "moonVelocityKmS": [round(v, 9) for v in moon[3:]],
                          "moonFromPlanetCentreKm": [round(v, 6) for v in centred],
                          "craftFromMoonKm": round(float(np.linalg.norm(craft[:3])), 6)})
        sp.unload(KERNEL)
        sp.unload(os.path.join(ROOT, f["kernel"]))
    return cases


def main():
    if "--help" in sys.argv or "-h" in sys.argv:
        print(__doc__)
        return
    if MISSING:
        sys.exit("make-moon-kernel-fixture: %s (pip install spiceypy numpy)" % MISSING)
    os.makedirs(OUT, exist_ok=True)
    write_kernel()
    cases = expected()
    about = {"script": SCRIPT, "toolkit": sp.tkvrsn("TOOLKIT"), "kernel": os.path.relpath(KERNEL, ROOT),
             "what": "CSPICE spkezr (no aberration, ECLIPJ2000): the moon from its system's barycentre and from its planet's centre, and the spacecraft's distance from the moon with Resources/missions' kernels and the bundled DE440",
             "flybys": [{k: f[k] for k in ("key", "moonName", "a", "e", "period", "phase")} for f in FLYBYS]}
    with open(STATES, "w") as out:
        json.dump({"about": about, "cases": cases}, out, indent=1)
        out.write("\n")
    print("wrote %s and %s (%d cases)" % (os.path.relpath(KERNEL, ROOT), os.path.relpath(STATES, ROOT), len(cases)))


if __name__ == "__main__":
    main()
