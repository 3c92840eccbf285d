"""ΔT measured by the IERS from 1962: the EOP 20 C04 series (`eopc04.1962-now`, daily at 0h UTC, as
astropy-iers-data carries it) with TAI − UTC of the time from ERFA's `dat` (pyerfa; before 1972
the offsets and their drift). Shared by make-iers-table.py (the engine's table) and
make-sky-fixtures.py (its test values), so both read the same numbers. Test/script time only.
"""
import os

import astropy_iers_data
import erfa

PATH = os.path.join(os.path.dirname(astropy_iers_data.__file__), 'data', 'eopc04.1962-now')


def delta_t_by_mjd(until_mjd):
    """{MJD (UTC, 0h): ΔT = 32.184 + (TAI − UTC) − (UT1 − UTC), seconds} from the series' first day
    (1962-01-01) through `until_mjd`."""
    out = {}
    for line in open(PATH):
        if line.startswith('#') or not line.strip():
            continue
        f = line.split()
        mjd = float(f[4])
        if mjd > until_mjd:
            break
        out[mjd] = 32.184 + erfa.dat(int(f[0]), int(f[1]), int(f[2]), 0.0) - float(f[7])
    return out
