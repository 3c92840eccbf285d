#!/usr/bin/env python3
"""Writes an MPCORB.DAT-format file of N lines (default 1,000,000) for `solarsystem bench
smallbodies --mpcorb FILE`: the four real lines of Tests/SmallBodiesTests/Fixtures/
mpc-MPCORB.excerpt.DAT (Ceres, Pallas, Juno, Vesta, as the MPC publishes them) repeated with new
packed designations (numbers 1 ... 619,999 as the MPC packs them, then provisional designations)
and the mean anomaly moved a little per line, under the MPC's own 40-line header, so every line
is a distinct, valid record the size of the real file's.

    python3 scripts/make-mpcorb-million.py --lines 1000000 --out /tmp/MPCORB-1M.DAT
"""
import argparse
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "Tests", "SmallBodiesTests", "Fixtures", "mpc-MPCORB.excerpt.DAT")
DIGITS62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def packed_number(n):
    """The MPC's packed permanent designation (5 characters) for numbers below 620,000."""
    if n < 100000:
        return "%05d" % n
    return DIGITS62[n // 10000] + "%04d" % (n % 10000)


def packed_provisional(k):
    """A distinct packed provisional designation: K + year 00-99, half-month A-Y (no I),
    second letter A-Z (no I), cycle 0-619."""
    halves = "ABCDEFGHJKLMNOPQRSTUVWXY"
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    cycle = k % 620
    k //= 620
    second = letters[k % 25]
    k //= 25
    half = halves[k % 24]
    year = (k // 24) % 100
    return "K%02d%s%s%d%s" % (year, half, DIGITS62[cycle // 10], cycle % 10, second)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, default=1000000)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    real = [line for line in open(SOURCE).read().splitlines() if line.strip()]
    with open(args.out, "w") as out:
        out.write("MINOR PLANET CENTER ORBIT DATABASE (MPCORB)\n\n" + "\n" * 37)
        out.write("Des'n     H     G   Epoch     M        Peri.      Node       Incl.       e            n           a        Reference #Obs #Opp    Arc    rms  Perts   Computer\n")
        out.write("-" * 202 + "\n")
        for i in range(args.lines):
            line = real[i % len(real)]
            n = i + 1
            des = packed_number(n).ljust(7) if n < 620000 else packed_provisional(n - 620000)
            m = (float(line[26:35]) + (i * 0.000173) % 360.0) % 360.0
            readable = ("(%d)" % n if n < 620000 else "").ljust(28)
            out.write(des + line[7:26] + "%9.5f" % m + line[35:166] + readable + line[194:] + "\n")
    print("wrote", args.out, args.lines, "lines")


if __name__ == "__main__":
    main()
