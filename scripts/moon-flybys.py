#!/usr/bin/env python3
"""Every close approach of a spacecraft to a moon, as a running server serves them.

Asks the server's Horizons endpoint (`/api/horizons.api`, EPHEM_TYPE=VECTORS) for the vehicle
relative to the moon's centre, in half-year tables every --coarse minutes, takes each local
minimum of the range under --within km, and finds it again at one-minute steps. Prints the time
(TDB) and the height above the moon's mean radius, and how many pass below --floor km or inside
the moon. What it is for: a moon the server places by an analytical theory is off by hundreds
to thousands of km (issue 38), and a spacecraft path built about the theory's moon can then pass
below an atmosphere it never entered, or through the moon; a published flyby listed in
missions.json anchors its moon, the others do not.

    python3 scripts/moon-flybys.py --port 8080 --vehicle -82 --moon 606 --radius 2574.7 \\
        --from 2004 --to 2017 --floor 880     # Cassini and Titan: 880 km was T70, the lowest flown
"""
import argparse
import datetime
import json
import math
import sys
import urllib.error
import urllib.parse
import urllib.request


def vectors(port, vehicle, moon, start, stop, step):
    """(JD TDB, range km) rows of the vehicle from the moon's centre."""
    query = {"format": "json", "COMMAND": f"'{vehicle}'", "EPHEM_TYPE": "VECTORS", "CENTER": f"'500@{moon}'",
             "START_TIME": f"'{start}'", "STOP_TIME": f"'{stop}'", "STEP_SIZE": f"'{step}'",
             "VEC_TABLE": "'2'", "CSV_FORMAT": "YES", "OUT_UNITS": "KM-S"}
    url = f"http://127.0.0.1:{port}/api/horizons.api?" + urllib.parse.urlencode(query)
    result = json.load(urllib.request.urlopen(url, timeout=60))["result"]
    if "$$SOE" not in result:
        return []
    rows = []
    for line in result.split("$$SOE")[1].split("$$EOE")[0].strip().splitlines():
        f = [x.strip() for x in line.split(",")]
        rows.append((float(f[0]), math.sqrt(float(f[2]) ** 2 + float(f[3]) ** 2 + float(f[4]) ** 2)))
    return rows


def utc_like(jd):
    return (datetime.datetime(2000, 1, 1, 12) + datetime.timedelta(days=jd - 2451545.0)).strftime("%Y-%m-%d %H:%M")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--vehicle", required=True, help="NAIF id of the spacecraft (-82 Cassini, -61 Juno, -31 Voyager 1)")
    ap.add_argument("--moon", required=True, help="NAIF id of the moon (606 Titan, 502 Europa)")
    ap.add_argument("--radius", type=float, required=True, help="the moon's mean radius, km")
    ap.add_argument("--from", dest="first", type=int, required=True, help="first year")
    ap.add_argument("--to", dest="last", type=int, required=True, help="last year")
    ap.add_argument("--within", type=float, default=30_000, help="closest approaches under this range, km")
    ap.add_argument("--coarse", type=int, default=30, help="minutes between samples of the first pass")
    ap.add_argument("--floor", type=float, default=0, help="count the approaches below this height, km")
    args = ap.parse_args()

    found = []
    for year in range(args.first, args.last + 1):
        for start, stop in ((f"{year}-01-01", f"{year}-07-01"), (f"{year}-07-01", f"{year + 1}-01-01")):
            try:
                rows = vectors(args.port, args.vehicle, args.moon, start, stop, f"{args.coarse}m")
            except urllib.error.HTTPError:
                continue  # outside the vehicle's data
            for i in range(1, len(rows) - 1):
                if rows[i][1] < rows[i - 1][1] and rows[i][1] <= rows[i + 1][1] and rows[i][1] < args.within:
                    fine = vectors(args.port, args.vehicle, args.moon, f"JD{rows[i - 1][0]}", f"JD{rows[i + 1][0]}", "1m")
                    jd, r = min(fine, key=lambda x: x[1])
                    found.append((jd, r - args.radius))
                    print(f"{utc_like(jd)} TDB  {r - args.radius:9.1f} km up", flush=True)
    below = sum(1 for _, h in found if h < args.floor)
    inside = sum(1 for _, h in found if h < 0)
    print(f"{len(found)} closest approaches under {args.within:.0f} km; {below} below {args.floor:.0f} km up; {inside} inside the moon")
    return 0


if __name__ == "__main__":
    sys.exit(main())
