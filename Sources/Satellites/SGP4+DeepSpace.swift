#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SGP4 {
    /// SDP4's deep-space terms for orbits of 225 minutes or longer (Hujsak 1979, as revised by
    /// Vallado et al. 2006: the routines dscom, dsinit, dpper and dspace): secular and long-period
    /// lunar-solar perturbations, and the geopotential resonances of 24 h (synchronous) and 12 h
    /// (half-day, eccentric) orbits integrated by the paper's Euler–Maclaurin steps of 720 min.
    ///
    /// The integration restarts from the epoch at every call instead of keeping the reference
    /// code's last step: the steps are the same (fixed, from t = 0), so the answer is, and the
    /// propagator stays a value that any thread may share.
    struct DeepSpace: Sendable {
        enum Resonance: Sendable { case none, synchronous, halfDay }

        // Lunar-solar periodic coefficients (dscom).
        let sun: LongPeriodTerms, moon: LongPeriodTerms
        // Secular lunar-solar rates (dsinit).
        let dedt, didt, dmdt, dnodt, domdt: Double
        // Resonance (dsinit).
        let resonance: Resonance
        let d2201, d2211, d3210, d3222, d4410, d4422, d5220, d5232, d5421, d5433: Double
        let del1, del2, del3, xfact, xlamo: Double
        let gsto, no, argpo, argpdot: Double

        // Solar and lunar constants of Spacetrack Report #3 / Vallado et al. 2006.
        static let zns = 1.19459e-5, zes = 0.01675, znl = 1.5835218e-4, zel = 0.05490
        /// Earth's rotation rate, rad/min, as the resonance terms use it.
        static let rptim = 4.37526908801129966e-3

        init(epochDaysSince1950 epoch: Double, ecco: Double, inclo: Double, nodeo: Double, argpo: Double, mo: Double,
             no: Double, mdot: Double, argpdot: Double, nodedot: Double, gsto: Double) {
            let twoPi = 2 * Double.pi
            // dscom: lunar and solar terms at epoch.
            let c1ss = 2.9864797e-6, c1l = 4.7968065e-7
            let zsinis = 0.39785416, zcosis = 0.91744867, zcosgs = 0.1945905, zsings = -0.98088458
            let nm = no, em = ecco
            let snodm = sin(nodeo), cnodm = cos(nodeo)
            let sinomm = sin(argpo), cosomm = cos(argpo)
            let sinim = sin(inclo), cosim = cos(inclo)
            let emsq = em * em
            let betasq = 1 - emsq
            let rtemsq = betasq.squareRoot()
            let day = epoch + 18261.5
            let xnodce = fmod(4.5236020 - 9.2422029e-4 * day, twoPi)
            let stem = sin(xnodce), ctem = cos(xnodce)
            let zcosil = 0.91375164 - 0.03568096 * ctem
            let zsinil = (1 - zcosil * zcosil).squareRoot()
            let zsinhl = 0.089683511 * stem / zsinil
            let zcoshl = (1 - zsinhl * zsinhl).squareRoot()
            let gam = 5.8351514 + 0.0019443680 * day
            var zx = 0.39785416 * stem / zsinil
            let zy = zcoshl * ctem + 0.91744867 * zsinhl * stem
            zx = atan2(zx, zy)
            zx = gam + zx - xnodce
            let zcosgl = cos(zx), zsingl = sin(zx)

            func terms(zcosg: Double, zsing: Double, zcosi: Double, zsini: Double, zcosh: Double, zsinh: Double, cc: Double) -> LunarSolarBody {
                var b = LunarSolarBody()
                let a1 = zcosg * zcosh + zsing * zcosi * zsinh
                let a3 = -zsing * zcosh + zcosg * zcosi * zsinh
                let a7 = -zcosg * zsinh + zsing * zcosi * zcosh
                let a8 = zsing * zsini
                let a9 = zsing * zsinh + zcosg * zcosi * zcosh
                let a10 = zcosg * zsini
                let a2 = cosim * a7 + sinim * a8
                let a4 = cosim * a9 + sinim * a10
                let a5 = -sinim * a7 + cosim * a8
                let a6 = -sinim * a9 + cosim * a10
                let x1 = a1 * cosomm + a2 * sinomm
                let x2 = a3 * cosomm + a4 * sinomm
                let x3 = -a1 * sinomm + a2 * cosomm
                let x4 = -a3 * sinomm + a4 * cosomm
                let x5 = a5 * sinomm, x6 = a6 * sinomm, x7 = a5 * cosomm, x8 = a6 * cosomm
                b.z31 = 12 * x1 * x1 - 3 * x3 * x3
                b.z32 = 24 * x1 * x2 - 6 * x3 * x4
                b.z33 = 12 * x2 * x2 - 3 * x4 * x4
                b.z1 = 3 * (a1 * a1 + a2 * a2) + b.z31 * emsq
                b.z2 = 6 * (a1 * a3 + a2 * a4) + b.z32 * emsq
                b.z3 = 3 * (a3 * a3 + a4 * a4) + b.z33 * emsq
                b.z11 = -6 * a1 * a5 + emsq * (-24 * x1 * x7 - 6 * x3 * x5)
                b.z12 = -6 * (a1 * a6 + a3 * a5) + emsq * (-24 * (x2 * x7 + x1 * x8) - 6 * (x3 * x6 + x4 * x5))
                b.z13 = -6 * a3 * a6 + emsq * (-24 * x2 * x8 - 6 * x4 * x6)
                b.z21 = 6 * a2 * a5 + emsq * (24 * x1 * x5 - 6 * x3 * x7)
                b.z22 = 6 * (a4 * a5 + a2 * a6) + emsq * (24 * (x2 * x5 + x1 * x6) - 6 * (x4 * x7 + x3 * x8))
                b.z23 = 6 * a4 * a6 + emsq * (24 * x2 * x6 - 6 * x4 * x8)
                b.z1 = b.z1 + b.z1 + betasq * b.z31
                b.z2 = b.z2 + b.z2 + betasq * b.z32
                b.z3 = b.z3 + b.z3 + betasq * b.z33
                b.s3 = cc / nm
                b.s2 = -0.5 * b.s3 / rtemsq
                b.s4 = b.s3 * rtemsq
                b.s1 = -15 * em * b.s4
                b.s5 = x1 * x3 + x2 * x4
                b.s6 = x2 * x3 + x1 * x4
                b.s7 = x2 * x4 - x1 * x3
                return b
            }
            let sun = terms(zcosg: zcosgs, zsing: zsings, zcosi: zcosis, zsini: zsinis, zcosh: cnodm, zsinh: snodm, cc: c1ss)
            let moon = terms(zcosg: zcosgl, zsing: zsingl, zcosi: zcosil, zsini: zsinil,
                             zcosh: zcoshl * cnodm + zsinhl * snodm, zsinh: snodm * zcoshl - cnodm * zsinhl, cc: c1l)
            self.sun = LongPeriodTerms(sun, emsq: emsq, anomalyAtEpoch: fmod(6.2565837 + 0.017201977 * day, twoPi),
                                       meanMotion: Self.zns, eccentricity: Self.zes)
            self.moon = LongPeriodTerms(moon, emsq: emsq, anomalyAtEpoch: fmod(4.7199672 + 0.22997150 * day - gam, twoPi),
                                        meanMotion: Self.znl, eccentricity: Self.zel)

            // dsinit: secular rates from the Sun and Moon.
            let zns = Self.zns, znl = Self.znl
            let nearEquatorial = inclo < 5.2359877e-2 || inclo > Double.pi - 5.2359877e-2
            let ses = sun.s1 * zns * sun.s5
            let sis = sun.s2 * zns * (sun.z11 + sun.z13)
            let sls = -zns * sun.s3 * (sun.z1 + sun.z3 - 14 - 6 * emsq)
            let sghs = sun.s4 * zns * (sun.z31 + sun.z33 - 6)
            var shs = nearEquatorial ? 0 : -zns * sun.s2 * (sun.z21 + sun.z23)
            if sinim != 0 { shs /= sinim }
            let sgs = sghs - cosim * shs
            dedt = ses + moon.s1 * znl * moon.s5
            didt = sis + moon.s2 * znl * (moon.z11 + moon.z13)
            dmdt = sls - znl * moon.s3 * (moon.z1 + moon.z3 - 14 - 6 * emsq)
            let sghl = moon.s4 * znl * (moon.z31 + moon.z33 - 6)
            let shll = nearEquatorial ? 0 : -znl * moon.s2 * (moon.z21 + moon.z23)
            var domdt = sgs + sghl
            var dnodt = shs
            if sinim != 0 {
                domdt -= cosim / sinim * shll
                dnodt += shll / sinim
            }
            self.domdt = domdt
            self.dnodt = dnodt

            // Resonances: 24 h orbits (period 1200–1800 min), 12 h orbits with e ≥ 0.5 (680–760 min).
            if nm < 0.0052359877 && nm > 0.0034906585 {
                resonance = .synchronous
            } else if nm >= 8.26e-3 && nm <= 9.24e-3 && em >= 0.5 {
                resonance = .halfDay
            } else {
                resonance = .none
            }
            let theta = fmod(gsto, twoPi)
            let aonv = pow(nm / SGP4Constants.xkePerMinute, 2.0 / 3.0)
            var d = [Double](repeating: 0, count: 10)
            var del = [0.0, 0.0, 0.0]
            var xlamo = 0.0, xfact = 0.0
            switch resonance {
            case .none:
                break
            case .halfDay:
                let q22 = 1.7891679e-6, root32 = 3.7393792e-7, root44 = 7.3636953e-9
                let root52 = 1.1428639e-7, root54 = 2.1765803e-9
                let cosisq = cosim * cosim
                let e = ecco, esq = ecco * ecco, eoc = e * esq
                let g201 = -0.306 - (e - 0.64) * 0.440
                var g211, g310, g322, g410, g422, g520, g521, g532, g533: Double
                if e <= 0.65 {
                    g211 = 3.616 - 13.2470 * e + 16.2900 * esq
                    g310 = -19.302 + 117.3900 * e - 228.4190 * esq + 156.5910 * eoc
                    g322 = -18.9068 + 109.7927 * e - 214.6334 * esq + 146.5816 * eoc
                    g410 = -41.122 + 242.6940 * e - 471.0940 * esq + 313.9530 * eoc
                    g422 = -146.407 + 841.8800 * e - 1629.014 * esq + 1083.4350 * eoc
                    g520 = -532.114 + 3017.977 * e - 5740.032 * esq + 3708.2760 * eoc
                } else {
                    g211 = -72.099 + 331.819 * e - 508.738 * esq + 266.724 * eoc
                    g310 = -346.844 + 1582.851 * e - 2415.925 * esq + 1246.113 * eoc
                    g322 = -342.585 + 1554.908 * e - 2366.899 * esq + 1215.972 * eoc
                    g410 = -1052.797 + 4758.686 * e - 7193.992 * esq + 3651.957 * eoc
                    g422 = -3581.690 + 16178.110 * e - 24462.770 * esq + 12422.520 * eoc
                    g520 = e > 0.715 ? -5149.66 + 29936.92 * e - 54087.36 * esq + 31324.56 * eoc
                                     : 1464.74 - 4664.75 * e + 3763.64 * esq
                }
                if e < 0.7 {
                    g533 = -919.22770 + 4988.6100 * e - 9064.7700 * esq + 5542.21 * eoc
                    g521 = -822.71072 + 4568.6173 * e - 8491.4146 * esq + 5337.524 * eoc
                    g532 = -853.66600 + 4690.2500 * e - 8624.7700 * esq + 5341.4 * eoc
                } else {
                    g533 = -37995.780 + 161616.52 * e - 229838.20 * esq + 109377.94 * eoc
                    g521 = -51752.104 + 218913.95 * e - 309468.16 * esq + 146349.42 * eoc
                    g532 = -40023.880 + 170470.89 * e - 242699.48 * esq + 115605.82 * eoc
                }
                let sini2 = sinim * sinim
                let f220 = 0.75 * (1 + 2 * cosim + cosisq)
                let f221 = 1.5 * sini2
                let f321 = 1.875 * sinim * (1 - 2 * cosim - 3 * cosisq)
                let f322 = -1.875 * sinim * (1 + 2 * cosim - 3 * cosisq)
                let f441 = 35 * sini2 * f220
                let f442 = 39.3750 * sini2 * sini2
                let f522 = 9.84375 * sinim * (sini2 * (1 - 2 * cosim - 5 * cosisq) + 0.33333333 * (-2 + 4 * cosim + 6 * cosisq))
                let f523 = sinim * (4.92187512 * sini2 * (-2 - 4 * cosim + 10 * cosisq) + 6.56250012 * (1 + 2 * cosim - 3 * cosisq))
                let f542 = 29.53125 * sinim * (2 - 8 * cosim + cosisq * (-12 + 8 * cosim + 10 * cosisq))
                let f543 = 29.53125 * sinim * (-2 - 8 * cosim + cosisq * (12 + 8 * cosim - 10 * cosisq))
                let xno2 = nm * nm
                let ainv2 = aonv * aonv
                var temp1 = 3 * xno2 * ainv2
                var temp = temp1 * q22
                d[0] = temp * f220 * g201
                d[1] = temp * f221 * g211
                temp1 *= aonv
                temp = temp1 * root32
                d[2] = temp * f321 * g310
                d[3] = temp * f322 * g322
                temp1 *= aonv
                temp = 2 * temp1 * root44
                d[4] = temp * f441 * g410
                d[5] = temp * f442 * g422
                temp1 *= aonv
                temp = temp1 * root52
                d[6] = temp * f522 * g520
                d[7] = temp * f523 * g532
                temp = 2 * temp1 * root54
                d[8] = temp * f542 * g521
                d[9] = temp * f543 * g533
                xlamo = fmod(mo + nodeo + nodeo - theta - theta, twoPi)
                xfact = mdot + dmdt + 2 * (nodedot + dnodt - Self.rptim) - no
            case .synchronous:
                let q22 = 1.7891679e-6, q31 = 2.1460748e-6, q33 = 2.2123015e-7
                let g200 = 1 + emsq * (-2.5 + 0.8125 * emsq)
                let g310 = 1 + 2 * emsq
                let g300 = 1 + emsq * (-6 + 6.60937 * emsq)
                let f220 = 0.75 * (1 + cosim) * (1 + cosim)
                let f311 = 0.9375 * sinim * sinim * (1 + 3 * cosim) - 0.75 * (1 + cosim)
                var f330 = 1 + cosim
                f330 = 1.875 * f330 * f330 * f330
                let base = 3 * nm * nm * aonv * aonv
                del[1] = 2 * base * f220 * g200 * q22
                del[2] = 3 * base * f330 * g300 * q33 * aonv
                del[0] = base * f311 * g310 * q31 * aonv
                xlamo = fmod(mo + nodeo + argpo - theta, twoPi)
                xfact = mdot + (argpdot + nodedot) - Self.rptim + dmdt + domdt + dnodt - no
            }
            d2201 = d[0]; d2211 = d[1]; d3210 = d[2]; d3222 = d[3]; d4410 = d[4]
            d4422 = d[5]; d5220 = d[6]; d5232 = d[7]; d5421 = d[8]; d5433 = d[9]
            del1 = del[0]; del2 = del[1]; del3 = del[2]
            self.xlamo = xlamo
            self.xfact = xfact
            self.gsto = gsto
            self.no = no
            self.argpo = argpo
            self.argpdot = argpdot
        }

        /// dspace: secular lunar-solar drift and, for resonant orbits, the integrated mean
        /// longitude and mean motion `t` minutes from epoch.
        func secular(t: Double, em: inout Double, argpm: inout Double, inclm: inout Double,
                     mm: inout Double, nodem: inout Double, nm: inout Double) {
            let twoPi = 2 * Double.pi
            let theta = fmod(gsto + t * Self.rptim, twoPi)
            em += dedt * t
            inclm += didt * t
            argpm += domdt * t
            nodem += dnodt * t
            mm += dmdt * t
            guard resonance != .none else { return }

            let fasx2 = 0.13130908, fasx4 = 2.8843198, fasx6 = 0.37448087
            let g22 = 5.7686396, g32 = 0.95240898, g44 = 1.8014998, g52 = 1.0508330, g54 = 4.4108898
            let stepMin = 720.0, step2 = 259_200.0
            let delt = t > 0 ? stepMin : -stepMin
            var atime = 0.0, xli = xlamo, xni = no
            var xndt = 0.0, xldot = 0.0, xnddt = 0.0, ft = 0.0
            while true {
                if resonance == .synchronous {
                    xndt = del1 * sin(xli - fasx2) + del2 * sin(2 * (xli - fasx4)) + del3 * sin(3 * (xli - fasx6))
                    xldot = xni + xfact
                    xnddt = del1 * cos(xli - fasx2) + 2 * del2 * cos(2 * (xli - fasx4)) + 3 * del3 * cos(3 * (xli - fasx6))
                    xnddt *= xldot
                } else {
                    let xomi = argpo + argpdot * atime
                    let x2omi = xomi + xomi
                    let x2li = xli + xli
                    xndt = d2201 * sin(x2omi + xli - g22) + d2211 * sin(xli - g22)
                        + d3210 * sin(xomi + xli - g32) + d3222 * sin(-xomi + xli - g32)
                        + d4410 * sin(x2omi + x2li - g44) + d4422 * sin(x2li - g44)
                        + d5220 * sin(xomi + xli - g52) + d5232 * sin(-xomi + xli - g52)
                        + d5421 * sin(xomi + x2li - g54) + d5433 * sin(-xomi + x2li - g54)
                    xldot = xni + xfact
                    xnddt = d2201 * cos(x2omi + xli - g22) + d2211 * cos(xli - g22)
                        + d3210 * cos(xomi + xli - g32) + d3222 * cos(-xomi + xli - g32)
                        + d5220 * cos(xomi + xli - g52) + d5232 * cos(-xomi + xli - g52)
                        + 2 * (d4410 * cos(x2omi + x2li - g44) + d4422 * cos(x2li - g44)
                            + d5421 * cos(xomi + x2li - g54) + d5433 * cos(-xomi + x2li - g54))
                    xnddt *= xldot
                }
                if abs(t - atime) < stepMin {
                    ft = t - atime
                    break
                }
                xli += xldot * delt + xndt * step2
                xni += xndt * delt + xnddt * step2
                atime += delt
            }
            let n = xni + xndt * ft + xnddt * ft * ft * 0.5
            let xl = xli + xldot * ft + xndt * ft * ft * 0.5
            if resonance == .synchronous {
                mm = xl - nodem - argpm + theta
            } else {
                mm = xl - 2 * nodem + 2 * theta
            }
            nm = no + (n - no)
        }

        /// dpper: the long-period lunar-solar periodics `t` minutes from epoch, applied to the
        /// elements; below 0.2 rad of inclination with Lyddane's modification (the reference
        /// code tests the perturbed inclination, as GSFC's version does).
        func periodics(t: Double, ep: inout Double, inclp: inout Double, nodep: inout Double,
                       argpp: inout Double, mp: inout Double) {
            let twoPi = 2 * Double.pi
            let solar = sun.perturbations(minutes: t), lunar = moon.perturbations(minutes: t)
            // The reference code's offsets at epoch (peo, pinco, …) stay zero: its dpper at
            // initialisation computes them but does not keep them.
            let pe = solar.e + lunar.e, pinc = solar.i + lunar.i, pl = solar.l + lunar.l
            var pgh = solar.gh + lunar.gh, ph = solar.h + lunar.h
            inclp += pinc
            ep += pe
            let sinip = sin(inclp), cosip = cos(inclp)
            if inclp >= 0.2 {
                ph /= sinip
                pgh -= cosip * ph
                argpp += pgh
                nodep += ph
                mp += pl
            } else {
                let sinop = sin(nodep), cosop = cos(nodep)
                var alfdp = sinip * sinop
                var betdp = sinip * cosop
                let dalf = ph * cosop + pinc * cosip * sinop
                let dbet = -ph * sinop + pinc * cosip * cosop
                alfdp += dalf
                betdp += dbet
                nodep = fmod(nodep, twoPi)
                var xls = mp + argpp + cosip * nodep
                let dls = pl + pgh - pinc * nodep * sinip
                xls += dls
                let xnoh = nodep
                nodep = atan2(alfdp, betdp)
                if abs(xnoh - nodep) > Double.pi {
                    nodep += nodep < xnoh ? twoPi : -twoPi
                }
                mp += pl
                argpp = xls - mp - cosip * nodep
            }
        }
    }

    /// dscom's intermediate terms for one perturbing body (the Sun or the Moon).
    struct LunarSolarBody {
        var s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, s5 = 0.0, s6 = 0.0, s7 = 0.0
        var z1 = 0.0, z2 = 0.0, z3 = 0.0, z11 = 0.0, z12 = 0.0, z13 = 0.0, z21 = 0.0, z22 = 0.0, z23 = 0.0
        var z31 = 0.0, z32 = 0.0, z33 = 0.0
    }

    /// The long-period lunar or solar periodic terms (dscom's se2…sh3 for the Sun, ee2…xh3 for the
    /// Moon) and their evaluation in dpper: one code for both bodies, their constants differing.
    struct LongPeriodTerms: Sendable {
        let e2, e3, i2, i3, l2, l3, l4, gh2, gh3, gh4, h2, h3: Double
        /// The body's mean anomaly at epoch (zmos, zmol), its mean motion (zns, znl, rad/min) and
        /// its orbit's eccentricity (zes, zel).
        let anomalyAtEpoch: Double, meanMotion: Double, eccentricity: Double

        init(_ b: LunarSolarBody, emsq: Double, anomalyAtEpoch: Double, meanMotion: Double, eccentricity: Double) {
            e2 = 2 * b.s1 * b.s6
            e3 = 2 * b.s1 * b.s7
            i2 = 2 * b.s2 * b.z12
            i3 = 2 * b.s2 * (b.z13 - b.z11)
            l2 = -2 * b.s3 * b.z2
            l3 = -2 * b.s3 * (b.z3 - b.z1)
            l4 = -2 * b.s3 * (-21 - 9 * emsq) * eccentricity
            gh2 = 2 * b.s4 * b.z32
            gh3 = 2 * b.s4 * (b.z33 - b.z31)
            gh4 = -18 * b.s4 * eccentricity
            h2 = -2 * b.s2 * b.z22
            h3 = -2 * b.s2 * (b.z23 - b.z21)
            self.anomalyAtEpoch = anomalyAtEpoch
            self.meanMotion = meanMotion
            self.eccentricity = eccentricity
        }

        /// The perturbations of eccentricity, inclination, mean longitude, perigee and node
        /// `t` minutes from epoch.
        func perturbations(minutes t: Double) -> (e: Double, i: Double, l: Double, gh: Double, h: Double) {
            let zm = anomalyAtEpoch + meanMotion * t
            let zf = zm + 2 * eccentricity * sin(zm)
            let sinzf = sin(zf)
            let f2 = 0.5 * sinzf * sinzf - 0.25
            let f3 = -0.5 * sinzf * cos(zf)
            return (e2 * f2 + e3 * f3, i2 * f2 + i3 * f3, l2 * f2 + l3 * f3 + l4 * sinzf,
                    gh2 * f2 + gh3 * f3 + gh4 * sinzf, h2 * f2 + h3 * f3)
        }
    }
}
