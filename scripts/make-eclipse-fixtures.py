#!/usr/bin/env python3
"""Writes Tests/SkyTests/Fixtures/eclipses/local-skyfield.json: local circumstances of the
2017, 2023, 2024 and 2027 solar eclipses at places no published table covers, computed by an
implementation independent of the server's (no Besselian elements): Skyfield's topocentric
apparent Sun and Moon from the server's own kernel (Resources/de440-1900-2100.bsp), Skyfield's
Earth orientation and ΔT, the contacts where the centres' separation equals the sum (partial)
or difference (central) of the semidiameters, the maximum where the place is nearest the
shadow's axis (NASA's definition: the separation times the Moon's distance is least; the least
separation alone is up to 7 s away at sunset, where the Moon's distance changes). Conventions as
NASA's: the Sun's semidiameter 959.63" at 1 au, the Moon's k = 0.2725076 (partial contacts)
and 0.272281 (central), Earth radius 6378.137 km; altitudes airless. Each eclipse records the
ΔT Skyfield used, so the test can compare like with like.

It also writes occultations-skyfield.json: lunar occultations seen from a place (a planet, a
bright star at the server's catalogue place: J2000, no proper motion), disappearance and
reappearance of the target's centre at the Moon's limb (k = 0.2725076), from Skyfield's
topocentric apparent places.

Test-time only:

    python3 -m venv /tmp/eclvenv && /tmp/eclvenv/bin/pip install skyfield
    /tmp/eclvenv/bin/python scripts/make-eclipse-fixtures.py
"""
import argparse
import importlib.metadata
import json
import math
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
OUT = os.path.join(ROOT, 'Tests', 'SkyTests', 'Fixtures', 'eclipses', 'local-skyfield.json')
OCCULTATIONS_OUT = os.path.join(ROOT, 'Tests', 'SkyTests', 'Fixtures', 'eclipses', 'occultations-skyfield.json')

# (target: a planet or a star's name with its catalogue RA hours, Dec degrees; place; a time
# within an hour of the occultation, UTC)
OCCULTATIONS = [
    ('Regulus', (10.139528, 11.96722), ('Paris', 48.8566, 2.3522, 35), (2026, 3, 29, 18, 45)),
    ('venus', None, ('Paris', 48.8566, 2.3522, 35), (2026, 9, 14, 10, 0)),
    ('Antares', (16.490111, -26.43194), ('Sydney', -33.8688, 151.2093, 58), (2025, 1, 25, 1, 20)),
    ('saturn', None, ('Tokyo', 35.6762, 139.6503, 40), (2024, 7, 24, 22, 0)),
    ('Spica', (13.419889, -11.16139), ('Tokyo', 35.6762, 139.6503, 40), (2024, 12, 24, 18, 45)),
]

AU_KM = 149_597_870.7
EARTH_RADIUS_KM = 6378.137
SUN_RADIUS_KM = math.sin(math.radians(959.63 / 3600)) * AU_KM
K_PARTIAL, K_CENTRAL = 0.2725076, 0.272281

# (eclipse id, its greatest eclipse UTC, places: name, latitude, longitude, elevation m)
ECLIPSES = [
    ('2017-08-21-solar', (2017, 8, 21, 18, 26), [
        ('Salem, Oregon', 44.9429, -123.0351, 50), ('Casper, Wyoming', 42.8666, -106.3131, 1560),
        ('Carbondale, Illinois', 37.7273, -89.2168, 130), ('Nashville, Tennessee', 36.1627, -86.7816, 180),
        ('Charleston, South Carolina', 32.7765, -79.9311, 5), ('Chicago, Illinois', 41.8781, -87.6298, 180),
        ('London', 51.5074, -0.1278, 20)]),
    ('2023-10-14-solar', (2023, 10, 14, 18, 0), [('Albuquerque, New Mexico', 35.0844, -106.6504, 1500)]),
    ('2024-04-08-solar', (2024, 4, 8, 18, 17), [
        ('Mazatlan, Mexico', 23.2494, -106.4111, 10), ('Dallas, Texas', 32.7767, -96.7970, 130),
        ('Indianapolis, Indiana', 39.7684, -86.1581, 220), ('Cleveland, Ohio', 41.4993, -81.6944, 200),
        ('Montreal, Quebec', 45.5017, -73.5673, 40), ('New York, New York', 40.7128, -74.0060, 10)]),
    ('2027-08-02-solar', (2027, 8, 2, 10, 7), [
        ('Cadiz, Spain', 36.5271, -6.2886, 10), ('Luxor, Egypt', 25.6872, 32.6396, 80),
        ('Jeddah, Saudi Arabia', 21.4858, 39.1925, 10), ('Benghazi, Libya', 32.1167, 20.0667, 10),
        ('Madrid, Spain', 40.4168, -3.7038, 660)]),
]


def main():
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    from skyfield.api import load, wgs84
    ts = load.timescale()
    eph = load(os.path.join(ROOT, 'Resources', 'de440-1900-2100.bsp'))
    earth, sun, moon = eph['earth'], eph['sun'], eph['moon']

    def geometry(observer, seconds, t0):
        t = ts.tt_jd(t0 + seconds / 86400)
        o = observer.at(t)
        s = o.observe(sun).apparent()
        m = o.observe(moon).apparent()
        ds, dm = s.distance().km, m.distance().km
        return (s.separation_from(m).radians, math.asin(SUN_RADIUS_KM / ds),
                math.asin(K_PARTIAL * EARTH_RADIUS_KM / dm), math.asin(K_CENTRAL * EARTH_RADIUS_KM / dm), dm)

    def root(f, a, b):
        fa = f(a)
        for _ in range(40):
            c = (a + b) / 2
            fc = f(c)
            if (fc < 0) == (fa < 0):
                a, fa = c, fc
            else:
                b = c
        return (a + b) / 2

    out = []
    for eid, (y, mo, d, h, mi), places in ECLIPSES:
        t_mid = ts.utc(y, mo, d, h, mi)
        t0 = t_mid.tt
        delta_t = float(t_mid.delta_t)
        for name, lat, lon, elev in places:
            observer = earth + wgs84.latlon(lat, lon, elevation_m=elev)

            def sep(x):
                q = geometry(observer, x, t0)
                return q[0] * q[4]
            # The least distance from the axis, from a minute's scan over ±4 h and golden-section
            # refinement.
            xs = [k * 60.0 for k in range(-240, 241)]
            seps = [sep(x) for x in xs]
            i = min(range(len(xs)), key=lambda k: seps[k])
            a, b = xs[max(0, i - 1)], xs[min(len(xs) - 1, i + 1)]
            g = (math.sqrt(5) - 1) / 2
            for _ in range(60):
                c, e = b - g * (b - a), a + g * (b - a)
                if sep(c) < sep(e):
                    b = e
                else:
                    a = c
            xm = (a + b) / 2
            sm, ss, k1, k2, _ = geometry(observer, xm, t0)
            if sm >= ss + k1:
                continue

            def partial(x):
                q = geometry(observer, x, t0)
                return q[0] - q[1] - q[2]

            def central(x):
                q = geometry(observer, x, t0)
                return q[0] - abs(q[1] - q[3])
            contacts = {'partialBegin': root(partial, xm - 4 * 3600, xm), 'partialEnd': root(partial, xm + 4 * 3600, xm)}
            kind = 'partial'
            if sm < abs(ss - k2):
                kind = 'total' if k2 > ss else 'annular'
                contacts['centralBegin'] = root(central, xm - 900, xm)
                contacts['centralEnd'] = root(central, xm + 900, xm)
            contacts['maximum'] = xm
            row = {'eclipse': eid, 'place': name, 'latitudeDeg': lat, 'longitudeDeg': lon, 'elevationM': elev,
                   'type': kind, 'deltaTSeconds': round(delta_t, 3)}
            for key, x in contacts.items():
                t = ts.tt_jd(t0 + x / 86400)
                alt, az, _ = observer.at(t).observe(sun).apparent().altaz()
                row[key] = {'jdTT': t.tt, 'utc': t.utc_iso(places=1), 'sunAltitudeDeg': round(alt.degrees, 4)}
            out.append(row)
    write(OUT, 'places', out, 'apparent topocentric Sun and Moon; semidiameters: Sun 959.63" at 1 au, Moon k = 0.2725076 (partial) / 0.272281 (central) x 6378.137 km; airless altitudes; Skyfield ΔT')
    occultations(ts, eph, earth, moon, root)


def occultations(ts, eph, earth, moon, root):
    from skyfield.api import Star, wgs84
    out = []
    for target, star, (place, lat, lon, elev), (y, mo, d, h, mi) in OCCULTATIONS:
        # The planets as the server takes them from DE440: their system barycentres.
        body = Star(ra_hours=star[0], dec_degrees=star[1]) if star else eph[target + ' barycenter']
        observer = earth + wgs84.latlon(lat, lon, elevation_m=elev)
        t0 = ts.utc(y, mo, d, h, mi).tt

        def gap(x):
            o = observer.at(ts.tt_jd(t0 + x / 86400))
            m = o.observe(moon).apparent()
            b = o.observe(body).apparent()
            return m.separation_from(b).radians - math.asin(K_PARTIAL * EARTH_RADIUS_KM / m.distance().km)
        xs = [k * 120.0 for k in range(-60, 61)]
        i = min(range(len(xs)), key=lambda k: gap(xs[k]))
        if gap(xs[i]) >= 0:
            raise SystemExit(f'no occultation of {target} at {place} near {y}-{mo}-{d}')
        a = max(0, i - 1)
        while a > 0 and gap(xs[a]) < 0:
            a -= 1
        b = min(len(xs) - 1, i + 1)
        while b < len(xs) - 1 and gap(xs[b]) < 0:
            b += 1
        row = {'target': target, 'place': place, 'latitudeDeg': lat, 'longitudeDeg': lon, 'elevationM': elev}
        for key, lo, hi in (('disappearance', xs[a], xs[i]), ('reappearance', xs[b], xs[i])):
            x = root(gap, lo, hi)
            t = ts.tt_jd(t0 + x / 86400)
            row[key] = {'jdTT': t.tt, 'utc': t.utc_iso(places=1)}
        out.append(row)
    write(OCCULTATIONS_OUT, 'occultations', out, 'topocentric apparent places; the target centre at the Moon limb, k = 0.2725076 x 6378.137 km; stars at their J2000 catalogue place without proper motion, as the server')


def write(path, key, rows, conventions):
    meta = {'generator': 'scripts/make-eclipse-fixtures.py', 'skyfield': importlib.metadata.version('skyfield'),
            'kernel': 'Resources/de440-1900-2100.bsp', 'conventions': conventions}
    with open(path, 'w') as f:
        json.dump({'meta': meta, key: rows}, f, indent=1)
        f.write('\n')
    print(f'{len(rows)} {key} written to {path}')


if __name__ == '__main__':
    main()
