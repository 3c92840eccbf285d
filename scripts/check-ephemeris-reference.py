#!/usr/bin/env python3
"""Recomputes the JPL DE440 part of Tests/EphemerisTests/Fixtures/ephemeris-reference.json with
Skyfield and the server's own kernel (Resources/de440-1900-2100.bsp), and prints how far the
fixture is from it.

The fixture is not generated in this repository: it is the team's reference file, copied
unchanged from the shared reference data (see its "about" block; DESIGN.md asks the accuracy
tests to use it as it is). This script checks the part a reader can recompute here: each case's
TT and TDB Julian dates, the heliocentric positions and velocities of the planets (system
barycentres, the Earth's geocentre, minus the Sun's centre) and the geocentric Moon, in the mean
ecliptic and equinox of J2000 (obliquity 84381.448"). The planetary moons (PyEphem sky-plane
offsets made into vectors) and the IAU orientation are not recomputed.

    pip install skyfield
    python3 scripts/check-ephemeris-reference.py [--tolerance-km 0.001]

Last run (skyfield 1.55): jd_tt and jd_tdb exact; positions within 4.3 cm, velocities within
3.7e-11 km/s, the geocentric Moon within 1 mm: the fixture's DE440 part is Skyfield's reading of
DE440, reproduced from the server's own excerpt of the kernel.

Exits 1 when a position is further than --tolerance-km from the recomputed one.
"""
import argparse
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, 'Tests', 'EphemerisTests', 'Fixtures', 'ephemeris-reference.json')
KERNEL = os.path.join(ROOT, 'Resources', 'de440-1900-2100.bsp')
AU_KM = 149_597_870.7  # IAU 2012 Resolution B2
OBLIQUITY = math.radians(84381.448 / 3600)  # IAU 2006, J2000
TARGETS = {'mercury': 1, 'venus': 2, 'earth': 399, 'mars': 4, 'jupiter': 5, 'saturn': 6, 'uranus': 7,
           'neptune': 8, 'pluto': 9, 'moon': 301}


def ecliptic(v):
    """ICRF (equatorial J2000) → mean ecliptic J2000: a rotation by the obliquity about x."""
    c, s = math.cos(OBLIQUITY), math.sin(OBLIQUITY)
    return [v[0], c * v[1] + s * v[2], -s * v[1] + c * v[2]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--tolerance-km', type=float, default=0.001,
                        help='largest position difference accepted (default %(default)s km)')
    args = parser.parse_args()
    try:
        from skyfield.api import load
    except ImportError as error:
        raise SystemExit('needs skyfield (%s): pip install skyfield' % error)

    ts = load.timescale(builtin=True)
    eph = load(KERNEL)
    with open(FIXTURE) as f:
        cases = json.load(f)['cases']
    worst = {'tt': 0.0, 'tdb': 0.0, 'km': 0.0, 'km/s': 0.0, 'moon km': 0.0}
    for case in cases:
        (y, mo, d), (h, mi, s) = (map(int, case['utc'][:10].split('-')), map(int, case['utc'][11:19].split(':')))
        t = ts.utc(y, mo, d, h, mi, s) if y >= 1972 else ts.ut1(y, mo, d, h, mi, s)  # the fixture's reading
        worst['tt'] = max(worst['tt'], abs(t.tt - case['jd_tt']) * 86400)
        worst['tdb'] = max(worst['tdb'], abs(t.tdb - case['jd_tdb']) * 86400)
        sun = eph['sun'].at(t)
        for name, fixed in case['heliocentric_ecliptic_j2000_au'].items():
            if name not in TARGETS:
                continue
            body = eph[TARGETS[name]].at(t)
            p = ecliptic(body.position.au - sun.position.au)
            v = ecliptic(body.velocity.au_per_d - sun.velocity.au_per_d)
            worst['km'] = max(worst['km'], AU_KM * math.dist(p, fixed))
            fixed_v = case['heliocentric_velocity_ecliptic_j2000_au_per_day'][name]
            worst['km/s'] = max(worst['km/s'], AU_KM / 86400 * math.dist(v, fixed_v))
        moon = eph['moon'].at(t).position.km - eph['earth'].at(t).position.km
        worst['moon km'] = max(worst['moon km'], math.dist(ecliptic(moon), case['geocentric_moon_ecliptic_j2000_km']))
    print('%d cases: jd_tt within %.2g s, jd_tdb within %.2g s of the UTC (UT1 before 1972) read by Skyfield; '
          'heliocentric bodies within %.3g km and %.3g km/s; the geocentric Moon within %.3g km'
          % (len(cases), worst['tt'], worst['tdb'], worst['km'], worst['km/s'], worst['moon km']))
    if max(worst['km'], worst['moon km']) > args.tolerance_km:
        sys.exit(1)


if __name__ == '__main__':
    main()
