#!/usr/bin/env python3
"""Writes Resources/iers-delta-t.csv: ΔT = TT − UT1 every 5 days from the IERS's finals2000A
(Bulletin A: observed, then predicted) and the leap seconds of Leap_Second.dat, both as carried by
the PyPI package astropy-iers-data. Re-run after `pip install -U astropy-iers-data`:

    python3 scripts/make-iers-table.py > Resources/iers-delta-t.csv

ΔT is smooth where UT1 − UTC jumps at every leap second, so it is what the server interpolates
(4-point Lagrange; within 1 ms of the daily values, checked by Tests/SkyTests). UT1 − UTC follows
from ΔT and the leap seconds the server already knows.
"""
import importlib.metadata
import os

import astropy_iers_data

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
    if len(line) < 68 or not line[58:68].strip():
        continue
    mjd = float(line[7:15])
    flag = line[57]
    ut1_utc = float(line[58:68])
    if flag == 'P' and predicted_from is None:
        predicted_from = mjd
    rows.append((mjd, ut1_utc))

first = rows[0][0]
print('# TT - UT1 (seconds) every %d days: IERS finals2000A (Bulletin A) UT1-UTC and Leap_Second.dat,'
      % STEP_DAYS)
print('# from astropy-iers-data %s; made by scripts/make-iers-table.py.'
      % importlib.metadata.version('astropy-iers-data'))
print('# predicted-from-mjd: %d' % predicted_from)
print('mjd,delta_t_s')
for mjd, ut1_utc in rows:
    if (mjd - first) % STEP_DAYS != 0:
        continue
    delta_t = 32.184 + tai_minus_utc(mjd) - ut1_utc
    print('%d,%.5f' % (mjd, delta_t))
