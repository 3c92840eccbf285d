#!/usr/bin/env python3
"""Every close approach of a spacecraft to a moon, as a running server serves them.

Asks the server for the vehicle's path about the moon (`/v1/positions/{id}?center=MOON`, the
series scripts/mission-facts.py reads too) in half-year tables every --coarse minutes, takes
each local minimum of the distance under --within km, and finds it again at one-minute steps,
then one-second steps.
Prints the time (UTC) and the height above the moon's mean radius (`/v1/bodies/MOON`), and how
many pass below --floor km or inside the moon. What it is for: a moon the server places by an
analytical theory is off by hundreds to thousands of km (issue 38), and a spacecraft path built
about the theory's moon can then pass below an atmosphere it never entered, or through the
moon; a published flyby listed in missions.json anchors its moon, the others do not.

    python3 scripts/moon-flybys.py --url http://127.0.0.1:8080 --vehicle naif:-82 --moon titan \
        --from 2004 --to 2017 --floor 880     # Cassini and Titan: 880 km was T70, the lowest flown
"""
import argparse
import json
import sys
import urllib.error
import urllib.parse
import urllib.request


def get(base, path, **query):
    return get_with_link(base, path, **query)[0]


def get_with_link(base, path, **query):
    """The JSON answer and the path of its `Link: <…>; rel="next"` (None without one)."""
    url = base.rstrip("/") + path + ("?" + urllib.parse.urlencode(query) if query else "")
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept": "application/json"}), timeout=120) as r:
        link = r.headers.get("Link") or ""
        nxt = next((p[p.index("<") + 1:p.index(">")] for p in link.split(",") if 'rel="next"' in p), None)
        return json.load(r), nxt


def distances(base, vehicle, moon, start, stop, step):
    """(UTC, km) of the vehicle from the moon's centre, every `step` from `start` to `stop`: every
    page of it (the server cuts a series at 100,000 rows, says `truncated` and links the next)."""
    rows, path, query = [], f"/v1/positions/{vehicle}", dict(center=moon, units="km", start=start, stop=stop, step=step)
    while True:
        out, nxt = get_with_link(base, path, **query)
        rows += [(s["date"], s["distance"]) for s in out["samples"]]
        if not out.get("truncated") or nxt is None:
            return rows
        path, _, qs = nxt.partition("?")
        query = {k: v[0] for k, v in urllib.parse.parse_qs(qs).items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", default="http://127.0.0.1:8080", help="the server (default %(default)s)")
    ap.add_argument("--vehicle", required=True, help="the spacecraft: a vehicle id (cassini) or naif:ID (naif:-82)")
    ap.add_argument("--moon", required=True, help="the moon's id (titan, europa, enceladus)")
    ap.add_argument("--from", dest="first", type=int, required=True, help="first year")
    ap.add_argument("--to", dest="last", type=int, required=True, help="last year")
    ap.add_argument("--within", type=float, default=30_000, help="closest approaches under this distance, km")
    ap.add_argument("--coarse", type=int, default=30, help="minutes between samples of the first pass")
    ap.add_argument("--floor", type=float, default=0, help="count the approaches below this height, km")
    args = ap.parse_args()
    radius = get(args.url, f"/v1/bodies/{args.moon}")["radiusKm"]

    found = []
    for year in range(args.first, args.last + 1):
        for start, stop in ((f"{year}-01-01T00:00:00Z", f"{year}-07-01T00:00:00Z"), (f"{year}-07-01T00:00:00Z", f"{year + 1}-01-01T00:00:00Z")):
            try:
                rows = distances(args.url, args.vehicle, args.moon, start, stop, f"{args.coarse}m")
            except urllib.error.HTTPError:
                continue  # outside the vehicle's data
            for i in range(1, len(rows) - 1):
                if rows[i][1] < rows[i - 1][1] and rows[i][1] <= rows[i + 1][1] and rows[i][1] < args.within:
                    minute = distances(args.url, args.vehicle, args.moon, rows[i - 1][0], rows[i + 1][0], "1m")
                    k = min(range(len(minute)), key=lambda j: minute[j][1])
                    # A second's steps across the minutes either side: at 6 km/s past a moon of
                    # 250 km, the minute grid alone can miss the closest approach by tens of km.
                    date, r = min(distances(args.url, args.vehicle, args.moon, minute[max(k - 1, 0)][0], minute[min(k + 1, len(minute) - 1)][0], "1s"),
                                  key=lambda x: x[1])
                    found.append((date, r - radius))
                    print(f"{date}  {r - radius:9.1f} km up", flush=True)
    below = sum(1 for _, h in found if h < args.floor)
    inside = sum(1 for _, h in found if h < 0)
    print(f"{len(found)} closest approaches under {args.within:.0f} km; {below} below {args.floor:.0f} km up; {inside} inside the moon")
    return 0


if __name__ == "__main__":
    sys.exit(main())
