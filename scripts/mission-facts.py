#!/usr/bin/env python3
"""Published mission facts beside what the server serves.

For every mission event in `Resources/missions.json` that states a fact (a distance or an
altitude from a body, a speed), this asks a running server for the vehicle's path around the
event — `/v1/positions/naif:<id>?center=<body>` minute by minute from two hours before to two
hours after — and prints the published figure next to the served one: the closest approach
(distance from the body's centre, altitude above its mean radius) and when it happens, and the
speed relative to the body there. Nothing is computed here that the server does not say.

    swift run -c release solarsystem serve &      # or any running server
    python3 scripts/mission-facts.py              # every mission
    python3 scripts/mission-facts.py voyager2 --url http://127.0.0.1:8080

Standard library only. Exit status 0 when every request succeeded.
"""
import argparse
import datetime as dt
import json
import sys
import urllib.parse
import urllib.request


def get(base, path, **query):
    url = base.rstrip("/") + path + ("?" + urllib.parse.urlencode(query) if query else "")
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept": "application/json"}), timeout=120) as r:
        return json.load(r)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse(s):
    return dt.datetime.fromisoformat(s.replace("Z", "+00:00"))


def closest(base, naif, body, around, half_hours=2.0):
    """The served closest approach of NAIF id `naif` to `body` within ±half_hours of `around`."""
    start, stop = around - dt.timedelta(hours=half_hours), around + dt.timedelta(hours=half_hours)
    series = get(base, f"/v1/positions/naif:{naif}", center=body, units="km", start=iso(start), stop=iso(stop), step="1m")
    samples = series["samples"]
    if not samples:
        return None
    best = min(samples, key=lambda s: s["distance"])
    per_second = 86400.0 if series.get("velocityUnits", "").endswith("/day") else 1.0
    speed = sum(v * v for v in best["velocity"]) ** 0.5 / per_second
    return best["date"], best["distance"], speed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("missions", nargs="*", help="mission ids (default: every mission)")
    ap.add_argument("--url", default="http://127.0.0.1:8080", help="the server (default %(default)s)")
    args = ap.parse_args()
    base = args.url
    ids = args.missions or [m["id"] for m in get(base, "/v1/missions")["missions"]]
    radii = {}
    failures = 0
    for mid in ids:
        m = get(base, f"/v1/missions/{mid}")
        print(f"\n{m['name']} ({mid}), {m['launchDate']} to {m['end'] or 'today (ongoing)'}")
        print(f"  {m['trajectorySummary']}")
        launch = parse(m["launchDate"])
        for e in m["events"]:
            f = e.get("fact")
            if not f or not f.get("body"):
                continue
            body = f["body"]
            when = parse(e["date"])
            alive = [v for v in m["vehicles"] if v["startHours"] <= e["t"] and (v["endHours"] is None or e["t"] <= v["endHours"])]
            vehicle = next((v for v in alive if v["primary"]), alive[0] if alive else None)
            if vehicle is None:
                continue
            if body not in radii:
                radii[body] = get(base, f"/v1/bodies/{body}")["radiusKm"]
            r = radii[body]
            try:
                served = closest(base, vehicle["naifId"], body, when)
            except Exception as err:  # a 422 outside the kernels, a network error
                print(f"  {e['name']}: {err}")
                failures += 1
                continue
            if served is None:
                continue
            date, distance, speed = served
            published = []
            if f.get("distanceKm") is not None:
                published.append(f"{f['distanceKm']:,.0f} km from centre")
            if f.get("altitudeKm") is not None:
                published.append(f"{f['altitudeKm']:,.0f} km altitude")
            if f.get("speedKmS") is not None:
                published.append(f"{f['speedKmS']:.2f} km/s")
            dt_min = (parse(date) - when).total_seconds() / 60
            print(f"  {e['name']} ({body}, {vehicle['id']})")
            print(f"    published: {e['date']}  {', '.join(published)}")
            print(f"    served:    {date}  {distance:,.0f} km from centre, {distance - r:,.0f} km altitude, {speed:.2f} km/s"
                  f"  (closest approach {dt_min:+.0f} min from the event)")
            print(f"    source:    {f['source']}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
