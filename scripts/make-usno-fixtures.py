#!/usr/bin/env python3
"""Writes Tests/SkyTests/Fixtures/usno-rise-set.json: rise and set of the Sun and the Moon as the
U.S. Naval Observatory publishes them, for the Sky module's test against USNO (issue 22).

Sources, in order:

1. USNO's API, one day at a time:
       https://aa.usno.navy.mil/api/rstt/oneday?date=YYYY-MM-DD&coords=LAT,LON&tz=0
   (tried first for every place and date in API_CASES; on 2026-11-26 the build machine could not
   resolve aa.usno.navy.mil, so the fixture holds no API rows then).
2. USNO's "Rise and Set for the Sun or Moon for One Year" tables (Astronomical Applications
   Dept., https://aa.usno.navy.mil/data/RS_OneYear, Universal Time, minutes), as saved from
   USNO's pages in Astronomy Engine's repository (github.com/cosinekitty/astronomy,
   generate/riseset/*.html, MIT; the tables are USNO's, a U.S. Government work); the page's
   <pre> block is kept in Tests/SkyTests/Fixtures/usno/*.txt, header blanks trimmed.

USNO's definition (https://aa.usno.navy.mil/faq/RST_defs): rise and set are when the upper limb
is on a level, unobstructed horizon, with 34' of refraction and the body's semidiameter (and, for
the Moon, its horizontal parallax); times are rounded to the minute. "****" marks a day the body
is above the horizon throughout, "----" below.

    python3 scripts/make-usno-fixtures.py
"""
import datetime
import glob
import json
import os
import re
import urllib.request

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
FIXTURES = os.path.join(ROOT, 'Tests', 'SkyTests', 'Fixtures')
API = 'https://aa.usno.navy.mil/api/rstt/oneday?date=%s&coords=%.4f,%.4f&tz=0'
API_CASES = [  # (place, lat, lon, dates)
    ('washington', 38.8895, -77.0353, ['2020-03-20', '2022-06-21', '2025-12-21']),
    ('sydney', -33.8688, 151.2093, ['2021-01-15', '2024-07-01']),
    ('reykjavik', 64.1466, -21.9426, ['2023-03-01', '2025-06-21']),
    ('tromso', 69.6492, 18.9553, ['2020-05-10', '2024-11-20', '2025-01-20']),
    ('mcmurdo', -77.8463, 166.6682, ['2022-02-15', '2025-10-20']),
]


def from_api():
    rows = []
    for place, lat, lon, dates in API_CASES:
        for date in dates:
            url = API % (date, lat, lon)
            try:
                with urllib.request.urlopen(url, timeout=20) as r:
                    data = json.load(r)
            except Exception as e:  # noqa: BLE001 — recorded, then the tables are used
                return [], '%s: %s' % (url, e)
            props = data['properties']['data']
            for body, key in (('sun', 'sundata'), ('moon', 'moondata')):
                for item in props.get(key, []):
                    kind = {'Rise': 'rise', 'Set': 'set', 'Upper Transit': 'transit'}.get(item['phen'])
                    if kind:
                        rows.append({'source': url, 'place': place, 'lat': lat, 'lon': lon, 'body': body, 'kind': kind,
                                     'utc': '%sT%sZ' % (date, item['time'])})
    return rows, None


def parse_table(path):
    lines = open(path).read().split('\n')
    m = None
    for line in lines:
        m = re.match(r'^Location:\s*([EW]?)(\d+)\s+(\d+),\s*([NS]?)(\d+)\s+(\d+)\s+Rise and Set for the (\S+) for (\d{4})', line)
        if m:
            break
    lon = int(m.group(2)) + int(m.group(3)) / 60.0
    lon = -lon if m.group(1) == 'W' else lon
    lat = int(m.group(5)) + int(m.group(6)) / 60.0
    lat = -lat if m.group(4) == 'S' else lat
    body, year = m.group(7).lower(), int(m.group(8))
    events, always_up, always_down = [], [], []
    for line in lines:
        d = re.match(r'^([0-3][0-9])\s\s', line)
        if not d:
            continue
        day, text = int(d.group(1)), line[4:]
        for month in range(1, 13):
            for kind, cell in (('rise', text[11 * (month - 1):11 * (month - 1) + 4]), ('set', text[11 * (month - 1) + 5:11 * (month - 1) + 9])):
                cell = cell.strip()
                date = '%04d-%02d-%02d' % (year, month, day)
                if re.fullmatch(r'\d{4}', cell):
                    events.append({'kind': kind, 'utc': '%sT%s:%s:00Z' % (date, cell[:2], cell[2:])})
                elif cell == '****' and kind == 'rise':
                    always_up.append(date)
                elif cell == '----' and kind == 'rise':
                    always_down.append(date)
    events.sort(key=lambda e: e['utc'])
    return {'file': os.path.relpath(path, FIXTURES), 'body': body, 'year': year, 'lat': lat, 'lon': lon,
            'events': events, 'alwaysUp': always_up, 'alwaysDown': always_down}


api_rows, api_error = from_api()
tables = [parse_table(p) for p in sorted(glob.glob(os.path.join(FIXTURES, 'usno', '*.txt')))]
payload = {
    'madeBy': {'script': 'scripts/make-usno-fixtures.py', 'fetched': datetime.date.today().isoformat()},
    'definition': 'USNO: upper limb on a level horizon, 34 arcmin refraction, semidiameter and (Moon) parallax; '
                  'UT rounded to the minute (https://aa.usno.navy.mil/faq/RST_defs)',
    'api': {'url': API, 'rows': api_rows, 'error': api_error},
    'tables': tables,
    'tableSource': 'USNO Astronomical Applications Dept., Rise and Set for the Sun or Moon for One Year '
                   '(https://aa.usno.navy.mil/data/RS_OneYear), pages as saved in github.com/cosinekitty/astronomy '
                   'generate/riseset/ (commits 690a71e, 0be5745)',
}
with open(os.path.join(FIXTURES, 'usno-rise-set.json'), 'w') as f:
    json.dump(payload, f, indent=1)
    f.write('\n')
print('%d API rows (%s); %s' % (len(api_rows), api_error or 'ok', ', '.join('%s %s %d events' % (t['file'], t['body'], len(t['events'])) for t in tables)))
