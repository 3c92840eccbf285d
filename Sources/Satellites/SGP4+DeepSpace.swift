import Glibc

extension SGP4 {
    /// SDP4's deep-space terms for orbits of 225 minutes or longer (Hujsak 1979, as revised by
    /// Vallado et al. 2006: the routines dscom, dsinit, dpper and dspace): secular and long-period
    /// lunar-solar perturbations, and the geopotential resonances of 24 h (synchronous) and 12 h
    /// (half-day, eccentric) orbits integrated by the paper's Euler–Maclaurin steps of 720 min.
    ///
    /// The steps are fixed (720 min from t = 0), so the state after step k is the same however
    /// it is reached: the integration resumes from states saved on earlier calls
    /// (``ResonanceCheckpoints``, shared by the copies of one propagator and safe across
    /// threads) instead of restarting from the epoch, where the reference code keeps its last
    /// step. The answer does not depend on the order of the calls.
    ///
    /// A class: a propagator holds a reference, so a near-Earth set (most of a catalogue) does
    /// not carry these 450 bytes of terms as an empty optional.
    final class DeepSpace: Sendable {
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
        /// The resonance terms' constant phases as unit rotors, e^(−i·g): fasx2, 2·fasx4, 3·fasx6
        /// (synchronous) or g22, g32, g44, g52, g54 (half-day).
        let rotors: [Rotor]
        /// Saved integrator states of a resonant orbit (nil when there is no resonance).
        let checkpoints: ResonanceCheckpoints?

        /// Phases of the resonance terms (Vallado et al. 2006, dspace).
        static let fasx2 = 0.13130908, fasx4 = 2.8843198, fasx6 = 0.37448087
        static let g22 = 5.7686396, g32 = 0.95240898, g44 = 1.8014998, g52 = 1.0508330, g54 = 4.4108898

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
            switch resonance {
            case .none: rotors = []
            case .synchronous: rotors = [Self.fasx2, 2 * Self.fasx4, 3 * Self.fasx6].map { Rotor(angle: -$0) }
            case .halfDay: rotors = [Self.g22, Self.g32, Self.g44, Self.g52, Self.g54].map { Rotor(angle: -$0) }
            }
            checkpoints = resonance == .none ? nil : ResonanceCheckpoints()
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

            // The state after the last whole step before t, then a Taylor step over the rest.
            let reached = resonanceState(at: t)
            let rates = resonanceRates(reached)
            let ft = t - reached.atime
            let n = reached.xni + rates.xndt * ft + rates.xnddt * ft * ft * 0.5
            let xl = reached.xli + rates.xldot * ft + rates.xndt * ft * ft * 0.5
            if resonance == .synchronous {
                mm = xl - nodem - argpm + theta
            } else {
                mm = xl - 2 * nodem + 2 * theta
            }
            nm = no + (n - no)
        }

        /// The resonance integrator's state after `floor(|t| / 720)` steps from the epoch toward
        /// `t`: from the nearest saved state (``ResonanceCheckpoints``) rather than the epoch, so a
        /// call costs at most a checkpoint spacing of steps (the first call far from the epoch
        /// excepted), as the reference code keeps its last step instead of restarting.
        func resonanceState(at t: Double) -> ResonanceState {
            let forward = t >= 0
            let target = Int((abs(t) / ResonanceState.stepMinutes).rounded(.down))
            var state = checkpoints?.nearest(to: target, forward: forward) ?? ResonanceState(xli: xlamo, xni: no, perigee: argpo)
            let delt = forward ? ResonanceState.stepMinutes : -ResonanceState.stepMinutes
            let step2 = ResonanceState.stepMinutes * ResonanceState.stepMinutes / 2
            let perigeeStep = Rotor(angle: argpdot * delt)
            var recorder = checkpoints?.recorder(forward: forward)
            while state.steps < target {
                let rates = resonanceRates(state)
                let dl = rates.xldot * delt + rates.xndt * step2
                state.xli += dl
                state.xni += rates.xndt * delt + rates.xnddt * step2
                state.steps += 1
                state.atime = Double(state.steps) * delt
                if state.steps % ResonanceState.resyncSteps == 0 {
                    state.longitude = Rotor(reducing: state.xli)
                    state.perigee = Rotor(reducing: argpo + argpdot * state.atime)
                } else {
                    state.longitude = state.longitude * Rotor(small: dl)
                    state.perigee = state.perigee * perigeeStep
                }
                recorder?.passed(state)
            }
            if let recorder { checkpoints?.store(recorder, last: state, forward: forward) }
            return state
        }

        /// The resonance terms' rates at an integrator state (dspace's xndt, xnddt, xldot). The
        /// sines and cosines of the angle combinations come from the state's rotors of the mean
        /// longitude and the perigee by angle addition: no library call in most steps instead of
        /// six or twenty, which matters a million steps from the epoch.
        @inline(__always)
        func resonanceRates(_ s: ResonanceState) -> (xndt: Double, xnddt: Double, xldot: Double) {
            let xldot = s.xni + xfact
            let l1 = s.longitude
            if resonance == .synchronous {
                let l2 = l1 * l1, l3 = l2 * l1
                let a = l1 * rotors[0], b = l2 * rotors[1], c = l3 * rotors[2]
                let xndt = del1 * a.sin + del2 * b.sin + del3 * c.sin
                let xnddt = (del1 * a.cos + 2 * del2 * b.cos + 3 * del3 * c.cos) * xldot
                return (xndt, xnddt, xldot)
            }
            let w1 = s.perigee
            let w2 = w1 * w1, l2 = l1 * l1
            let wm = w1.conjugate
            let t22a = w2 * l1 * rotors[0], t22b = l1 * rotors[0]
            let t32a = w1 * l1 * rotors[1], t32b = wm * l1 * rotors[1]
            let t44a = w2 * l2 * rotors[2], t44b = l2 * rotors[2]
            let t52a = w1 * l1 * rotors[3], t52b = wm * l1 * rotors[3]
            let t54a = w1 * l2 * rotors[4], t54b = wm * l2 * rotors[4]
            let xndt = d2201 * t22a.sin + d2211 * t22b.sin + d3210 * t32a.sin + d3222 * t32b.sin
                + d4410 * t44a.sin + d4422 * t44b.sin + d5220 * t52a.sin + d5232 * t52b.sin
                + d5421 * t54a.sin + d5433 * t54b.sin
            let xnddt = (d2201 * t22a.cos + d2211 * t22b.cos + d3210 * t32a.cos + d3222 * t32b.cos
                + d5220 * t52a.cos + d5232 * t52b.cos
                + 2 * (d4410 * t44a.cos + d4422 * t44b.cos + d5421 * t54a.cos + d5433 * t54b.cos)) * xldot
            return (xndt, xnddt, xldot)
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
