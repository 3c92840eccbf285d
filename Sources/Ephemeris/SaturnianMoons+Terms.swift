import Glibc

// Mean elements and perturbations of Saturn's satellites, Meeus, *Astronomical Algorithms*
// (2nd ed., 1998), chapter 46 (Harper & Taylor 1993, after Dourneau 1987).
//
// Transcribed from, and checked term by term against, Sonia Keys's `meeus/v3/saturnmoons` (Go) and
// PJ Naughter's AA+ `AASaturnMoons` (C#, as carried by WorldWideTelescope), with Dourneau's
// constants in Bill Gray's Project Pluto `ssats.cpp` as a third look where the first two agree on
// something odd. One known misprint in the book is corrected, as in both implementations: Rhea's
// forced eccentricity is 0.001 (sin W4, cos W4), not 0.01 (AA+ history: confirmed by Jean Meeus
// in 2004; Dourneau's value in ssats.cpp is also 0.001).

extension SaturnianMoons {
    /// The time arguments t1…t11 and the angles W0…W8 shared by the satellites (degrees where
    /// Meeus uses degrees).
    struct Arguments {
        let t1, t2, t4, t5, t7, t10, t11: Double
        let w0, w1, w2, w3, w4, w5, w6, w7, w8: Double   // radians
        let e1: Double
        let sinW0, sin3W0, sin5W0, sinW1, sinW2, sinW3, cosW3, sinW4, cosW4: Double

        init(jde: Double) {
            t1 = jde - 2_411_093.0
            t2 = t1 / 365.25
            let t3 = (jde - 2_433_282.423) / 365.25 + 1950
            t4 = jde - 2_411_368.0
            t5 = t4 / 365.25
            let t6 = jde - 2_415_020.0
            t7 = t6 / 36_525
            t10 = jde - 2_409_786.0
            t11 = t10 / 36_525

            let d = Angle.radiansPerDegree
            w0 = 5.095 * (t3 - 1866.39) * d
            w1 = (74.4 + 32.39 * t2) * d
            w2 = (134.3 + 92.62 * t2) * d
            w3 = (42.0 - 0.5118 * t5) * d
            w4 = (276.59 + 0.5118 * t5) * d
            w5 = (267.2635 + 1222.1136 * t7) * d
            w6 = (175.4762 + 1221.5515 * t7) * d
            w7 = (2.4891 + 0.002435 * t7) * d
            w8 = (113.35 - 0.2597 * t7) * d
            e1 = 0.05589 - 0.000346 * t7

            sinW0 = SatelliteTrig.sin(radians: w0); sin3W0 = SatelliteTrig.sin(radians: 3 * w0); sin5W0 = SatelliteTrig.sin(radians: 5 * w0)
            sinW1 = SatelliteTrig.sin(radians: w1); sinW2 = SatelliteTrig.sin(radians: w2)
            sinW3 = SatelliteTrig.sin(radians: w3); cosW3 = SatelliteTrig.cos(radians: w3)
            sinW4 = SatelliteTrig.sin(radians: w4); cosW4 = SatelliteTrig.cos(radians: w4)
        }

        // MARK: The inner four: orbits referred to Saturn's equator directly

        /// Satellite I. Angles in degrees until the end.
        func mimas() -> Orbit {
            let l = 127.64 + 381.994497 * t1 - 43.57 * sinW0 - 0.720 * sin3W0 - 0.02144 * sin5W0
            let p = 106.1 + 365.549 * t2
            let m = l - p
            let c = 2.18287 * SatelliteTrig.sin(degrees: m) + 0.025988 * SatelliteTrig.sin(degrees: 2 * m) + 0.00043 * SatelliteTrig.sin(degrees: 3 * m)
            return Orbit(degreesLambda: l + c, radius: 3.06879 / (1 + 0.01905 * SatelliteTrig.cos(degrees: m + c)),
                         gamma: 1.563, node: 54.5 - 365.072 * t2)
        }

        /// Satellite II.
        func enceladus() -> Orbit {
            let l = 200.317 + 262.7319002 * t1 + 0.25667 * sinW1 + 0.20883 * sinW2
            let p = 309.107 + 123.44121 * t2
            let m = l - p
            let c = 0.55577 * SatelliteTrig.sin(degrees: m) + 0.00168 * SatelliteTrig.sin(degrees: 2 * m)
            return Orbit(degreesLambda: l + c, radius: 3.94118 / (1 + 0.00485 * SatelliteTrig.cos(degrees: m + c)),
                         gamma: 0.0262, node: 348 - 151.95 * t2)
        }

        /// Satellite III: circular.
        func tethys() -> Orbit {
            let lambda = 285.306 + 190.69791226 * t1 + 2.063 * sinW0 + 0.03409 * sin3W0 + 0.001015 * sin5W0
            return Orbit(degreesLambda: lambda, radius: 4.880998, gamma: 1.0976, node: 111.33 - 72.2441 * t2)
        }

        /// Satellite IV.
        func dione() -> Orbit {
            let l = 254.712 + 131.53493193 * t1 - 0.0215 * sinW1 - 0.01733 * sinW2
            let p = 174.8 + 30.820 * t2
            let m = l - p
            let c = 0.24717 * SatelliteTrig.sin(degrees: m) + 0.00033 * SatelliteTrig.sin(degrees: 2 * m)
            return Orbit(degreesLambda: l + c, radius: 6.24871 / (1 + 0.002157 * SatelliteTrig.cos(degrees: m + c)),
                         gamma: 0.0139, node: 232 - 30.27 * t2)
        }

        // MARK: Rhea, Titan, Iapetus: elements on the B1950 ecliptic, through Meeus's subroutine

        /// Satellite V.
        func rhea() -> Orbit {
            let d = Angle.radiansPerDegree
            let pPrime = (342.7 + 10.057 * t2) * d
            let a1 = 0.000265 * SatelliteTrig.sin(radians: pPrime) + 0.001 * sinW4    // 0.001: see the file header
            let a2 = 0.000265 * SatelliteTrig.cos(radians: pPrime) + 0.001 * cosW4
            let e = (a1 * a1 + a2 * a2).squareRoot()
            let p = atan2(a1, a2)
            let n = 345 - 10.057 * t2
            let lambdaPrime = 359.244 + 79.69004720 * t1 + 0.086754 * SatelliteTrig.sin(degrees: n)
            let i = 28.0362 + 0.346898 * SatelliteTrig.cos(degrees: n) + 0.01930 * cosW3
            let node = 168.8034 + 0.736936 * SatelliteTrig.sin(degrees: n) + 0.041 * sinW3
            return SaturnianMoons.orbit(meanLongitude: lambdaPrime * d, perihelion: p, eccentricity: e,
                                        semiMajorAxis: 8.725924, node: node * d, inclination: i * d)
        }

        /// Satellite VI.
        func titan() -> Orbit {
            let d = Angle.radiansPerDegree
            let l = 261.1582 + 22.57697855 * t4 + 0.074025 * sinW3
            let iPrime = (27.45141 + 0.295999 * cosW3) * d
            let nodePrime = (168.66925 + 0.628808 * sinW3) * d
            let a1 = SatelliteTrig.sin(radians: w7) * SatelliteTrig.sin(radians: nodePrime - w8)
            let a2 = SatelliteTrig.cos(radians: w7) * SatelliteTrig.sin(radians: iPrime) - SatelliteTrig.sin(radians: w7) * SatelliteTrig.cos(radians: iPrime) * SatelliteTrig.cos(radians: nodePrime - w8)
            let g0 = 102.8623 * d
            let psi = atan2(a1, a2)
            let s = (a1 * a1 + a2 * a2).squareRoot()
            // ϖ and g depend on each other: three iterations, as Meeus prescribes.
            var g = w4 - nodePrime - psi
            var varpi = 0.0
            for _ in 0..<3 {
                varpi = w4 + 0.37515 * d * (SatelliteTrig.sin(radians: 2 * g) - SatelliteTrig.sin(radians: 2 * g0))
                g = varpi - nodePrime - psi
            }
            let ePrime = 0.029092 + 0.00019048 * (SatelliteTrig.cos(radians: 2 * g) - SatelliteTrig.cos(radians: 2 * g0))
            let q = 2 * (w5 - varpi)
            let b1 = SatelliteTrig.sin(radians: iPrime) * SatelliteTrig.sin(radians: nodePrime - w8)
            let b2 = SatelliteTrig.cos(radians: w7) * SatelliteTrig.sin(radians: iPrime) * SatelliteTrig.cos(radians: nodePrime - w8) - SatelliteTrig.sin(radians: w7) * SatelliteTrig.cos(radians: iPrime)
            let theta = atan2(b1, b2) + w8
            let e = ePrime + 0.002778797 * ePrime * SatelliteTrig.cos(radians: q)
            let p = varpi + 0.159215 * d * SatelliteTrig.sin(radians: q)
            let u = 2 * w5 - 2 * theta + psi
            let h = 0.9375 * ePrime * ePrime * SatelliteTrig.sin(radians: q) + 0.1875 * s * s * SatelliteTrig.sin(radians: 2 * (w5 - theta))
            let lambdaPrime = (l - 0.254744 * (e1 * SatelliteTrig.sin(radians: w6) + 0.75 * e1 * e1 * SatelliteTrig.sin(radians: 2 * w6) + h)) * d
            let i = iPrime + 0.031843 * d * s * SatelliteTrig.cos(radians: u)
            let node = nodePrime + 0.031843 * d * s * SatelliteTrig.sin(radians: u) / SatelliteTrig.sin(radians: iPrime)
            return SaturnianMoons.orbit(meanLongitude: lambdaPrime, perihelion: p, eccentricity: e,
                                        semiMajorAxis: 20.216193, node: node, inclination: i)
        }

        /// Satellite VIII.
        func iapetus() -> Orbit {
            let d = Angle.radiansPerDegree
            let l = (261.1582 + 22.57697855 * t4) * d
            let varpiPrime = (91.796 + 0.562 * t7) * d
            let psi = (4.367 - 0.195 * t7) * d
            let theta = (146.819 - 3.198 * t7) * d
            let phi = (60.470 + 1.521 * t7) * d
            let bigPhi = (205.055 - 2.091 * t7) * d
            let ePrime = 0.028298 + 0.001156 * t11
            let varpi0 = (352.91 + 11.71 * t11) * d
            let mu = (76.3852 + 4.53795125 * t10) * d
            let iPrime = (18.4602 + t11 * (-0.9518 + t11 * (-0.072 + t11 * 0.0054))) * d
            let nodePrime = (143.198 + t11 * (-3.919 + t11 * (0.116 + t11 * 0.008))) * d
            let ell = mu - varpi0
            let g = varpi0 - nodePrime - psi
            let g1 = varpi0 - nodePrime - phi
            let ls = w5 - varpiPrime
            let gs = varpiPrime - theta
            let lT = l - w4
            let gT = w4 - bigPhi
            let u1 = 2 * (ell + g - ls - gs)
            let u2 = ell + g1 - lT - gT
            let u3 = ell + 2 * (g - ls - gs)
            let u4 = lT + gT - g1
            let u5 = 2 * (ls + gs)
            let a = 58.935028 + 0.004638 * SatelliteTrig.cos(radians: u1) + 0.058222 * SatelliteTrig.cos(radians: u2)
            let e = ePrime - 0.0014097 * SatelliteTrig.cos(radians: g1 - gT) + 0.0003733 * SatelliteTrig.cos(radians: u5 - 2 * g) + 0.0001180 * SatelliteTrig.cos(radians: u3)
                + 0.0002408 * SatelliteTrig.cos(radians: ell) + 0.0002849 * SatelliteTrig.cos(radians: ell + u2) + 0.0006190 * SatelliteTrig.cos(radians: u4)
            let w = 0.08077 * SatelliteTrig.sin(radians: g1 - gT) + 0.02139 * SatelliteTrig.sin(radians: u5 - 2 * g) - 0.00676 * SatelliteTrig.sin(radians: u3)
                + 0.01380 * SatelliteTrig.sin(radians: ell) + 0.01632 * SatelliteTrig.sin(radians: ell + u2) + 0.03547 * SatelliteTrig.sin(radians: u4)   // degrees
            let p = varpi0 + w * d / ePrime
            let lambdaPrime = mu + d * (-0.04299 * SatelliteTrig.sin(radians: u2) - 0.00789 * SatelliteTrig.sin(radians: u1) - 0.06312 * SatelliteTrig.sin(radians: ls)
                - 0.00295 * SatelliteTrig.sin(radians: 2 * ls) - 0.02231 * SatelliteTrig.sin(radians: u5) + 0.00650 * SatelliteTrig.sin(radians: u5 + psi))
            let i = iPrime + d * (0.04204 * SatelliteTrig.cos(radians: u5 + psi) + 0.00235 * SatelliteTrig.cos(radians: ell + g1 + lT + gT + phi)
                + 0.00360 * SatelliteTrig.cos(radians: u2 + phi))
            let wPrime = 0.04204 * SatelliteTrig.sin(radians: u5 + psi) + 0.00235 * SatelliteTrig.sin(radians: ell + g1 + lT + gT + phi) + 0.00358 * SatelliteTrig.sin(radians: u2 + phi)
            let node = nodePrime + wPrime * d / SatelliteTrig.sin(radians: iPrime)
            return SaturnianMoons.orbit(meanLongitude: lambdaPrime, perihelion: p, eccentricity: e,
                                        semiMajorAxis: a, node: node, inclination: i)
        }
    }

    /// Meeus's subroutine for Rhea, Titan, Hyperion and Iapetus: from elements referred to the
    /// B1950 ecliptic (angles in radians) to λ, r, γ, Ω referred to Saturn's fixed equator. The
    /// equation of the centre is his series to e⁵ (no Kepler solver needed at e < 0.03).
    static func orbit(meanLongitude: Double, perihelion: Double, eccentricity e: Double,
                      semiMajorAxis a: Double, node: Double, inclination i: Double) -> Orbit {
        let m = meanLongitude - perihelion
        let e2 = e * e, e3 = e2 * e, e4 = e2 * e2, e5 = e4 * e
        let c = (2 * e - 0.25 * e3 + 0.0520833333 * e5) * SatelliteTrig.sin(radians: m)
            + (1.25 * e2 - 0.458333333 * e4) * SatelliteTrig.sin(radians: 2 * m)
            + (1.083333333 * e3 - 0.671875 * e5) * SatelliteTrig.sin(radians: 3 * m)
            + 1.072917 * e4 * SatelliteTrig.sin(radians: 4 * m)
            + 1.142708 * e5 * SatelliteTrig.sin(radians: 5 * m)
        let r = a * (1 - e2) / (1 + e * SatelliteTrig.cos(radians: m + c))
        let g = node - equatorNode
        let s1 = SatelliteTrig.sin(radians: equatorInclination), c1 = SatelliteTrig.cos(radians: equatorInclination)
        let a1 = SatelliteTrig.sin(radians: i) * SatelliteTrig.sin(radians: g)
        let a2 = c1 * SatelliteTrig.sin(radians: i) * SatelliteTrig.cos(radians: g) - s1 * SatelliteTrig.cos(radians: i)
        let gamma = asin((a1 * a1 + a2 * a2).squareRoot())
        let u = atan2(a1, a2)
        let h = c1 * SatelliteTrig.sin(radians: i) - s1 * SatelliteTrig.cos(radians: i) * SatelliteTrig.cos(radians: g)
        let psi = atan2(s1 * SatelliteTrig.sin(radians: g), h)
        return Orbit(lambda: meanLongitude + c + u - g - psi, radius: r, gamma: gamma, node: equatorNode + u)
    }
}

extension SaturnianMoons.Orbit {
    /// Builds an orbit from Meeus's degree-valued λ, γ and Ω.
    init(degreesLambda lambda: Double, radius: Double, gamma: Double, node: Double) {
        let d = Angle.radiansPerDegree
        self.init(lambda: lambda * d, radius: radius, gamma: gamma * d, node: node * d)
    }
}
