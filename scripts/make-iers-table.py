#!/usr/bin/env python3
"""Writes the server's Earth-rotation tables:

  Resources/iers-delta-t.csv   ΔT = TT − UT1 and the pole's coordinates x_p, y_p every 5 days from
                               the IERS's finals2000A (Bulletin A: observed, then predicted) and the
                               leap seconds of Leap_Second.dat, both as carried by the PyPI package
                               astropy-iers-data
  Sources/Ephemeris/TimeScale+DeltaTSplines.swift
                               ΔT before that table, for the engine's TimeScale:
                               - 1962 to the first finals2000A row (1973-01-02): measured, every 5
                                 days from the IERS EOP 20 C04 series (eopc04.1962-now, 0h UTC, also
                                 in astropy-iers-data): ΔT = 32.184 + (TAI − UTC) − (UT1 − UTC), with
                                 TAI − UTC of the time (before 1972 the rubber-second offsets with
                                 their drift) from ERFA's dat (pyerfa);
                               - before 1962: the cubic splines of Stephenson, Morrison & Hohenkerk
                                 (2016) with their 2020 addendum (Morrison, Stephenson, Hohenkerk &
                                 Zawilski 2021, "Table S15.2020"), as Skyfield ships them
                                 (data/delta_t.npz), joined to the first measured value the way
                                 Skyfield joins them to its IERS values: the table cut there and the
                                 linear term of its last spline moved so the two meet; before 720 BC
                                 an 800-year cubic bridge to the long-term parabola
                                 −320 + 32.5 ((y − 1825)/100)².

Test/script time only (the server depends on none of these packages). Re-run after
`pip install -U astropy-iers-data skyfield pyerfa`:

    python3 scripts/make-iers-table.py

ΔT is smooth where UT1 − UTC jumps at every leap second, so it is what the server interpolates
(4-point Lagrange; within 1 ms of the daily values, checked by Tests/SkyTests). UT1 − UTC follows
from ΔT and the leap seconds the server already knows. x_p and y_p (arcseconds) are Bulletin A's
polar motion, the same rows.
"""
import importlib.metadata
import os

import astropy_iers_data
import numpy as np

import iers_c04
from skyfield.functions import load_bundled_npy

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
STEP_DAYS = 5
data = os.path.join(os.path.dirname(astropy_iers_data.__file__), 'data')

leaps = []  # (mjd, TAI−UTC)
for line in open(os.path.join(data, 'Leap_Second.dat')):
    if line.startswith('#') or not line.strip():
        continue
    f = line.split()
    leaps.append((float(f[0]), float(f[4])))


def tai_minus_utc(mjd):
    value = None
    for start, seconds in leaps:
        if start <= mjd:
            value = seconds
    return value


rows = []
predicted_from = None
for line in open(os.path.join(data, 'finals2000A.all')):
    if len(line) < 68 or not line[58:68].strip() or not line[18:27].strip():
        continue
    mjd = float(line[7:15])
    flag = line[57]
    ut1_utc = float(line[58:68])
    x_p, y_p = float(line[18:27]), float(line[37:46])
    if flag == 'P' and predicted_from is None:
        predicted_from = mjd
    rows.append((mjd, ut1_utc, x_p, y_p))

first = rows[0][0]
iers_version = importlib.metadata.version('astropy-iers-data')
with open(os.path.join(ROOT, 'Resources', 'iers-delta-t.csv'), 'w') as out:
    out.write('# TT - UT1 (seconds) and the pole x_p, y_p (arcseconds) every %d days: IERS finals2000A (Bulletin A)\n'
              % STEP_DAYS)
    out.write('# UT1-UTC and polar motion, and Leap_Second.dat, from astropy-iers-data %s; made by\n' % iers_version)
    out.write('# scripts/make-iers-table.py. Before the first row: Sources/Ephemeris/TimeScale+DeltaTSplines.swift.\n')
    out.write('# predicted-from-mjd: %d\n' % predicted_from)
    out.write('mjd,delta_t_s,x_p_arcsec,y_p_arcsec\n')
    for mjd, ut1_utc, x_p, y_p in rows:
        if (mjd - first) % STEP_DAYS != 0:
            continue
        delta_t = 32.184 + tai_minus_utc(mjd) - ut1_utc
        out.write('%d,%.5f,%.6f,%.6f\n' % (mjd, delta_t, x_p, y_p))

# ΔT measured from 1962 to the finals table: EOP 20 C04 (daily, 0h UTC), every STEP_DAYS days from
# its first row up to the first sample at or past the finals table's start, so the engine's
# interpolation reaches the Sky module's table without a gap.
c04 = iers_c04.delta_t_by_mjd(until_mjd=first + STEP_DAYS)
measured_first = min(c04)
measured = []
mjd = measured_first
while True:
    measured.append(c04[mjd])
    if mjd >= first:
        break
    mjd += STEP_DAYS

# ΔT before that: Table S15.2020, cut and joined as Skyfield's timelib.build_delta_t does.
first_mjd = measured_first
first_delta_t = measured[0]
first_tt = first_mjd + 2400000.5 + first_delta_t / 86400.0  # UT1 ≈ UTC here: 0.03 s, 1e-9 year
join_year = (first_tt - 1721045.0) / 365.25  # Julian year (TT), Skyfield's x axis
s15 = np.array(load_bundled_npy('delta_t.npz')['Table-S15.2020.txt'], dtype=float)


def spline(table, x):
    i = max(0, min(int(np.searchsorted(table[0], x, side='right')) - 1, table.shape[1] - 1))
    x0, x1, a3, a2, a1, a0 = table[:, i]
    t = (x - x0) / (x1 - x0)
    return ((a3 * t + a2) * t + a1) * t + a0


def derivative(table, x):
    i = max(0, min(int(np.searchsorted(table[0], x, side='right')) - 1, table.shape[1] - 1))
    x0, x1, a3, a2, a1, a0 = table[:, i]
    t = (x - x0) / (x1 - x0)
    return ((3 * a3 * t + 2 * a2) * t + a1) / (x1 - x0)


def parabola(x):
    u = (x - 1825.0) / 100.0
    return -320.0 + 32.5 * u * u


def parabola_slope(x):
    return 2 * 32.5 * (x - 1825.0) / 100.0 / 100.0


def given_ends(x0, y0, slope0, x1, y1, slope1):
    w = x1 - x0
    slope0, slope1 = slope0 * w, slope1 * w
    return [x0, x1, slope0 + slope1 + 2 * y0 - 2 * y1, -2 * slope0 - slope1 - 3 * y0 + 3 * y1, slope0, y0]


left_x1 = s15[0, 0]
left_x0 = left_x1 - 800.0
bridge = given_ends(left_x0, parabola(left_x0), parabola_slope(left_x0), left_x1, spline(s15, left_x1), derivative(s15, left_x1))
i = int(np.searchsorted(s15[0], join_year))
# The C04 series starts on 1962-01-01, a day past the knot at 1962.0: moving the linear term of
# the spline that starts there by Δ / t with t ≈ 0.0005 would bend it by hundreds of seconds, so
# when the join falls in the first 5 % of a spline, the previous one is extended to meet it.
if (join_year - s15[0, i - 1]) / (s15[1, i - 1] - s15[0, i - 1]) < 0.05:
    i -= 1
cut = s15[:, :i].copy()
x0, x1, a3, a2, a1, a0 = cut[:, -1]
t = (join_year - x0) / (x1 - x0)
cut[4, -1] = a1 + (first_delta_t - spline(cut, join_year)) / t

swift = os.path.join(ROOT, 'Sources', 'Ephemeris', 'TimeScale+DeltaTSplines.swift')
with open(swift, 'w') as out:
    out.write('// Generated by scripts/make-iers-table.py from skyfield %s (data/delta_t.npz, Table S15.2020) and\n'
              % importlib.metadata.version('skyfield'))
    out.write('// astropy-iers-data %s (EOP 20 C04 from MJD %d, up to the first finals2000A row) and pyerfa %s\n'
              % (iers_version, first_mjd, importlib.metadata.version('pyerfa')))
    out.write('// (TAI − UTC of the time): do not edit.\n')
    out.write('// Stephenson, Morrison & Hohenkerk 2016 (Proc. R. Soc. A 472: 20160404) with the 2020 addendum\n')
    out.write('// (Morrison, Stephenson, Hohenkerk & Zawilski 2021, Proc. R. Soc. A 477: 20200776).\n\n')
    out.write('extension TimeScale {\n')
    out.write('    /// ΔT splines over Julian years (TT): (from, to, a3, a2, a1, a0), ΔT = ((a3 t + a2) t + a1) t + a0 seconds\n')
    out.write('    /// with t = (year − from) / (to − from). The first is the bridge from the long-term parabola; the\n')
    out.write('    /// last has its linear term moved to meet the measured values at ``deltaTSplinesEndYear``.\n')
    out.write('    static let deltaTSplines: [(from: Double, to: Double, a3: Double, a2: Double, a1: Double, a0: Double)] = [\n')
    for row in [bridge] + [list(cut[:, k]) for k in range(cut.shape[1])]:
        out.write('        (%s),\n' % ', '.join(repr(float(v)) for v in row))
    out.write('    ]\n\n')
    out.write('    /// Where the splines meet the measured values (Julian year, TT) and the ΔT there, seconds.\n')
    out.write('    static let deltaTSplinesEndYear = %r\n' % float(join_year))
    out.write('    static let deltaTAtSplinesEnd = %r\n' % float(first_delta_t))
    out.write('\n    /// ΔT measured (IERS EOP 20 C04), seconds, every ``deltaTMeasured``.stepDays days from\n')
    out.write('    /// MJD %d (UTC, 0h) to MJD %d, the first sample at or past the finals2000A table.\n'
              % (measured_first, measured_first + STEP_DAYS * (len(measured) - 1)))
    out.write('    static let deltaTMeasured = EvenlySampled(first: %d, step: %d, values: [\n' % (measured_first, STEP_DAYS))
    for k in range(0, len(measured), 8):
        out.write('        %s,\n' % ', '.join('%.5f' % v for v in measured[k:k + 8]))
    out.write('    ])\n')
    out.write('}\n')
