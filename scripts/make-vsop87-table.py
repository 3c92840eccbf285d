#!/usr/bin/env python3
"""Writes Sources/Ephemeris/VSOP87+Terms.swift: the truncated VSOP87A series the server's
`VSOP87` evaluates (heliocentric rectangular X, Y, Z, ecliptic and equinox J2000, au).

The coefficients are data: P. Bretagnon & G. Francou, "Planetary theories in rectangular and
spherical variables: VSOP87 solutions", A&A 202, 309 (1988), as distributed by the CDS
(catalogue VI/81, files VSOP87A.mer ... VSOP87A.nep; VSOP87A.emb is the Earth-Moon barycentre).
The script downloads those files once into a cache (default .build/downloads/vsop87a/, which git
ignores), or reads them from --source, and keeps the terms VSOP87.swift documents:

- a term is kept when its amplitude A >= eps * a, a the planet's semi-major axis and eps the
  per-planet factor in PLANETS below;
- and, except in the t^0 X and Y series of Mercury, Venus and the Earth-Moon barycentre, only
  when A >= 1e-5 au as well (the table was first cut from a transcription that stops there; the
  three exceptions take the smaller terms because those planets otherwise miss 8-22" against
  DE440).

Within a series the kept terms go by decreasing amplitude (a stable sort: the CDS files are only
roughly in that order, e.g. Venus's X t^0 has 4.76e-6 before 5.59e-6, and the table has always
been sorted); series go X, Y, Z and by power of t. A, B and C are written with the file's own
digits (11 decimals), so nothing is rounded twice.

    python3 scripts/make-vsop87-table.py --output Sources/Ephemeris/VSOP87+Terms.swift
    python3 scripts/make-vsop87-table.py --source DIR --output ...   # VSOP87A.* already on disk
"""
import argparse
import os
import re
import sys
import urllib.request

BASE_URL = 'https://cdsarc.cds.unistra.fr/ftp/VI/81/'

# (name in the Swift source, file suffix, eps, a in au, small terms in t^0 X and Y), in
# VSOP87.Planet order.
PLANETS = [
    ('mercury', 'mer', 1e-5, 0.387, True),
    ('venus', 'ven', 5e-6, 0.723, True),
    ('earthMoonBarycentre', 'emb', 5e-6, 1.0, True),
    ('mars', 'mar', 1e-5, 1.524, False),
    ('jupiter', 'jup', 3e-5, 5.203, False),
    ('saturn', 'sat', 3e-5, 9.537, False),
    ('uranus', 'ura', 3e-5, 19.19, False),
    ('neptune', 'nep', 3e-5, 30.07, False),
]
FLOOR = 1e-5  # au: the floor outside the t^0 X and Y series of the three inner bodies
COORDINATES = 'XYZ'

HEADER = re.compile(r'VSOP87 VERSION A1\s+(.+?)\s+VARIABLE\s+(\d)\s+\(XYZ\)\s+\*T\*\*(\d)\s+(\d+) TERMS')


def fetch(suffix, cache, source):
    """The text of VSOP87A.<suffix>: from --source, else from the cache, else downloaded."""
    name = 'VSOP87A.' + suffix
    if source:
        with open(os.path.join(source, name), encoding='ascii') as f:
            return f.read()
    path = os.path.join(cache, name)
    if not os.path.exists(path):
        os.makedirs(cache, exist_ok=True)
        print('downloading %s%s' % (BASE_URL, name), file=sys.stderr)
        try:
            with urllib.request.urlopen(BASE_URL + name, timeout=120) as response:
                data = response.read()
        except OSError as error:
            raise SystemExit('cannot download %s%s (%s): fetch VSOP87A.* by hand and pass --source DIR'
                             % (BASE_URL, name, error))
        with open(path + '.part', 'wb') as f:
            f.write(data)
        os.replace(path + '.part', path)
    with open(path, encoding='ascii') as f:
        return f.read()


def parse(text):
    """{(coordinate 0..2, power): [(A, B, C) as the file's strings]} in file order.

    Term lines carry A, B and C as their last three fields (columns 80-97, 98-111 and 112-131 of
    the CDS ReadMe); the header before each series gives its variable, power and term count,
    which is checked.
    """
    series = {}
    key, expected = None, 0
    for line in text.splitlines():
        header = HEADER.search(line)
        if header:
            if key is not None and len(series[key]) != expected:
                raise SystemExit('series %s: %d terms, header says %d' % (key, len(series[key]), expected))
            key = (int(header.group(2)) - 1, int(header.group(3)))
            expected = int(header.group(4))
            series[key] = []
        elif line.strip():
            if key is None:
                raise SystemExit('a term line before any header: %r' % line)
            a, b, c = line.split()[-3:]
            series[key].append((a, b, c))
    if key is not None and len(series[key]) != expected:
        raise SystemExit('series %s: %d terms, header says %d' % (key, len(series[key]), expected))
    return series


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument('--cache', default=os.path.join(root, '.build', 'downloads', 'vsop87a'),
                        help='where downloaded files are kept (default: %(default)s)')
    parser.add_argument('--source', help='read VSOP87A.* from this directory instead (no download)')
    parser.add_argument('--output', help='write the Swift file here (default: standard output); '
                        'written only once every file has been read')
    args = parser.parse_args()

    out = []
    w = out.append
    w('// Generated by scripts/make-vsop87-table.py from VSOP87A (Bretagnon & Francou 1988; CDS VI/81): do not edit.')
    w('// See VSOP87.swift for the sources and the cut.')
    w('')
    w('extension VSOP87 {')
    w('    /// Per planet, in ``Planet`` order: the kept terms as a flat list of (A au, B rad, C rad per')
    w('    /// millennium) triples, and the series they form as (coordinate 0/1/2 = X/Y/Z, power α of t,')
    w('    /// number of terms) triples in storage order. Each term is t^α · A cos(B + C t).')
    w('    static let tables: [Table] = [')
    total = 0
    for name, suffix, eps, a, small in PLANETS:
        cut = eps * a
        series = parse(fetch(suffix, args.cache, args.source))
        kept = []
        for key in sorted(series):
            coordinate, power = key
            floor = cut if small and power == 0 and coordinate < 2 else max(cut, FLOOR)
            terms = sorted((t for t in series[key] if float(t[0]) >= floor), key=lambda t: -float(t[0]))
            if terms:
                kept.append((coordinate, power, terms))
        count = sum(len(t) for _, _, t in kept)
        total += count
        w('        // %s: ε = %s, a = %s au, kept A ≥ %.3g au, %d terms' % (name, eps, a, cut, count))
        w('        Table(')
        w('            series: [%s],' % ', '.join('%d, %d, %d' % (c, p, len(t)) for c, p, t in kept))
        w('            terms: [')
        for coordinate, power, terms in kept:
            w('                // %s t^%d' % (COORDINATES[coordinate], power))
            for term in terms:
                w('                %s,' % ', '.join(term))
        w('            ]')
        w('        ),')
    w('    ]')
    w('}')
    text = '\n'.join(out) + '\n'
    if args.output:
        with open(args.output, 'w', encoding='utf-8') as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    print('%d terms in all' % total, file=sys.stderr)


if __name__ == '__main__':
    main()
