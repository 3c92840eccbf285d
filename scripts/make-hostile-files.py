#!/usr/bin/env python3
"""Writes the files a careless operator or a hostile one could hand the server (issue 34), for
trying them against a running `solarsystem serve` by hand and as fuzzer seeds. The tests build
the same shapes in code (ElementSetHostileTests, SPKDataCheckTests, KernelReplacementTests).

    python3 scripts/make-hostile-files.py OUT_DIR

Writes into OUT_DIR:
  sets-100k.tle                100,000 distinct 3-line TLE sets (2,4 MB x 6): --tle at the set limit
  omm-32mib.json               CelesTrak-shaped OMM JSON up to the 32 MiB limit (~81,000 sets)
  omm-one-segment.xml          32 MiB of OMM XML: one <segment> of a million children and unclosed
                               tags (what made a searching parser quadratic: 93 s a MiB)
  omm-bad-epochs.json          epochs 9999-12-31, 2026-02-30, 0000-01-01; a 100,000-byte OBJECT_NAME
  de440-radius0.bsp            the bundled DE440 excerpt with a middle Chebyshev record's radius 0
  de440-nan-midpoint.bsp       … with a middle record's midpoint NaN
  de440-inf-coefficient.bsp    … with one coefficient of a middle record infinite
Then, for example:
  solarsystem serve --tle OUT_DIR/sets-100k.tle            # start-up and reload memory (VmHWM)
  solarsystem serve --ephemeris OUT_DIR/de440-radius0.bsp  # refused naming segment and record
  mkfifo OUT_DIR/fifo && solarsystem serve --kernel OUT_DIR/fifo   # refused: a FIFO
"""
import argparse
import math
import os
import struct
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
LIMIT = 32 << 20


def checksum(line):
    return sum(int(c) if c.isdigit() else (1 if c == "-" else 0) for c in line[:68]) % 10


def alpha5(n):
    if n < 100_000:
        return "%05d" % n
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    return letters[n // 10_000 - 10] + "%04d" % (n % 10_000)


def tle_sets(count):
    out = []
    for i in range(count):
        norad = alpha5(i + 1)
        l1 = "1 %sU 98067A   26267.14191496  .00009634  00000+0  18116-3 0  999" % norad
        l2 = "2 %s  51.6318 170.3464 0004691 174.6338 %08.4f 15.49258637587098" % (norad, (i % 3600) / 10)
        l1 = l1[:68] + str(checksum(l1))
        l2 = l2[:68] + str(checksum(l2))
        out.append("SAT %d\n%s\n%s\n" % (i + 1, l1, l2))
    return "".join(out)


def omm_json():
    parts, size, i = [], 2, 0
    while True:
        rec = ('{"OBJECT_NAME":"SAT %d","OBJECT_ID":"1998-067A","EPOCH":"2026-09-24T03:24:21.452544","MEAN_MOTION":15.49258637,'
               '"ECCENTRICITY":0.0004691,"INCLINATION":51.6318,"RA_OF_ASC_NODE":170.3464,"ARG_OF_PERICENTER":174.6338,'
               '"MEAN_ANOMALY":%.1f,"EPHEMERIS_TYPE":0,"CLASSIFICATION_TYPE":"U","NORAD_CAT_ID":%d,"ELEMENT_SET_NO":999,'
               '"REV_AT_EPOCH":58709,"BSTAR":0.00018116,"MEAN_MOTION_DOT":9.634e-5,"MEAN_MOTION_DDOT":0}') % (i + 1, (i % 3600) / 10, i + 1)
        if size + len(rec) + 2 > LIMIT or i >= 100_000:
            break
        parts.append(rec)
        size += len(rec) + 2
        i += 1
    return "[" + ",\n".join(parts) + "]\n"


def omm_one_segment():
    unit = "<MEAN_MOTION>1</MEAN_MOTION><open>"
    head, tail = "<ndm><segment>", "</segment></ndm>\n"
    n = (LIMIT - len(head) - len(tail)) // len(unit)
    return head + unit * n + tail


def omm_bad_epochs():
    base = ('"MEAN_MOTION":15.49,"ECCENTRICITY":0.0004,"INCLINATION":51.6,"RA_OF_ASC_NODE":170.3,'
            '"ARG_OF_PERICENTER":174.6,"MEAN_ANOMALY":185.4,"BSTAR":0.0001')
    recs = ['{"OBJECT_NAME":"FAR","NORAD_CAT_ID":1,"EPOCH":"9999-12-31T23:59:59",%s}' % base,
            '{"OBJECT_NAME":"FEB30","NORAD_CAT_ID":2,"EPOCH":"2026-02-30T00:00:00",%s}' % base,
            '{"OBJECT_NAME":"YEAR0","NORAD_CAT_ID":3,"EPOCH":"0000-01-01T00:00:00",%s}' % base,
            '{"OBJECT_NAME":"%s","NORAD_CAT_ID":4,"EPOCH":"2026-01-01T00:00:00",%s}' % ("N" * 100_000, base)]
    return "[" + ",\n".join(recs) + "]\n"


def damaged_kernel(kind):
    """The bundled DE440 excerpt with one middle record of its first segment damaged."""
    data = bytearray(open(os.path.join(ROOT, "Resources", "de440-1900-2100.bsp"), "rb").read())
    fward = struct.unpack_from("<i", data, 76)[0]
    nd, ni = struct.unpack_from("<ii", data, 8)
    summary = (fward - 1) * 1024 + 24
    ints = struct.unpack_from("<%di" % ni, data, summary + nd * 8)
    first, last = ints[4], ints[5]
    init, intlen, rsize, n = struct.unpack_from("<4d", data, (last - 4) * 8)
    record = first - 1 + (int(n) // 2) * int(rsize)       # word index (0-based) of a middle record
    if kind == "radius0":
        struct.pack_into("<d", data, (record + 1) * 8, 0.0)
    elif kind == "nan-midpoint":
        struct.pack_into("<d", data, record * 8, math.nan)
    else:
        struct.pack_into("<d", data, (record + 5) * 8, math.inf)
    return bytes(data)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", help="directory to write the files into")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    files = {
        "sets-100k.tle": lambda: tle_sets(100_000).encode(),
        "omm-32mib.json": lambda: omm_json().encode(),
        "omm-one-segment.xml": lambda: omm_one_segment().encode(),
        "omm-bad-epochs.json": lambda: omm_bad_epochs().encode(),
        "de440-radius0.bsp": lambda: damaged_kernel("radius0"),
        "de440-nan-midpoint.bsp": lambda: damaged_kernel("nan-midpoint"),
        "de440-inf-coefficient.bsp": lambda: damaged_kernel("inf"),
    }
    for name, make in files.items():
        data = make()
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(data)
        print("wrote %s (%d bytes)" % (os.path.join(args.out, name), len(data)))


if __name__ == "__main__":
    sys.exit(main())
