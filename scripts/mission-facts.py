#!/usr/bin/env python3
"""Published mission facts beside what the server serves.

For every mission event in `Resources/missions.json` that states a fact (a distance or an
altitude from a body, a speed), this asks a running server for the vehicle's path around the
event — `/v1/positions/naif:<id>?center=<body>` minute by minute from two hours before to two
hours after — and prints the published figure next to the served one: the distance from the
body's centre, the altitude above its mean radius and the speed relative to the body at the
event's time, and the closest approach (the farthest point, for a "farthest" event) between the
neighbouring events, at most two hours away, and when it happens: found at one-minute steps,
then again at one-second steps within a minute of it (a Juno flyby covers 700 km in 30 s).
There the altitude is also the server's telemetry's (`nearestBody.altitudeKm`, above the body's
IAU spheroid: Jupiter's equatorial radius is 1,500 km more than its mean one), when the body is
the one nearest the vehicle. The fact is taken to be about the vehicle nearest the body at the
time. Nothing is computed here that the server does not say.

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


def series(base, naif, body, start, stop, step="1m"):
    """The served path of NAIF id `naif` about `body`, every `step` from `start` to `stop`."""
    out = get(base, f"/v1/positions/naif:{naif}", center=body, units="km", start=iso(start), stop=iso(stop), step=step)
    per_second = 86400.0 if out.get("velocityUnits", "").endswith("/day") else 1.0
    return [(s["date"], s["distance"], sum(v * v for v in s["velocity"]) ** 0.5 / per_second) for s in out["samples"]]


def at(base, naif, body, when):
    """The served distance from `body` and speed relative to it at the instant `when` (ISO text)."""
    out = get(base, f"/v1/positions/naif:{naif}", center=body, units="km", times=when)
    per_second = 86400.0 if out.get("velocityUnits", "").endswith("/day") else 1.0
    s = out["samples"][0]
    return s["distance"], sum(v * v for v in s["velocity"]) ** 0.5 / per_second


def spheroid_altitude(base, mission, vehicle, body, when):
    """The telemetry's altitude above `body`'s spheroid at `when` (ISO text), if `body` is the
    body nearest the vehicle then (the telemetry names only that one), else None."""
    out = get(base, f"/v1/missions/{mission}/telemetry", date=when)
    v = next((v for v in out["vehicles"] if v["id"] == vehicle), None)
    nearest = (v or {}).get("nearestBody") or {}
    return nearest.get("altitudeKm") if nearest.get("id") == body else None


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
        events = m["events"]
        for i, e in enumerate(events):
            f = e.get("fact")
            if not f or not f.get("body"):
                continue
            body = f["body"]
            when = parse(e["date"])
            alive = [v for v in m["vehicles"] if v["startHours"] <= e["t"] and (v["endHours"] is None or e["t"] <= v["endHours"])]
            if not alive:
                continue
            if body not in radii:
                radii[body] = get(base, f"/v1/bodies/{body}")["radiusKm"]
            r = radii[body]
            try:
                # The fact is about the vehicle nearest the body then (Eagle, not Columbia, at the landing).
                now = sorted(((at(base, v["naifId"], body, e["date"]), v) for v in alive), key=lambda x: x[0][0])
                (distance, speed), vehicle = now[0]
                # The extremum (closest, or farthest for a "farthest" event) between the events
                # either side, at most two hours away, inside the vehicle's span.
                lo = max(when - dt.timedelta(hours=2), parse(events[i - 1]["date"]) if i > 0 else when,
                         parse(m["launchDate"]) + dt.timedelta(hours=vehicle["startHours"]))
                hi = min(when + dt.timedelta(hours=2), parse(events[i + 1]["date"]) if i + 1 < len(events) else when)
                if vehicle["endHours"] is not None:
                    hi = min(hi, parse(m["launchDate"]) + dt.timedelta(hours=vehicle["endHours"]))
                path = series(base, vehicle["naifId"], body, lo, hi) if hi > lo else []
            except Exception as err:  # a 422 outside the kernels, a network error
                print(f"  {e['name']}: {err}")
                failures += 1
                continue
            published = []
            if f.get("distanceKm") is not None:
                published.append(f"{f['distanceKm']:,.0f} km from centre")
            if f.get("altitudeKm") is not None:
                published.append(f"{f['altitudeKm']:,.1f} km altitude")
            if f.get("speedKmS") is not None:
                published.append(f"{f['speedKmS']:.2f} km/s")
            print(f"  {e['name']} ({body}, {vehicle['id']})")
            print(f"    published:     {e['date']}  {', '.join(published)}")
            print(f"    served then:   {e['date']}  {distance:,.0f} km from centre, {distance - r:,.1f} km altitude, {speed:.2f} km/s")
            if path:
                farthest = "farthest" in e["name"].lower() or "max" in e["key"]
                pick = max if farthest else min
                date, d, v = pick(path, key=lambda s: s[1])
                # Again at one-second steps within a minute of it, inside the searched span.
                a, b = max(parse(date) - dt.timedelta(minutes=1), lo), min(parse(date) + dt.timedelta(minutes=1), hi)
                if b > a:
                    date, d, v = pick(series(base, vehicle["naifId"], body, a, b, step="1s"), key=lambda s: s[1])
                spheroid = spheroid_altitude(base, mid, vehicle["id"], body, date)
                above = f", {spheroid:,.1f} km above the spheroid" if spheroid is not None else ""
                dt_s = (parse(date) - when).total_seconds()
                print(f"    {'farthest' if farthest else 'closest'}:{' ' if farthest else '  '}     {date}  {d:,.0f} km from centre, {d - r:,.1f} km altitude{above}, {v:.2f} km/s"
                      f"  ({dt_s / 60:+.1f} min from the event; searched {iso(lo)} to {iso(hi)})")
            print(f"    source:        {f['source']}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
