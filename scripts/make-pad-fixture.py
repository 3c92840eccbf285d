#!/usr/bin/env python3
"""Writes Tests/MissionKernelsTests/Fixtures/pads-skyfield.json: where Skyfield puts the missions'
launch pads (WGS 84 geodetic, height 0) at their launch times, geocentric, ecliptic J2000 (the
IAU 2006 obliquity 84381.448"), km. Skyfield turns the Earth by IAU 2006/2000A with its own
UT1 (its bundled IERS data; a date before 1972 taken as UT1, as the engine reads it) and no
polar motion.

    python3 scripts/make-pad-fixture.py     # skyfield 1.55 was used
"""
import datetime, json, math, pathlib, skyfield
from skyfield.api import load, wgs84

PADS = {  # name: (lat, lon), as Sources/MissionKernels/LaunchSite.swift
    "lc39A": (28.608389, -80.604333), "lc39B": (28.627222, -80.620833), "slc41": (28.583333, -80.583056),
    "slc40": (28.562106, -80.577180), "slc37B": (28.531358, -80.566200), "ela3": (5.239, -52.7685),
}
LAUNCHES = [("apollo11", "lc39A", "1969-07-16T13:32:00"), ("artemis2", "lc39B", "2026-04-01T22:35:12"),
            ("voyager2", "slc41", "1977-08-20T14:29:00"), ("cassini", "slc40", "1997-10-15T08:43:00"),
            ("parker", "slc37B", "2018-08-12T07:31:00"), ("bepicolombo", "ela3", "2018-10-20T01:45:28")]
ts = load.timescale()
eps = math.radians(84381.448 / 3600)
rows = []
for mission, pad, iso in LAUNCHES:
    d = datetime.datetime.fromisoformat(iso).replace(tzinfo=datetime.timezone.utc)
    # Before 1972 UTC ran on "rubber seconds" within 0.1 s of UT1, and the engine reads such a
    # date as UT1; Skyfield would read it as UTC with 1972's 10 s TAI-UTC (2 s off then).
    t = ts.ut1(d.year, d.month, d.day, d.hour, d.minute, d.second) if d.year < 1972 else ts.from_datetime(d)
    lat, lon = PADS[pad]
    x, y, z = wgs84.latlon(lat, lon).at(t).position.km
    # ICRF -> ecliptic J2000
    rows.append({"mission": mission, "pad": pad, "utc": iso + "Z", "latitudeDeg": lat, "longitudeDeg": lon,
                 "deltaTSeconds": float(t.delta_t),
                 "eclipticKm": [x, y * math.cos(eps) + z * math.sin(eps), -y * math.sin(eps) + z * math.cos(eps)]})
out = pathlib.Path(__file__).resolve().parent.parent / "Tests/MissionKernelsTests/Fixtures/pads-skyfield.json"
out.write_text(json.dumps({"about": f"made by scripts/make-pad-fixture.py with skyfield {skyfield.__version__}: "
                           "pads at their launch times, geocentric ecliptic J2000 km (IAU 2006/2000A, Skyfield's UT1, no polar motion)",
                           "pads": rows}, indent=1) + "\n")
print(out)
