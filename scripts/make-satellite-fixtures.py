#!/usr/bin/env python3
"""Writes Tests/SatellitesTests/Fixtures/teme-reference.json: SGP4 states of a few element sets
in TEME (python-sgp4, the reference C++ code) and in GCRS (Skyfield's TEME -> GCRS), and the
sub-satellite point on WGS-84, for the Satellites tests. Test-time only:

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
