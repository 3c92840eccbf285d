#!/usr/bin/env python3
"""Reference states for the SPK reader's tests, computed by NAIF's CSPICE (via spiceypy).

For every segment of every kernel in Tests/EphemerisTests/Fixtures/spk-samples/ this evaluates CSPICE's raw segment state
-- spkpvn(handle, descr, et): the segment's own frame, no light time, no frame change -- at a
few hundred epochs: both ends of the coverage, epochs exactly on records, nodes and interval
boundaries, half-way between them (where the odd-window rules break ties), and a random sample
with a fixed seed. It writes one JSON file per kernel to Tests/EphemerisTests/Fixtures/spk/
(<kernel>.json).

Before that it writes the synthetic kernels (spk-samples/synthetic-*.bsp) for the types and
window sizes no real sample has: with CSPICE's writers where CSPICE has one (spkw08, spkw09,
spkw12, spkw13, spkw18) and otherwise (types 1, 19, 21, and type 18 subtype 2) by laying the
segment out as the SPK Required Reading describes and adding it with CSPICE's DAF writer
(dafbna/dafada/dafena); CSPICE reading those back is what the fixtures record, which checks the
layout as well. The synthetic states come from a Keplerian ellipse about the Earth plus a small
periodic perturbation, so no window interpolates a polynomial exactly.

spiceypy is a test-time tool only (pip install spiceypy; these fixtures: spiceypy 8.3.0,
CSPICE N0067). Run from anywhere:

    python3 scripts/make-spk-fixtures.py [--samples-from DIR]

--samples-from copies the real kernels into spk-samples/ unchanged first. The output is
deterministic: the same kernels and spiceypy give the same bytes (scripts/generate.sh checks it),
so the files carry the versions that made them and not the day.
"""

import argparse
import ctypes
import hashlib
import json
import math
import os
import random
import shutil
import struct
import sys
import tempfile

try:
    import numpy as np
    import spiceypy as sp
    from spiceypy.utils.libspicehelper import libspice
except ImportError as error:  # --help answers without them; a run says what to install
    MISSING = error
    libspice = None
else:
    MISSING = None

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "EphemerisTests", "Fixtures")
HERE = os.path.join(FIXTURES, "spk")
SAMPLES = os.path.join(FIXTURES, "spk-samples")
SCRIPT = "scripts/make-spk-fixtures.py"

# ---------------------------------------------------------------------------------------------
# A smooth test orbit: Kepler ellipse about the Earth plus a periodic perturbation (km, s).

MU = 398600.4418
T0 = 8.0e8  # 2025-05-13, TDB seconds past J2000


def orbit(t):
    """Position, velocity and acceleration at t (TDB seconds past J2000)."""
    a, e, inc, node, peri = 12000.0, 0.25, 0.5, 0.3, 1.1
    n = math.sqrt(MU / a ** 3)
    m = 0.7 + n * (t - T0)
    big_e = m
    for _ in range(30):
        big_e -= (big_e - e * math.sin(big_e) - m) / (1 - e * math.cos(big_e))
    c, s = math.cos(big_e), math.sin(big_e)
    b = a * math.sqrt(1 - e * e)
    p_pf = np.array([a * (c - e), b * s, 0.0])
    edot = n / (1 - e * c)
    v_pf = np.array([-a * s * edot, b * c * edot, 0.0])
    cw, sw, cn, sn, ci, si = math.cos(peri), math.sin(peri), math.cos(node), math.sin(node), math.cos(inc), math.sin(inc)
    rot = np.array([
        [cn * cw - sn * sw * ci, -cn * sw - sn * cw * ci, sn * si],
        [sn * cw + cn * sw * ci, -sn * sw + cn * cw * ci, -cn * si],
        [sw * si, cw * si, ci],
    ])
    r, v = rot @ p_pf, rot @ v_pf
    acc = -MU * r / np.linalg.norm(r) ** 3
    # Perturbation: amplitudes of a few km, periods of about an hour.
    tau = t - T0
    amp = np.array([4.0, 3.0, 2.0])
    w = np.array([2 * math.pi / 3700, 2 * math.pi / 2900, 2 * math.pi / 5100])
    ph = np.array([0.0, 0.4, 1.3])
    r = r + amp * np.sin(w * tau + ph)
    v = v + amp * w * np.cos(w * tau + ph)
    acc = acc - amp * w * w * np.sin(w * tau + ph)
    return r, v, acc


def states(epochs):
    return np.array([np.concatenate(orbit(t)[:2]) for t in epochs])


def uneven(n, step, seed):
    """n strictly increasing epochs from T0, steps between 0.5 and 1.5 times `step`."""
    rng = random.Random(seed)
    out, t = [], T0
    for _ in range(n):
        out.append(t)
        t += step * (0.5 + rng.random())
    return np.array(out)


# ---------------------------------------------------------------------------------------------
# Writing segments CSPICE has no C writer for: the documented layout, added with CSPICE's own
# DAF routines (the f2c entry points of DAFANA) so the container is NAIF's.

if libspice is not None:
    libspice.dafbna_.argtypes = [ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_double), ctypes.c_char_p, ctypes.c_long]
    libspice.dafada_.argtypes = [ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_int)]
    libspice.dafena_.argtypes = []


def add_raw_segment(handle, body, center, frame, spk_type, first, last, name, data):
    descr = sp.dafps(2, 6, np.array([first, last], dtype=float), np.array([body, center, frame, spk_type, 0, 0]))[:5]
    label = name.encode("ascii")
    libspice.dafbna_(ctypes.byref(ctypes.c_int(handle)), (ctypes.c_double * 5)(*descr), label, len(label))
    values = [float(x) for x in data]
    libspice.dafada_((ctypes.c_double * len(values))(*values), ctypes.byref(ctypes.c_int(len(values))))
    libspice.dafena_()
    if sp.failed():
        raise RuntimeError(f"CSPICE refused segment {name}")


def directory(epochs, count):
    """Every 100th epoch (1-based indices 100, 200, ...), `count` of them."""
    return [epochs[100 * k - 1] for k in range(1, count + 1)]


def esa_words(subtype, window, epochs, packets):
    """A type 18 segment / type 19 mini-segment: packets, epochs, directory, control words."""
    n = len(epochs)
    return list(np.ravel(packets)) + list(epochs) + directory(list(epochs), (n - 1) // 100) + [subtype, window, n]


def esa_packets(subtype, epochs):
    out = []
    for t in epochs:
        r, v, a = orbit(t)
        out.append(np.concatenate([r, v, v, a]) if subtype == 0 else np.concatenate([r, v]))
    return np.array(out)


def type19_words(minis, boundaries, flag):
    """minis: list of mini-segment word lists; boundaries: N+1 interval boundaries."""
    data, pointers = [], []
    for words in minis:
        pointers.append(len(data) + 1)
        data += words
    pointers.append(len(data) + 1)
    n = len(minis)
    return data + list(boundaries) + directory(list(boundaries), n // 100) + pointers + [flag, n]


def mda_records(path):
    """The 71-word records and final epochs of the first (type 1) segment of `path`."""
    h = sp.dafopr(path)
    sp.dafbfs(h)
    sp.daffna()
    _, ic = sp.dafus(sp.dafgs(5), 2, 6)
    b, e = int(ic[4]), int(ic[5])
    n = int(sp.dafgda(h, e, e)[0])
    records = np.array(sp.dafgda(h, b, b + 71 * n - 1)).reshape(n, 71)
    epochs = np.array(sp.dafgda(h, b + 71 * n, b + 72 * n - 1))
    sp.dafcls(h)
    return records, epochs


def widen(record, maxdim):
    """A type 1 record as a type 21 difference line of `maxdim` terms (zeros beyond 15)."""
    pad = [0.0] * (maxdim - 15)
    tl, g, refs = record[0], list(record[1:16]), list(record[16:22])
    dt = [list(record[22 + 15 * k:37 + 15 * k]) + pad for k in range(3)]
    return [tl] + g + pad + refs + dt[0] + dt[1] + dt[2] + list(record[67:71])


def mda_words(records, epochs, maxdim=None):
    """Type 1 (maxdim None) or type 21 segment words."""
    n = len(epochs)
    body = [x for r in records for x in r]
    return body + list(epochs) + directory(list(epochs), n // 100) + ([] if maxdim is None else [maxdim]) + [n]


def repeated(records, epochs, start, copies):
    """`copies` of a type 1 segment's records back to back in time: each copy's first record
    starts where the previous copy ends (a reader test, not a trajectory)."""
    span = epochs[-1] - start
    recs, eps = [], []
    for j in range(copies):
        for r, t in zip(records, epochs):
            r = np.array(r)
            r[0] += j * span
            recs.append(r)
            eps.append(t + j * span)
    return recs, eps


def new_kernel(name):
    path = os.path.join(SAMPLES, name)
    if os.path.exists(path):
        os.remove(path)
    return path, sp.spkopn(path, name[:60], 0)


def write_synthetic():
    written = []

    # Type 8: Lagrange, equal steps; every window parity, up to degree 27.
    path, h = new_kernel("synthetic-type08.bsp")
    for k, degree in enumerate([1, 2, 3, 4, 7, 12, 27]):
        n, step = 40, 240.0
        ep = T0 + step * np.arange(n)
        first, last = (ep[0], ep[-1]) if k % 2 == 0 else (ep[3] + 17.5, ep[-5] - 3.25)
        sp.spkw08(h, -1000 - degree, 399, "J2000", first, last, f"TYPE 8 DEGREE {degree}", degree, n, states(ep), ep[0], step)
    sp.spkcls(h)
    written.append(path)

    # Type 12: Hermite, equal steps; windows 1 to 14.
    path, h = new_kernel("synthetic-type12.bsp")
    for k, degree in enumerate([1, 3, 5, 7, 15, 27]):
        n, step = 40, 300.0
        ep = T0 + step * np.arange(n)
        first, last = (ep[0], ep[-1]) if k % 2 == 0 else (ep[2] + 11.0, ep[-3] - 7.5)
        sp.spkw12(h, -1200 - degree, 399, "J2000", first, last, f"TYPE 12 DEGREE {degree}", degree, n, states(ep), ep[0], step)
    sp.spkcls(h)
    written.append(path)

    # Type 9: Lagrange, unequal steps; odd and even windows; directories of 0, 1 and 2 entries.
    path, h = new_kernel("synthetic-type09.bsp")
    for k, (degree, n) in enumerate([(1, 30), (2, 30), (3, 40), (4, 40), (7, 100), (8, 101), (27, 60), (5, 250)]):
        ep = uneven(n, 200.0, 900 + k)
        first, last = (ep[0], ep[-1]) if k % 2 == 0 else ((ep[1] + ep[2]) / 2, (ep[-3] + ep[-2]) / 2)
        sp.spkw09(h, -900 - k, 399, "J2000", first, last, f"TYPE 9 DEGREE {degree} N {n}", degree, n, states(ep), ep)
    sp.spkcls(h)
    written.append(path)

    # Type 13: Hermite, unequal steps; windows 1 to 14 (the real samples have 2 and 3).
    path, h = new_kernel("synthetic-type13.bsp")
    for k, (degree, n) in enumerate([(1, 20), (3, 30), (7, 40), (9, 200), (15, 201), (27, 50), (11, 250)]):
        ep = uneven(n, 250.0, 1300 + k)
        first, last = (ep[0], ep[-1]) if k % 2 == 0 else ((ep[0] + ep[1]) / 2, (ep[-2] + ep[-1]) / 2)
        sp.spkw13(h, -1300 - k, 399, "J2000", first, last, f"TYPE 13 DEGREE {degree} N {n}", degree, n, states(ep), ep)
    sp.spkcls(h)
    written.append(path)

    # Type 18, subtypes 0 and 1 (CSPICE's writer): windows 2 to 16, a segment shorter than its
    # window (the window shrinks everywhere), a 250-packet segment (a 2-entry directory).
    path, h = new_kernel("synthetic-type18.bsp")
    cases = [(0, 3, 40), (0, 7, 40), (0, 15, 250), (0, 15, 3), (1, 1, 40), (1, 5, 40), (1, 15, 130), (1, 15, 5)]
    for k, (subtype, degree, n) in enumerate(cases):
        ep = uneven(n, 300.0, 1800 + k)
        first, last = (ep[0], ep[-1]) if k % 2 == 0 else ((ep[0] + ep[1]) / 2, (ep[-2] + ep[-1]) / 2)
        sp.spkw18(h, subtype, -1800 - k, 399, "J2000", first, last, f"TYPE 18.{subtype} DEGREE {degree} N {n}", degree, esa_packets(subtype, ep), ep)
    sp.spkcls(h)
    written.append(path)

    # Type 18 subtype 2 exists in no NAIF toolkit (N0067's SPKR18 refuses it). The reader takes
    # it as a type 19 reads a subtype 2 mini-segment; the fixtures for these segments come from
    # CSPICE reading the same packets as one-interval type 19 segments (the twin kernel).
    path, h = new_kernel("synthetic-type18-subtype2.bsp")
    twin_path, twin = new_kernel("synthetic-type18-subtype2-as-type19.bsp")
    for k, (window, n) in enumerate([(6, 40), (8, 130), (4, 3)]):
        ep = uneven(n, 300.0, 2800 + k)
        words = esa_words(2, window, ep, esa_packets(2, ep))
        first, last = (ep[0], ep[-1]) if k % 2 == 0 else ((ep[0] + ep[1]) / 2, (ep[-2] + ep[-1]) / 2)
        add_raw_segment(h, -2800 - k, 399, 1, 18, first, last, f"TYPE 18.2 WINDOW {window} N {n}", words)
        add_raw_segment(twin, -2800 - k, 399, 1, 19, first, last, f"TYPE 18.2 WINDOW {window} N {n} AS 19", type19_words([words], [ep[0], ep[-1]], 1))
    sp.spkcls(h)
    sp.spkcls(twin)
    written += [path, twin_path]

    # Type 19: mini-segments of all three subtypes, with and without padding; both boundary
    # flags (1, and SPKW19's -1 and the Required Reading's 0 for "earlier"); 150 intervals (an
    # interval directory); a 250-packet mini-segment (a packet directory).
    path, h = new_kernel("synthetic-type19.bsp")
    plan = [  # (subtype, window, packets, pad left, pad right)
        (0, 4, 12, 0, 0), (1, 8, 10, 2, 3), (2, 6, 9, 1, 0), (1, 2, 6, 0, 2), (0, 14, 20, 3, 3), (2, 14, 4, 0, 0), (1, 28, 30, 0, 0),
    ]
    for variant, flag in enumerate([1, -1, 0]):
        boundaries, minis, t = [], [], T0
        for k, (subtype, window, count, left, right) in enumerate(plan):
            step = 150.0 + 37.0 * k
            ep = t + step * (np.arange(count) - left) + 11.0 * np.sin(np.arange(count) + k)
            ep[left] = t  # the interval starts on a packet
            start, stop = ep[left], ep[count - 1 - right]
            boundaries.append(start)
            minis.append(esa_words(subtype, window, ep, esa_packets(subtype, ep)))
            t = stop
        boundaries.append(t)
        first, last = (boundaries[0], boundaries[-1]) if variant == 0 else (boundaries[0] + 50.0, boundaries[-1] - 20.0)
        add_raw_segment(h, -1900 - variant, 399, 1, 19, first, last, f"TYPE 19 FLAG {flag}", type19_words(minis, boundaries, flag))
    # 150 short intervals of 2 to 4 packets.
    boundaries, minis, t = [], [], T0
    for k in range(150):
        count = 2 + k % 3
        subtype = k % 3
        ep = t + 60.0 * np.arange(count)
        boundaries.append(ep[0])
        minis.append(esa_words(subtype, 2 + 2 * (k % 2), ep, esa_packets(subtype, ep)))
        t = ep[-1]
    boundaries.append(t)
    add_raw_segment(h, -1910, 399, 1, 19, boundaries[0], boundaries[-1], "TYPE 19 150 INTERVALS", type19_words(minis, boundaries, 1))
    # One long mini-segment between two short ones.
    parts = [(2, 6, uneven(5, 200.0, 1911)), (1, 28, uneven(250, 120.0, 1912)), (0, 8, uneven(9, 200.0, 1913))]
    boundaries, minis, offset = [], [], 0.0
    for subtype, window, ep in parts:
        ep = ep - ep[0] + (boundaries[-1] if boundaries else T0)
        if boundaries:
            boundaries.pop()
        boundaries += [ep[0], ep[-1]]
        minis.append(esa_words(subtype, window, ep, esa_packets(subtype, ep)))
    add_raw_segment(h, -1911, 399, 1, 19, boundaries[0], boundaries[-1], "TYPE 19 250-PACKET INTERVAL", type19_words(minis, boundaries, -1))
    sp.spkcls(h)
    written.append(path)

    # Types 1 and 21 from the real type 1 samples' difference lines.
    cassini, cassini_epochs = mda_records(os.path.join(SAMPLES, "030201AP_SK_SM546_T45.bsp"))
    m2020, m2020_epochs = mda_records(os.path.join(SAMPLES, "m2020_cruise_od138_v1.bsp"))
    cassini_start, m2020_start = 1.40202064e08, 6.66951669e08
    path, h = new_kernel("synthetic-type01.bsp")
    for k, copies in enumerate([5, 6, 10]):  # 100 records (1 directory entry, the last epoch), 120, 200
        recs, eps = repeated(cassini, cassini_epochs, cassini_start, copies)
        first = cassini_start if k != 1 else cassini_start + 1000.0
        last = eps[-1] if k != 1 else eps[-1] - 2000.0
        add_raw_segment(h, -100 - k, 6, 1, 1, first, last, f"TYPE 1 {len(eps)} RECORDS", mda_words(recs, eps))
    sp.spkcls(h)
    written.append(path)

    path, h = new_kernel("synthetic-type21.bsp")
    add_raw_segment(h, -2100, 6, 1, 21, cassini_start, cassini_epochs[-1], "TYPE 21 MAXDIM 15", mda_words([widen(r, 15) for r in cassini], cassini_epochs, 15))
    add_raw_segment(h, -2101, 6, 1, 21, cassini_start, cassini_epochs[-1], "TYPE 21 MAXDIM 25", mda_words([widen(r, 25) for r in cassini], cassini_epochs, 25))
    add_raw_segment(h, -2102, 4, 1, 21, m2020_start, m2020_epochs[-1], "TYPE 21 MAXDIM 20", mda_words([widen(r, 20) for r in m2020], m2020_epochs, 20))
    recs, eps = repeated(cassini, cassini_epochs, cassini_start, 6)
    add_raw_segment(h, -2103, 6, 1, 21, cassini_start, eps[-1], "TYPE 21 MAXDIM 18 120 RECORDS", mda_words([widen(r, 18) for r in recs], eps, 18))
    sp.spkcls(h)
    written.append(path)
    return written


# ---------------------------------------------------------------------------------------------
# Reading segments back: where their records, nodes and boundaries are.

def words(handle, first, last):
    return np.array(sp.dafgda(handle, first, last)) if last >= first else np.array([])


def landmarks(handle, spk_type, b, e):
    """Epochs a reader could get wrong: record boundaries, nodes, interval boundaries."""
    tail = words(handle, max(b, e - 3), e)
    if spk_type in (2, 3):
        init, intlen, _, n = tail[-4:]
        return [init + k * intlen for k in range(int(n) + 1)]
    if spk_type in (1, 21):
        n = int(tail[-1])
        rs = 71 if spk_type == 1 else 4 * int(tail[-2]) + 11
        return list(words(handle, b + rs * n, b + rs * n + n - 1))
    if spk_type in (8, 12):
        start, step, _, n = tail[-4:]
        return [start + k * step for k in range(int(n))]
    if spk_type in (9, 13):
        n = int(tail[-1])
        return list(words(handle, b + 6 * n, b + 7 * n - 1))
    if spk_type == 18:
        subtype, n = int(tail[-3]), int(tail[-1])
        size = 12 if subtype == 0 else 6
        return list(words(handle, b + size * n, b + (size + 1) * n - 1))
    if spk_type == 19:
        n = int(tail[-1])
        pointers = words(handle, e - 2 - n, e - 2)
        bounds_at = e - 2 - (n + 1) - n // 100 - (n + 1) + 1
        out = list(words(handle, bounds_at, bounds_at + n))
        for k in range(n):
            mb, me = b + int(pointers[k]) - 1, b + int(pointers[k + 1]) - 2
            sub, count = int(words(handle, me - 2, me - 2)[0]), int(words(handle, me, me)[0])
            size = 12 if sub == 0 else 6
            out += list(words(handle, mb + size * count, mb + (size + 1) * count - 1))
        return sorted(out)
    return []


def thin(values, most):
    """At most `most` of `values`, evenly spread, first and last kept."""
    if len(values) <= most:
        return values
    return [values[round(i * (len(values) - 1) / (most - 1))] for i in range(most)]


def epochs_for(kernel, number, spk_type, start, end, marks):
    inside = sorted(set(t for t in marks if start <= t <= end))
    mids = [(a + c) / 2 for a, c in zip(inside, inside[1:])]
    chosen = [start, end] + thin(inside, 120) + thin(mids, 60)
    rng = random.Random(f"{kernel}:{number}")
    extra = max(100, 220 - len(set(chosen)))
    chosen += [start + (end - start) * rng.random() for _ in range(extra)]
    # Exact ends first; then in time order, each epoch once.
    rest = sorted(set(chosen) - {start, end})
    return [start] + ([end] if end != start else []) + rest


def fixture(path, about):
    name = os.path.basename(path)
    with open(path, "rb") as f:
        raw = f.read()
    # A file that stops inside its last 1024-byte record (de441-1969.bsp, cut by jplephem's
    # excerpt, ends 8 bytes into record 74, the word holding its last segment's record count):
    # CSPICE reads whole records and takes the missing bytes as zeros, so it is evaluated from
    # a copy padded with zeros to whole records. The reader reads the bytes in place.
    padding = (-len(raw)) % 1024
    read_path, tmp = path, None
    if padding:
        tmp = tempfile.NamedTemporaryFile(suffix=".bsp", delete=False)
        tmp.write(raw + bytes(padding))
        tmp.close()
        read_path = tmp.name
    reference = path
    if name == "synthetic-type18-subtype2.bsp":
        reference = os.path.join(SAMPLES, "synthetic-type18-subtype2-as-type19.bsp")

    def segments_of(p):
        h = sp.dafopr(p)
        sp.dafbfs(h)
        out = []
        while sp.daffna():
            d = sp.dafgs(5)
            dc, ic = sp.dafus(d, 2, 6)
            out.append((d, dc, ic, sp.dafgn()))
        return h, out

    handle, segs = segments_of(read_path)
    ref_handle, ref_segs = (handle, segs) if reference == path else segments_of(reference)
    out_segments = []
    for number, ((descr, dc, ic, segname), (ref_descr, _, _, _)) in enumerate(zip(segs, ref_segs), start=1):
        target, center, frame, spk_type, b, e = (int(x) for x in ic)
        start, end = float(dc[0]), float(dc[1])
        entry = {"number": number, "target": target, "center": center, "frame": frame, "type": spk_type,
                 "start": start, "end": end, "name": segname.strip()}
        if spk_type == 18:
            entry["subtype"] = int(words(handle, e - 2, e - 2)[0])
        if spk_type not in (1, 2, 3, 8, 9, 12, 13, 18, 19, 21):
            entry["cases"] = []
            out_segments.append(entry)
            continue
        cases = []
        for et in epochs_for(name, number, spk_type, start, end, landmarks(handle, spk_type, b, e)):
            _, state, _ = sp.spkpvn(ref_handle, ref_descr, et)
            cases.append([float(et)] + [float(x) for x in state])
        entry["cases"] = cases
        out_segments.append(entry)
    sp.dafcls(handle)
    if ref_handle != handle:
        sp.dafcls(ref_handle)
    if tmp:
        os.remove(tmp.name)
    doc = {"about": dict(about), "kernel": name, "sha256": hashlib.sha256(raw).hexdigest(), "bytes": len(raw)}
    if padding:
        doc["about"]["padding"] = ("The file ends %d bytes into a 1024-byte record, inside the word holding its last segment's "
                                   "record count; CSPICE reads whole records, takes the missing bytes as zeros and would "
                                   "evaluate that segment from the words before it (states of 1e223 km). These states are "
                                   "CSPICE's for a copy padded with %d zero bytes to whole records; the data are unchanged."
                                   % (1024 - padding, padding))
    if reference != path:
        doc["about"]["reference"] = ("NAIF's toolkits define no type 18 subtype 2 (CSPICE N0067's SPKR18 refuses it); these states "
                                     "are CSPICE's for the same packets as one-interval type 19 segments, "
                                     "synthetic-type18-subtype2-as-type19.bsp.")
    doc["segments"] = out_segments
    return doc


def dump(doc, path):
    """One segment per block and one case per line: diffable, and exact (repr of doubles)."""
    lines = ["{", f'  "about": {json.dumps(doc["about"])},', f'  "kernel": {json.dumps(doc["kernel"])},',
             f'  "sha256": {json.dumps(doc["sha256"])},', f'  "bytes": {doc["bytes"]},']
    lines.append('  "segments": [')
    for i, s in enumerate(doc["segments"]):
        head = {k: v for k, v in s.items() if k != "cases"}
        lines.append("    {" + json.dumps(head)[1:-1] + ', "cases": [')
        cases = ["      [" + ", ".join(repr(x) for x in c) + "]" for c in s["cases"]]
        lines.append(",\n".join(cases))
        lines.append("    ]}" + ("," if i + 1 < len(doc["segments"]) else ""))
    lines.append("  ]")
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples-from", help="copy every .bsp of this directory into spk-samples/ unchanged first")
    args = parser.parse_args()
    if MISSING is not None:
        raise SystemExit(f"needs numpy and spiceypy ({MISSING}): pip install spiceypy")
    os.makedirs(SAMPLES, exist_ok=True)
    if args.samples_from:
        for f in sorted(os.listdir(args.samples_from)):
            if f.endswith(".bsp"):
                shutil.copyfile(os.path.join(args.samples_from, f), os.path.join(SAMPLES, f))
    synthetic = write_synthetic()
    about = {
        "what": "CSPICE's raw segment states, spkpvn(handle, descr, et): km and km/s in the segment's frame, no light time",
        "script": SCRIPT,
        "spiceypy": sp.__version__,
        "cspice": sp.tkvrsn("TOOLKIT"),
        "epochs": "both ends of the coverage; records, nodes and interval boundaries inside it (at most 120) and half-way "
                  "between them (at most 60); uniform random ones (seed: kernel name and segment number) up to at least 220",
    }
    for path in sorted(os.path.join(SAMPLES, f) for f in os.listdir(SAMPLES) if f.endswith(".bsp")):
        doc = fixture(path, dict(about, synthetic=path in synthetic))
        dump(doc, os.path.join(HERE, os.path.basename(path) + ".json"))
        total = sum(len(s["cases"]) for s in doc["segments"])
        print(f"{os.path.basename(path)}: {len(doc['segments'])} segments, {total} states")


if __name__ == "__main__":
    main()
