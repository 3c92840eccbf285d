#!/usr/bin/env python3
"""Writes Tests/SkyTests/Fixtures/usno-rise-set.json: rise and set of the Sun and the Moon as the
U.S. Naval Observatory publishes them, for the Sky module's test against USNO (issue 22).

Sources, in order:

1. USNO's API, one day at a time:
       https://aa.usno.navy.mil/api/rstt/oneday?date=YYYY-MM-DD&coords=LAT,LON&tz=0
   (tried first for every place and date in API_CASES; on 2026-11-26 the build machine could not
   resolve aa.usno.navy.mil, so the fixture holds no API rows then).
2. USNO's "Rise and Set for the Sun or Moon for One Year" tables (Astronomical Applications
   Dept., https://aa.usno.navy.mil/data/RS_OneYear, minutes), as others saved them from USNO's
   pages (SOURCES below: repository, path, commit of each). Each table is kept in
   Tests/SkyTests/Fixtures/usno/ as its source holds it: the saved page (*.html: the <pre> block
   is read) or the table's text (*.txt; the first three 2019 tables with trailing blanks
   trimmed, the Skyfield ones as quoted in its script). Most are in Universal Time; a table made
   for a time zone says so ("Zone:  7h West of Greenwich": local standard time, 7 h behind UT)
   and its days and times are converted to UT here (UT = local + 7 h).

Not made here: Tests/SkyTests/Fixtures/usno/api-rstt-oneday-sun-2026-09-27.tsv holds 19 days of
USNO's API for the Sun as another project recorded them (provenance in its header); the tests read
it directly.

USNO's definition (https://aa.usno.navy.mil/faq/RST_defs): rise and set are when the upper limb
is on a level, unobstructed horizon, with 34' of refraction and the body's semidiameter (and, for
the Moon, its horizontal parallax); times are rounded to the minute. "****" marks a day the body
is above the horizon throughout, "----" below.

    python3 scripts/make-usno-fixtures.py              # asks USNO's API, then reads the tables
    python3 scripts/make-usno-fixtures.py --keep-api   # keeps the API rows (and their date) already recorded

The API's answers are observations made on the day they were asked for; `--keep-api` (what
scripts/generate.sh runs) rebuilds everything else from the kept tables and carries the recorded
API block over unchanged, so the file can be regenerated without the network.
"""
import datetime
import glob
import json
import os
import re
import sys
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


ASTRONOMY = 'cosinekitty/astronomy'  # Astronomy Engine (MIT): generate/riseset/, USNO pages saved by its author
SKYFIELD = 'skyfielders/python-skyfield'  # Skyfield (MIT): design/test_sunrise_moonrise.py quotes USNO tables
SOURCES = {  # file: (repository, path, commit, what the file holds)
    'sun_2019_E000_N60.txt': (ASTRONOMY, 'generate/riseset/sun_2019_E000_N60.html', '690a71ecf2551df0c275065d1024984426568dad', 'the <pre> block, trailing blanks trimmed'),
    'sun_2019_W150_S80.txt': (ASTRONOMY, 'generate/riseset/sun_2019_W150_S80.html', '0be574503068cdbc386efff2a6744c059630a4f6', 'the <pre> block, trailing blanks trimmed'),
    'moon_2019_W081_N29.txt': (ASTRONOMY, 'generate/riseset/moon_2019_W081_N29.html', '0be574503068cdbc386efff2a6744c059630a4f6', 'the <pre> block, trailing blanks trimmed'),
    'moon_2019_E000_N80.html': (ASTRONOMY, 'generate/riseset/moon_2019_E000_N80.html', '0be574503068cdbc386efff2a6744c059630a4f6', 'the page'),
    'moon_2019_W150_S80.html': (ASTRONOMY, 'generate/riseset/moon_2019_W150_S80.html', '0be574503068cdbc386efff2a6744c059630a4f6', 'the page'),
    'sun_2019_E000_N80.html': (ASTRONOMY, 'generate/riseset/sun_2019_E000_N80.html', '0be574503068cdbc386efff2a6744c059630a4f6', 'the page'),
    'sun_2019_W081_N29.html': (ASTRONOMY, 'generate/riseset/sun_2019_W081_N29.html', '0be574503068cdbc386efff2a6744c059630a4f6', 'the page'),
    'sun_2019_W150_S60.html': (ASTRONOMY, 'generate/riseset/sun_2019_W150_S60.html', '8c2118ed67bc586e583a9d4ced878142037a1ace', 'the page'),
    'sun_2022_E0_N90.html': (ASTRONOMY, 'generate/riseset/sun_2022_E0_N90.html', '1bc61f714e1dc4c04ba88c3227a62010c3e57393', "the table's text, after the query URL its saver noted"),
    'sun_2022_E30_N89.html': (ASTRONOMY, 'generate/riseset/sun_2022_E30_N89.html', '1bc61f714e1dc4c04ba88c3227a62010c3e57393', "the table's text, after the query URL its saver noted"),
    'sun_2022_E45_S88.html': (ASTRONOMY, 'generate/riseset/sun_2022_E45_S88.html', '351e997a2f549c178058d869756e6057106192ee', "the table's text (its label, ALMOST NORTH POLE, is the saver's; the place is 88 S)"),
    'moon_2022_E140_N85.html': (ASTRONOMY, 'generate/riseset/moon_2022_E140_N85.html', '0674d6923763e4e1a26352139941f23ddd1dc811', "the table's text"),
    'moon_2023_E140_N85.html': (ASTRONOMY, 'generate/riseset/moon_2023_E140_N85.html', '0674d6923763e4e1a26352139941f23ddd1dc811', "the table's text"),
    'moon_2026_E135_N85.html': (ASTRONOMY, 'generate/riseset/moon_2026_E135_N85.html', '351e997a2f549c178058d869756e6057106192ee', "the table's text"),
    'moon_2030_E105_N83.html': (ASTRONOMY, 'generate/riseset/moon_2030_E105_N83.html', '351e997a2f549c178058d869756e6057106192ee', "the table's text"),
    'moon_2034_E130_N80.html': (ASTRONOMY, 'generate/riseset/moon_2034_E130_N80.html', '0674d6923763e4e1a26352139941f23ddd1dc811', "the table's text"),
    'sun_2023_W112_N36.txt': (SKYFIELD, 'design/test_sunrise_moonrise.py', '27c6ceb45f21484760cbf60cb68307b7ee0e9e58', 'SUN_TABLE, as quoted there (trailing blanks trimmed); from https://aa.usno.navy.mil/calculated/rstt/year?ID=AA&year=2023&task=0&lat=36.95&lon=-112.52&label=Fredonia%2C+AZ&tz=7&tz_sign=-1'),
    'moon_2023_W112_N36.txt': (SKYFIELD, 'design/test_sunrise_moonrise.py', '27c6ceb45f21484760cbf60cb68307b7ee0e9e58', 'MOON_TABLE, as quoted there (trailing blanks trimmed); same query as SUN_TABLE'),
    'moon_2023_E000_N70.txt': (SKYFIELD, 'design/test_sunrise_moonrise.py', '27c6ceb45f21484760cbf60cb68307b7ee0e9e58', 'MOON_TABLE_2, as quoted there (trailing blanks trimmed)'),
}


def parse_table(path):
    text = open(path).read()
    pre = re.search(r'<pre>\n(.*)</pre>', text, re.S)
    lines = (pre.group(1) if pre else text).split('\n')
    # USNO's header: the office's lines, the place, and the time the table is in.
    assert any('Astronomical Applications Dept.' in l for l in lines) and any('U. S. Naval Observatory' in l for l in lines), path
    assert any('Washington, DC  20392-5420' in l for l in lines), path
    zone = [re.search(r'Zone:\s+(\d+(?:\.\d+)?)h (West|East) of Greenwich', l) for l in lines]
    zone = [z for z in zone if z]
    if zone:
        offset = float(zone[0].group(1)) * (1 if zone[0].group(2) == 'West' else -1)  # UT = local + offset
        time_zone = zone[0].group(0)
    else:
        assert any(l.strip() == 'Universal Time' for l in lines), path
        offset, time_zone = 0.0, 'Universal Time'
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
                    local = datetime.datetime(year, month, day, int(cell[:2]), int(cell[2:]))
                    utc = local + datetime.timedelta(hours=offset)
                    event = {'kind': kind, 'utc': utc.strftime('%Y-%m-%dT%H:%M:00Z')}
                    if offset:  # the table's own (local) day and time
                        event['table'] = '%s %s' % (date, cell)
                    events.append(event)
                elif cell == '****' and kind == 'rise':
                    always_up.append(date)
                elif cell == '----' and kind == 'rise':
                    always_down.append(date)
                else:
                    assert cell in ('', '****', '----'), (path, line)
    events.sort(key=lambda e: e['utc'])
    name = os.path.basename(path)
    repository, source_path, commit, holds = SOURCES[name]
    return {'file': os.path.relpath(path, FIXTURES), 'body': body, 'year': year, 'lat': lat, 'lon': lon,
            'timeZone': time_zone, 'utcOffsetHours': offset,
            'source': {'repository': repository, 'path': source_path, 'commit': commit, 'holds': holds},
            'events': events, 'alwaysUp': always_up, 'alwaysDown': always_down}


OUT = os.path.join(FIXTURES, 'usno-rise-set.json')
if '--keep-api' in sys.argv[1:]:
    with open(OUT) as f:
        recorded = json.load(f)
    api_rows, api_error = recorded['api']['rows'], recorded['api']['error']
    fetched = recorded['madeBy']['fetched']
else:
    api_rows, api_error = from_api()
    fetched = datetime.date.today().isoformat()
tables = [parse_table(p) for p in sorted(glob.glob(os.path.join(FIXTURES, 'usno', '*.txt')) + glob.glob(os.path.join(FIXTURES, 'usno', '*.html')))]
assert sorted(os.path.basename(t['file']) for t in tables) == sorted(SOURCES), 'a table without its source, or a source without its table'
payload = {
    'madeBy': {'script': 'scripts/make-usno-fixtures.py', 'fetched': fetched},
    'definition': 'USNO: upper limb on a level horizon, 34 arcmin refraction, semidiameter and (Moon) parallax; '
                  'UT rounded to the minute (https://aa.usno.navy.mil/faq/RST_defs)',
    'api': {'url': API, 'rows': api_rows, 'error': api_error},
    'tables': tables,
    'tableSource': 'USNO Astronomical Applications Dept., Rise and Set for the Sun or Moon for One Year '
                   '(https://aa.usno.navy.mil/data/RS_OneYear), as saved in the repositories each table names (source); '
                   'times in UT (tables made for a time zone converted: utcOffsetHours; then "table" keeps the local day and time)',
}
text = json.dumps(payload, indent=1)
# One event, and one list of days, a line: the file stays readable at 6,000 events.
text = re.sub(r'\{\n\s*("kind": "[^"]*"),\n\s*("utc": "[^"]*")(?:,\n\s*("table": "[^"]*"))?\n\s*\}',
              lambda m: '{' + ', '.join(g for g in m.groups() if g) + '}', text)
text = re.sub(r'\[\n((?:\s*"\d{4}-\d\d-\d\d",?\n)+)\s*\]', lambda m: '[' + ', '.join(d.strip().rstrip(',') for d in m.group(1).split('\n') if d.strip()) + ']', text)
with open(OUT, 'w') as f:
    f.write(text + '\n')
assert json.load(open(os.path.join(FIXTURES, 'usno-rise-set.json'))) == json.loads(json.dumps(payload))
print('%d API rows (%s); %s' % (len(api_rows), api_error or 'ok', ', '.join('%s %s %d events' % (t['file'], t['body'], len(t['events'])) for t in tables)))
