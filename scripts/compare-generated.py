#!/usr/bin/env python3
"""compare-generated.py: does a regenerated fixture say what the committed one says?

    scripts/compare-generated.py [--rev REV] [--relative R] [--floor F] FILE...

For each FILE (a path in the work tree) the committed version (`git show REV:FILE`, REV default
HEAD) is compared with the file as it is now:

- byte-identical: the same;
- JSON: the same structure, strings and integers; every floating-point number within R of the
  committed one, relative to its size, or to F where F is larger (absolute below 1e-300); a
  "sha256" field may differ (it fingerprints a binary fixture, compared on its own);
- an SPK/DAF kernel (`.bsp`): the same length, and read as little-endian doubles every 8-byte
  word either identical or both finite numbers within R (comment text and integer words are
  left identical by any honest difference);
- anything else: must be byte-identical.

Why: the fixtures come from reference implementations (numpy, scipy, CSPICE through spiceypy,
skyfield, sgp4) whose transcendental functions take different SIMD paths on different CPUs
(numpy dispatches on AVX2, AVX-512): the same pinned versions on two machines agree to the last
few units in the last place, not bit for bit. What the check must catch is a changed input, a
changed script or a changed package, which moves numbers by far more than R (default 1e-9).
F (default 0) is the size below which a number is held to R·F, not R of itself: a component of
a vector passing near zero (the small bodies' z of 2,083 km on a position of 8·10⁸ km) carries
the vector's rounding, not its own.

Prints, per file, identical / within R (the largest relative difference) / DIFFERENT (why, the
first place); exits 1 if any file is different, 0 otherwise.
"""
import argparse
import json
import math
import struct
import subprocess
import sys


def committed(rev, path):
    try:
        return subprocess.run(["git", "show", f"{rev}:{path}"], check=True, capture_output=True).stdout
    except subprocess.CalledProcessError:
        return None


class Different(Exception):
    pass


FLOOR = 0.0


def relative(a, b):
    scale = max(abs(a), abs(b), FLOOR)
    return 0.0 if a == b else abs(a - b) / scale if scale > 1e-300 else abs(a - b)


def compare_json(old, new, where, tolerance, worst):
    if isinstance(old, dict) and isinstance(new, dict):
        if list(old.keys()) != list(new.keys()):
            raise Different(f"{where}: keys {sorted(set(old) ^ set(new))} differ")
        for key in old:
            if key == "sha256":
                continue
            compare_json(old[key], new[key], f"{where}.{key}", tolerance, worst)
    elif isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            raise Different(f"{where}: {len(old)} items committed, {len(new)} now")
        for i, (a, b) in enumerate(zip(old, new)):
            compare_json(a, b, f"{where}[{i}]", tolerance, worst)
    elif isinstance(old, float) or isinstance(new, float):
        if isinstance(old, bool) or isinstance(new, bool) or not isinstance(old, (int, float)) or not isinstance(new, (int, float)):
            raise Different(f"{where}: {old!r} committed, {new!r} now")
        if math.isnan(old) and math.isnan(new):
            return
        r = relative(float(old), float(new))
        if not r <= tolerance:
            raise Different(f"{where}: {old!r} committed, {new!r} now (relative {r:.1e})")
        worst[0] = max(worst[0], r)
    elif old != new or type(old) is not type(new):
        raise Different(f"{where}: {old!r} committed, {new!r} now")


def compare_doubles(old, new, tolerance, worst):
    if len(old) != len(new):
        raise Different(f"{len(old)} bytes committed, {len(new)} now")
    if len(old) % 8:
        raise Different("not a whole number of 8-byte words")
    for i in range(0, len(old), 8):
        a, b = old[i:i + 8], new[i:i + 8]
        if a == b:
            continue
        x, y = struct.unpack("<d", a)[0], struct.unpack("<d", b)[0]
        if not (math.isfinite(x) and math.isfinite(y)):
            raise Different(f"byte {i}: not numbers that differ")
        r = relative(x, y)
        if not r <= tolerance:
            raise Different(f"byte {i}: {x!r} committed, {y!r} now (relative {r:.1e})")
        worst[0] = max(worst[0], r)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--relative", type=float, default=1e-9)
    parser.add_argument("--floor", type=float, default=0.0)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    global FLOOR
    FLOOR = args.floor
    different = 0
    for path in args.files:
        old = committed(args.rev, path)
        try:
            with open(path, "rb") as f:
                new = f.read()
        except FileNotFoundError:
            new = None
        try:
            if old is None or new is None:
                raise Different("added" if old is None else "removed")
            if old == new:
                print(f"{path}: identical")
                continue
            worst = [0.0]
            if path.endswith(".json"):
                compare_json(json.loads(old), json.loads(new), "$", args.relative, worst)
            elif path.endswith(".bsp"):
                compare_doubles(old, new, args.relative, worst)
            else:
                raise Different("differs, and only JSON and kernels are compared by value")
            floor = f" (of {args.floor:g} for smaller numbers)" if args.floor else ""
            print(f"{path}: within {args.relative:g}{floor} (largest relative difference {worst[0]:.1e})")
        except Different as e:
            different += 1
            print(f"{path}: DIFFERENT: {e}")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
