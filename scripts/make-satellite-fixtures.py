#!/usr/bin/env python3
"""Writes Tests/SatellitesTests/Fixtures/teme-reference.json (SGP4 states of a few element sets
in TEME (python-sgp4, the reference C++ code) and in GCRS (Skyfield's TEME -> GCRS), and the
sub-satellite point on WGS-84, for the Satellites tests) and Tests/SkyTests/Fixtures/satellite-passes.json
(Skyfield's ISS passes and topocentric altitude and azimuth over three places, for the pass search).
Test-time only:

    pip install sgp4 skyfield
    python3 scripts/make-satellite-fixtures.py
"""
import json, os, sgp4, skyfield
from sgp4.api import Satrec, WGS72
from sgp4.conveniences import sat_epoch_datetime
from skyfield.api import load, EarthSatellite, wgs84

SETS = [
    ("ISS (ZARYA)", "1 25544U 98067A   26267.14191496  .00009634  00000+0  18116-3 0  9999",
     "2 25544  51.6318 170.3464 0004691 174.6338 185.4701 15.49258637587098"),
    ("NOAA 19", "1 33591U 09005A   26267.29309843  .00000009  00000+0  28340-4 0  9995",
     "2 33591  98.9434 338.1952 0014779 109.0362 251.2412 14.13486774908481"),
    ("MOLNIYA 1-36", "1 09880U 77021A   06176.56157475  .00000421  00000-0  10000-3 0  9814",
     "2 09880  64.5968 349.3786 7069051 270.0229  16.3320  2.00813614112380"),
]
MINUTES = [0.0, 45.0, 90.0, 720.0, 1440.0]

ts = load.timescale(builtin=True)
out = {"generator": "scripts/make-satellite-fixtures.py",
       "versions": {"sgp4": sgp4.__version__, "skyfield": skyfield.__version__},
       "note": "gcrs: Skyfield's TEME->GCRS (IAU 2000A nutation, IAU 2006 precession, frame bias); "
               "its UT1 from Skyfield's builtin Earth-orientation table.",
       "sets": []}
for name, l1, l2 in SETS:
    sat = EarthSatellite(l1, l2, name, ts)
    rec = Satrec.twoline2rv(l1, l2, WGS72)
    samples = []
    for m in MINUTES:
        jd, fr = rec.jdsatepoch, rec.jdsatepochF + m / 1440.0
        e, r, v = rec.sgp4(jd, fr)
        assert e == 0
        # The sample's UTC instant: the epoch (UTC) plus the minutes.
        ep = sat_epoch_datetime(rec)
        t = ts.utc(ep.year, ep.month, ep.day, ep.hour, ep.minute, ep.second + ep.microsecond * 1e-6 + m * 60.0)
        g = sat.at(t)
        sub = wgs84.geographic_position_of(g)
        samples.append({"minutes": m, "utcISO": t.utc_iso(places=6),
                        "temeKm": list(r), "temeKmPerS": list(v),
                        "gcrsKm": list(g.position.km), "gcrsKmPerS": list(g.velocity.km_per_s),
                        "latitudeDeg": sub.latitude.degrees, "longitudeDeg": sub.longitude.degrees,
                        "elevationKm": sub.elevation.km})
    out["sets"].append({"name": name, "line1": l1, "line2": l2, "samples": samples})

path = os.path.join(os.path.dirname(__file__), "..", "Tests", "SatellitesTests", "Fixtures", "teme-reference.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1)
print("wrote", os.path.normpath(path))

# Passes of the bundled ISS set over a few places (Tests/SkyTests/Fixtures/satellite-passes.json):
# Skyfield's EarthSatellite.find_events (geometric altitude, no refraction), and the ISS's
# geometric topocentric altitude and azimuth at each event and between them.
ISS = SETS[0]
PLACES = [("London", 51.5074, -0.1278, 11.0), ("Houston", 29.7604, -95.3698, 15.0), ("Sydney", -33.8688, 151.2093, 40.0)]
PASS_START, PASS_STOP, MIN_ALTITUDE = (2026, 9, 24), (2026, 9, 27), 10.0
sat = EarthSatellite(ISS[1], ISS[2], ISS[0], ts)
passes = {"generator": "scripts/make-satellite-fixtures.py",
          "versions": {"sgp4": sgp4.__version__, "skyfield": skyfield.__version__},
          "note": "EarthSatellite.find_events(topos, t0, t1, altitude_degrees) with wgs84.latlon; "
                  "kinds 0 rise, 1 culmination, 2 set; altaz() of (satellite - topos), no refraction; "
                  "UT1 from Skyfield's builtin table.",
          "line1": ISS[1], "line2": ISS[2], "start": "%04d-%02d-%02dT00:00:00Z" % PASS_START,
          "stop": "%04d-%02d-%02dT00:00:00Z" % PASS_STOP, "minAltitudeDeg": MIN_ALTITUDE, "places": []}
t0, t1 = ts.utc(*PASS_START), ts.utc(*PASS_STOP)
for name, lat, lon, height in PLACES:
    topos = wgs84.latlon(lat, lon, elevation_m=height)
    times, kinds = sat.find_events(topos, t0, t1, altitude_degrees=MIN_ALTITUDE)
    events, samples = [], []
    for t, k in zip(times, kinds):
        alt, az, dist = (sat - topos).at(t).altaz()
        events.append({"kind": int(k), "utcISO": t.utc_iso(places=3), "altitudeDeg": alt.degrees, "azimuthDeg": az.degrees})
    # Alt/az every minute from each rise to its set.
    for t, k in zip(times, kinds):
        if k != 0:
            continue
        for m in range(0, 12):
            ts_ = ts.tt_jd(t.tt + m / 1440.0)
            alt, az, dist = (sat - topos).at(ts_).altaz()
            if alt.degrees < 0:
                break
            samples.append({"utcISO": ts_.utc_iso(places=6), "altitudeDeg": alt.degrees, "azimuthDeg": az.degrees, "distanceKm": dist.km})
    passes["places"].append({"name": name, "latitudeDeg": lat, "longitudeDeg": lon, "elevationM": height,
                             "events": events, "altaz": samples})

path = os.path.join(os.path.dirname(__file__), "..", "Tests", "SkyTests", "Fixtures", "satellite-passes.json")
with open(path, "w") as f:
    json.dump(passes, f, indent=1)
print("wrote", os.path.normpath(path))

# Deep-space passes (Tests/SkyTests/Fixtures/deep-space-passes.json): the 12 h Molniya sets of the
# SGP4 verification file over three days from their epochs, where the pass search samples by the
# satellite's motion across the sky instead of every minute.
DEEP = [
    ("MOLNIYA 2-14", "1 08195U 75081A   06176.33215444  .00000099  00000-0  11873-3 0   813",
     "2 08195  64.1586 279.0717 6877146 264.7651  20.2257  2.00491383225656"),
    ("MOLNIYA 1-36", "1 09880U 77021A   06176.56157475  .00000421  00000-0  10000-3 0  9814",
     "2 09880  64.5968 349.3786 7069051 270.0229  16.3320  2.00813614112380"),
]
DEEP_PLACES = [("London", 51.5074, -0.1278, 11.0), ("Sydney", -33.8688, 151.2093, 40.0), ("Quito", -0.1807, -78.4678, 2850.0)]
deep = {"generator": "scripts/make-satellite-fixtures.py",
        "versions": {"sgp4": sgp4.__version__, "skyfield": skyfield.__version__},
        "note": "EarthSatellite.find_events(topos, t0, t1, altitude_degrees) with wgs84.latlon over three days "
                "from 2006-06-26; kinds 0 rise, 1 culmination, 2 set; altaz() of (satellite - topos), no refraction.",
        "start": "2006-06-26T00:00:00Z", "stop": "2006-06-29T00:00:00Z", "minAltitudeDeg": MIN_ALTITUDE, "sets": []}
t0, t1 = ts.utc(2006, 6, 26), ts.utc(2006, 6, 29)
for name, l1, l2 in DEEP:
    sat = EarthSatellite(l1, l2, name, ts)
    places = []
    for pname, lat, lon, height in DEEP_PLACES:
        topos = wgs84.latlon(lat, lon, elevation_m=height)
        times, kinds = sat.find_events(topos, t0, t1, altitude_degrees=MIN_ALTITUDE)
        events = []
        for t, k in zip(times, kinds):
            alt, az, dist = (sat - topos).at(t).altaz()
            events.append({"kind": int(k), "utcISO": t.utc_iso(places=3), "altitudeDeg": alt.degrees, "azimuthDeg": az.degrees})
        places.append({"name": pname, "latitudeDeg": lat, "longitudeDeg": lon, "elevationM": height, "events": events})
    deep["sets"].append({"name": name, "line1": l1, "line2": l2, "places": places})
path = os.path.join(os.path.dirname(__file__), "..", "Tests", "SkyTests", "Fixtures", "deep-space-passes.json")
with open(path, "w") as f:
    json.dump(deep, f, indent=1)
print("wrote", os.path.normpath(path))
