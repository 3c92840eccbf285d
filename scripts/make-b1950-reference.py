#!/usr/bin/env python3
"""Prints the reference numbers the FK4/B1950 tests write out (Tests/EphemerisTests/
PrecessionTests.swift, Tests/HorizonsTests/HorizonsReferenceSystemTests.swift), from CSPICE
through spiceypy, so they come from SPICE and not from the code they check:

- SPICE's fixed rotations J2000 -> B1950 and J2000 -> ECLIPB1950 (built into SPICE, no kernel:
  NAIF's chgirf.f);
- Mars's astrometric place from the geocentre in the B1950 frame (light time, no aberration,
  as Horizons' quantity 1) at 2026-06-01 00:00 UTC, from the DE440 kernel.

    python3 -m venv /tmp/sp && /tmp/sp/bin/pip install spiceypy
    /tmp/sp/bin/python scripts/make-b1950-reference.py [--kernel path/to/de440-1900-2100.bsp]

Run with spiceypy 8.3.0 (CSPICE N0067). No leap-second kernel is loaded: the instant is given as
TDB seconds past J2000 from TT - UTC = 69.184 s (since 2017) and TDB - TT by the usual two-term
series, which is all a 1e-5 degree place needs.
"""

import argparse
import math
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def matrix(name, m):
    print(f"{name}:")
    for row in m:
        print("  " + ", ".join(repr(float(x)) for x in row))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kernel", default=os.path.join(ROOT, "Resources", "de440-1900-2100.bsp"), help="the DE440 SPK file")
    args = parser.parse_args()
    import spiceypy as sp  # here, so --help answers without spiceypy installed

    matrix("pxform('J2000', 'B1950', 0.0)", sp.pxform("J2000", "B1950", 0.0))
    matrix("pxform('J2000', 'ECLIPB1950', 0.0)", sp.pxform("J2000", "ECLIPB1950", 0.0))

    sp.furnsh(args.kernel)
    jd_utc = 2461192.5  # 2026-06-01 00:00 UTC
    tt = (jd_utc - 2451545.0) * 86400.0 + 69.184
    g = math.radians(357.53 + 0.98560028 * tt / 86400.0)
    et = tt + 0.001657 * math.sin(g) + 0.000014 * math.sin(2 * g)
    for frame in ("J2000", "B1950"):
        # Mars: its barycentre (4) in this kernel, within metres of the planet's centre.
        p, _ = sp.spkpos("4", et, frame, "LT", "399")
        _, ra, dec = sp.recrad(p)
        print(f"Mars from the geocentre, {frame}, LT, 2026-06-01 00:00 UTC: RA {math.degrees(ra)!r} Dec {math.degrees(dec)!r}")


if __name__ == "__main__":
    main()
