#!/usr/bin/env python3
"""Writes the Sky module's accuracy fixtures into Tests/SkyTests/Fixtures/:

  sky-positions.json  apparent (true equator and equinox of date) and astrometric (ICRF) RA/Dec,
                      azimuth and altitude (airless and refracted at 10 °C, 1010 hPa) from
                      Skyfield with the server's own kernel, Resources/de440-1900-2100.bsp
  sky-events.json     rise, set (upper limb, 34′ refraction) from Astronomy Engine; transits and
                      twilight from Astronomy Engine (hour angle 0; Sun's centre at −6/−12/−18°)
  sky-pre1972.json    apparent and astrometric RA/Dec, airless alt/az for dates before 1972 read as UT1
                      (ts.ut1), the server given the same date as UTC: checks the engine's ΔT. Before
                      1962 Skyfield's own ΔT (Stephenson, Morrison & Hohenkerk 2016 with the 2020
                      addendum); from 1962 Skyfield given the measured ΔT of the instant (IERS EOP 20
                      C04 UT1 − UTC, ERFA's TAI − UTC), as the server's TimeScale has it. Also the
                      daily C04 ΔT every 23rd day, 1962–1973 (`measuredDeltaT`)
  sky-polar-motion.json
                      airless alt/az with Skyfield's polar-motion table installed from the same
                      finals2000A.all the server's table comes from (astropy-iers-data), and without
  almanac.json        (times also as TT Julian dates: Skyfield reads a UTC before 1972 as
                      TAI - 10 s, the server as UT)
                      Moon quarter phases and seasons (Skyfield almanac), lunar perigees and
                      apogees, the Earth's perihelion and aphelion (extrema of DE440 distances,
                      found with Skyfield)

Each file records the tool versions and this script's name. Test-time only:

    python3 -m venv /tmp/skyvenv && /tmp/skyvenv/bin/pip install skyfield astronomy-engine astropy-iers-data pyerfa
    /tmp/skyvenv/bin/python scripts/make-sky-fixtures.py
"""
import importlib.metadata
import json
import os

import math

import astronomy
from skyfield import almanac
from skyfield.magnitudelib import planetary_magnitude
from skyfield.api import Star, load, wgs84

import iers_c04

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
OUT = os.path.join(ROOT, 'Tests', 'SkyTests', 'Fixtures')
ts = load.timescale()
eph = load(os.path.join(ROOT, 'Resources', 'de440-1900-2100.bsp'))
earth, sun, moon = eph['earth'], eph['sun'], eph['moon']

PLACES = {
    'london': (51.4779, -0.0015, 46.0),
    'sydney': (-33.8688, 151.2093, 58.0),
    'tromso': (69.6492, 18.9553, 10.0),
    'quito': (-0.1807, -78.4678, 2850.0),
    'maunakea': (19.8207, -155.4681, 4205.0),
    'capetown': (-33.9249, 18.4241, 15.0),
}
BODIES = {
    'sun': 'sun', 'moon': 'moon', 'mercury': 'mercury barycenter', 'venus': 'venus barycenter', 'mars': 'mars barycenter',
    'jupiter': 'jupiter barycenter', 'saturn': 'saturn barycenter', 'uranus': 'uranus barycenter',
    'neptune': 'neptune barycenter', 'pluto': 'pluto barycenter',
}
DATES = [
    (1900, 3, 1, 6, 0, 0), (1925, 7, 14, 21, 30, 0), (1950, 1, 1, 0, 0, 0), (1969, 7, 20, 20, 17, 40),
    (1987, 10, 19, 14, 0, 0), (2000, 1, 1, 12, 0, 0), (2012, 6, 6, 1, 30, 0), (2024, 4, 8, 18, 18, 0),
    (2026, 11, 22, 20, 0, 0), (2051, 5, 17, 3, 45, 0), (2077, 9, 9, 9, 9, 9), (2099, 12, 1, 23, 0, 0),
]


def versions():
    return {'script': 'scripts/make-sky-fixtures.py',
            'skyfield': importlib.metadata.version('skyfield'),
            'astronomy-engine': importlib.metadata.version('astronomy-engine'),
            'kernel': 'Resources/de440-1900-2100.bsp'}


def iso(t):
    return t.utc_strftime('%Y-%m-%dT%H:%M:%SZ')


def observed(obs, target):
    """`target` seen from `obs`: the astrometric and apparent places, the apparent RA/Dec/distance
    of date and the astrometric (ICRF) RA/Dec/distance."""
    astrometric = obs.observe(eph[target])
    apparent = astrometric.apparent()
    return astrometric, apparent, apparent.radec(epoch='date'), astrometric.radec()


def positions():
    cases = []
    for k, date in enumerate(DATES):
        t = ts.utc(*date)
        for name, (lat, lon, elev) in PLACES.items():
            # Every place at every other date keeps the file small but spans 1900-2100 everywhere.
            if (k + list(PLACES).index(name)) % 2:
                continue
            place = earth + wgs84.latlon(lat, lon, elevation_m=elev)
            obs = place.at(t)
            for body, target in BODIES.items():
                astrometric, apparent, (ra, dec, dist), (ra0, dec0, _) = observed(obs, target)
                alt, az, _ = apparent.altaz()
                ralt, raz, _ = apparent.altaz(temperature_C=10.0, pressure_mbar=1010.0)
                magnitude = None
                if body in ('mercury', 'venus', 'mars', 'jupiter', 'saturn', 'uranus', 'neptune'):
                    m = float(planetary_magnitude(astrometric))
                    magnitude = None if math.isnan(m) else m
                cases.append({
                    'place': name, 'lat': lat, 'lon': lon, 'elevationM': elev, 'body': body,
                    'utc': iso(t), 'tdbSecondsPastJ2000': (t.tdb - 2451545.0) * 86400.0,
                    'deltaTSeconds': float(t.delta_t),
                    'raDeg': ra._degrees, 'decDeg': dec.degrees, 'raJ2000Deg': ra0._degrees, 'decJ2000Deg': dec0.degrees,
                    'azimuthDeg': az.degrees, 'altitudeDeg': alt.degrees, 'refractedAltitudeDeg': ralt.degrees,
                    'distanceKm': dist.km, 'lightTimeS': float(astrometric.light_time * 86400.0),
                    'magnitude': magnitude,
                })
    return cases


AE_BODY = {'sun': astronomy.Body.Sun, 'moon': astronomy.Body.Moon}


def events():
    out = []
    spans = [('london', 2025, 1, 1, 120), ('sydney', 2024, 3, 1, 60), ('tromso', 2025, 1, 1, 366), ('quito', 1995, 6, 1, 40)]
    for name, y, m, d, days in spans:
        lat, lon, elev = PLACES[name]
        obs = astronomy.Observer(lat, lon, elev)
        start = astronomy.Time.Make(y, m, d, 0, 0, 0)
        stop = start.AddDays(days)
        found = []
        for body in ('sun', 'moon'):
            b = AE_BODY[body]
            for kind, direction in (('rise', astronomy.Direction.Rise), ('set', astronomy.Direction.Set)):
                t = start
                while True:
                    e = astronomy.SearchRiseSet(b, obs, direction, t, stop.ut - t.ut)
                    if e is None or e.ut >= stop.ut:
                        break
                    found.append((body, kind, e))
                    t = e.AddDays(0.01)
            t = start
            while True:
                e = astronomy.SearchHourAngle(b, obs, 0.0, t)
                if e.time.ut >= stop.ut:
                    break
                found.append((body, 'transit', e.time))
                t = e.time.AddDays(0.1)
        for kind, altitude in (('civil', -6.0), ('nautical', -12.0), ('astronomical', -18.0)):
            for label, direction in (('dawn', astronomy.Direction.Rise), ('dusk', astronomy.Direction.Set)):
                t = start
                while True:
                    e = astronomy.SearchAltitude(astronomy.Body.Sun, obs, direction, t, stop.ut - t.ut, altitude)
                    if e is None or e.ut >= stop.ut:
                        break
                    found.append(('sun', kind + '-' + label, e))
                    t = e.AddDays(0.01)
        found.sort(key=lambda x: x[2].ut)
        out.append({'place': name, 'lat': lat, 'lon': lon, 'elevationM': elev,
                    'start': '%04d-%02d-%02dT00:00:00Z' % (y, m, d), 'days': days,
                    'events': [{'body': b, 'kind': k, 'utc': str(e)} for b, k, e in found]})
    return out


def extremum(f, t0, t1, maximum):
    """Golden-section search on a Skyfield time interval (TT days)."""
    a, b = t0.tt, t1.tt
    g = (5 ** 0.5 - 1) / 2
    sign = -1 if maximum else 1
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = sign * f(ts.tt_jd(c)), sign * f(ts.tt_jd(d))
    while b - a > 1e-7:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = sign * f(ts.tt_jd(c))
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = sign * f(ts.tt_jd(d))
    t = ts.tt_jd((a + b) / 2)
    return t, f(t)


def extrema(f, start, stop, step_days):
    times = ts.tt_jd([start.tt + k * step_days for k in range(int((stop.tt - start.tt) / step_days) + 1)])
    values = f(times)
    out = []
    for k in range(1, len(values) - 1):
        for maximum in (False, True):
            v0, v1, v2 = values[k - 1], values[k], values[k + 1]
            if (maximum and v1 >= v0 and v1 > v2) or (not maximum and v1 <= v0 and v1 < v2):
                t, v = extremum(f, times[k - 1], times[k + 1], maximum)
                out.append((t, float(v), maximum))
    return out


def almanac_fixture():
    t0, t1 = ts.utc(1990, 1, 1), ts.utc(1993, 1, 1)
    t2, t3 = ts.utc(2025, 1, 1), ts.utc(2028, 1, 1)
    phases = []
    for a, b in ((t0, t1), (t2, t3)):
        times, quarters = almanac.find_discrete(a, b, almanac.moon_phases(eph))
        phases += [{'quarter': int(q), 'utc': iso(t), 'jdTT': t.tt} for t, q in zip(times, quarters)]
    seasons = []
    for year in (1950, 2000, 2026, 2099):
        times, kinds = almanac.find_discrete(ts.utc(year, 1, 1), ts.utc(year, 12, 31, 23, 59, 59), almanac.seasons(eph))
        seasons += [{'year': year, 'season': int(k), 'utc': iso(t), 'jdTT': t.tt} for t, k in zip(times, kinds)]
    apsides = []
    moon_distance = lambda t: (moon - earth).at(t).distance().km
    for a, b in ((ts.utc(2025, 1, 1), ts.utc(2026, 1, 1)), (ts.utc(1955, 1, 1), ts.utc(1955, 7, 1))):
        for t, v, mx in extrema(moon_distance, a, b, 0.25):
            apsides.append({'kind': 'apogee' if mx else 'perigee', 'utc': iso(t), 'jdTT': t.tt, 'distanceKm': v})
    sun_distance = lambda t: (sun - earth).at(t).distance().km
    perihelia = []
    for year in (1950, 2000, 2026, 2099):
        for t, v, mx in extrema(sun_distance, ts.utc(year, 1, 1), ts.utc(year, 12, 31), 1.0):
            perihelia.append({'year': year, 'kind': 'aphelion' if mx else 'perihelion', 'utc': iso(t), 'jdTT': t.tt, 'distanceKm': v})
    return {'phases': phases, 'seasons': seasons, 'apsides': apsides, 'earth': perihelia}


STARS = ('Sirius', 'Canopus', 'Arcturus', 'Vega', 'Capella', 'Rigel', 'Betelgeuse', 'Polaris', 'Deneb', 'Antares')


def stars():
    # The server's catalogue places (Resources/stars.csv), as Skyfield Stars without proper motion.
    catalogue = {}
    for line in open(os.path.join(ROOT, 'Resources', 'stars.csv')):
        f = line.rstrip('\n').split(',', 4)
        if len(f) == 5 and f[4] in STARS:
            catalogue[f[4]] = (float(f[0]), float(f[1]))
    out = []
    for k, date in enumerate([(2001, 2, 3, 4, 5, 6), (2013, 8, 9, 22, 0, 0), (2026, 1, 1, 22, 0, 0)]):
        t = ts.utc(*date)
        for name, (lat, lon, elev) in PLACES.items():
            place = (earth + wgs84.latlon(lat, lon, elevation_m=elev)).at(t)
            for star, (ra, dec) in sorted(catalogue.items()):
                alt, az, _ = place.observe(Star(ra_hours=ra, dec_degrees=dec)).apparent().altaz(temperature_C=10.0, pressure_mbar=1010.0)
                out.append({'star': star, 'raHours': ra, 'decDeg': dec, 'place': name, 'lat': lat, 'lon': lon, 'elevationM': elev,
                            'utc': iso(t), 'tdbSecondsPastJ2000': (t.tdb - 2451545.0) * 86400.0, 'deltaTSeconds': float(t.delta_t),
                            'azimuthDeg': az.degrees, 'refractedAltitudeDeg': alt.degrees})
    return out


def delta_t():
    # Observed IERS era only (Skyfield's bundled finals2000A may end earlier than the server's).
    out = []
    for k in range(240):
        t = ts.utc(1973, 2, 1 + k * 80, 7 + (k % 12), 30 * (k % 2))
        if t.tt > ts.utc(2026, 1, 1).tt:
            break
        out.append({'utc': iso(t), 'deltaTSeconds': float(t.delta_t)})
    return out


PRE_1972 = [(1900, 3, 1, 6, 0, 0), (1930, 5, 5, 3, 0, 0), (1955, 9, 14, 22, 0, 0), (1965, 3, 10, 12, 0, 0),
            (1969, 7, 20, 20, 17, 40)]
SMH_SOURCE = 'Stephenson, Morrison & Hohenkerk (2016) splines with the 2020 addendum'
C04_SOURCE = 'IERS EOP 20 C04 (UT1 − UTC) with TAI − UTC of the time'


C04 = iers_c04.delta_t_by_mjd(until_mjd=41684)  # up to the finals2000A table's first row


def c04_at(mjd):
    """Linear between the daily values (their second differences are below 0.1 ms)."""
    day = math.floor(mjd)
    return C04[day] + (mjd - day) * (C04[day + 1] - C04[day])


def pre1972():
    cases = []
    for date in PRE_1972:
        source = SMH_SOURCE
        t = ts.ut1(*date)
        if date[0] >= 1962:
            source = C04_SOURCE
            t = load.timescale(delta_t=c04_at(t.ut1 - 2400000.5)).ut1(*date)
        for name in ('london', 'sydney', 'quito'):
            lat, lon, elev = PLACES[name]
            obs = (earth + wgs84.latlon(lat, lon, elevation_m=elev)).at(t)
            for body, target in BODIES.items():
                _, apparent, (ra, dec, _), (ra0, dec0, _) = observed(obs, target)
                alt, az, _ = apparent.altaz()
                cases.append({'place': name, 'lat': lat, 'lon': lon, 'elevationM': elev, 'body': body,
                              'ut1': '%04d-%02d-%02dT%02d:%02d:%02dZ' % date, 'jdTT': t.tt, 'deltaTSeconds': float(t.delta_t),
                              'deltaTSource': source,
                              'raDeg': ra._degrees, 'decDeg': dec.degrees, 'raJ2000Deg': ra0._degrees, 'decJ2000Deg': dec0.degrees,
                              'azimuthDeg': az.degrees, 'altitudeDeg': alt.degrees})
    return cases


def measured_delta_t():
    return [{'mjdUTC': mjd, 'deltaTSeconds': C04[mjd]} for mjd in sorted(C04)[::23]]


def polar_motion():
    import astropy_iers_data
    from skyfield.data import iers
    finals = os.path.join(os.path.dirname(astropy_iers_data.__file__), 'data', 'finals2000A.all')
    with open(finals, 'rb') as f:
        finals_data = iers.parse_x_y_dut1_from_finals_all(f)
    pm_ts = load.timescale()
    iers.install_polar_motion_table(pm_ts, finals_data)
    cases = []
    for date in [(1980, 4, 1, 3, 0, 0), (2001, 2, 3, 4, 5, 6), (2013, 8, 9, 22, 0, 0), (2020, 12, 21, 18, 0, 0), (2024, 6, 1, 12, 0, 0)]:
        t_plain, t_pm = ts.utc(*date), pm_ts.utc(*date)
        _, x, y = t_pm.polar_motion_angles()
        for name in ('london', 'tromso', 'sydney', 'quito', 'maunakea'):
            lat, lon, elev = PLACES[name]
            place = earth + wgs84.latlon(lat, lon, elevation_m=elev)
            for body in ('sun', 'moon', 'mars', 'jupiter', 'saturn'):
                alt, az, _ = place.at(t_plain).observe(eph[BODIES[body]]).apparent().altaz()
                alt_pm, az_pm, _ = place.at(t_pm).observe(eph[BODIES[body]]).apparent().altaz()
                cases.append({'place': name, 'lat': lat, 'lon': lon, 'elevationM': elev, 'body': body, 'utc': iso(t_pm),
                              'tdbSecondsPastJ2000': (t_pm.tdb - 2451545.0) * 86400.0, 'deltaTSeconds': float(t_pm.delta_t),
                              'xPoleArcseconds': float(x), 'yPoleArcseconds': float(y),
                              'azimuthDeg': az_pm.degrees, 'altitudeDeg': alt_pm.degrees,
                              'azimuthWithoutPoleDeg': az.degrees, 'altitudeWithoutPoleDeg': alt.degrees})
    return cases


def write(name, payload):
    payload = dict({'madeBy': versions()}, **payload)
    with open(os.path.join(OUT, name), 'w') as f:
        json.dump(payload, f, indent=None if name == 'sky-events.json' else 1)
        f.write('\n')


write('sky-pre1972.json', {'note': 'dates read as UT1 (ts.ut1); the server reads the same label as UTC, i.e. UT before 1972. '
                                   'measuredDeltaT: IERS EOP 20 C04 (astropy-iers-data %s) with TAI - UTC from pyerfa %s, 0h UTC'
                                   % (importlib.metadata.version('astropy-iers-data'), importlib.metadata.version('pyerfa')),
                           'cases': pre1972(), 'measuredDeltaT': measured_delta_t()})
write('sky-polar-motion.json', {'note': 'Skyfield with ts.polar_motion_table from astropy-iers-data %s finals2000A.all, and without'
                                % importlib.metadata.version('astropy-iers-data'), 'cases': polar_motion()})
write('sky-positions.json', {'cases': positions(), 'deltaT': delta_t(), 'stars': stars()})
write('almanac.json', almanac_fixture())
write('sky-events.json', {'note': 'Astronomy Engine: SearchRiseSet (upper limb, 34 arcmin), SearchHourAngle 0, SearchAltitude -6/-12/-18 for the Sun centre',
                          'places': events()})
