import Glibc

/// The geocentric Moon from Meeus, *Astronomical Algorithms* (2nd ed., 1998), chapter 47: the
/// truncated ELP-2000/82 of Chapront-Touzé & Chapront (tables 47.A and 47.B in
/// `LunarTheory+Terms.swift`), good to about 10″ in longitude, 4″ in latitude.
///
/// The series gives the geometric position referred to the mean ecliptic and equinox of date
/// (no nutation, no light time); it is turned into a vector and precessed to the mean ecliptic
/// and equinox of J2000 with `Precession.ecliptic(fromJD:toJD:)`.
public enum LunarTheory {
    /// Geocentric position of the Moon, ecliptic J2000, km.
    ///
    /// ```swift
    /// let moon = LunarTheory.geocentricPositionKm(jdTDB: 2_461_001.5)
    /// moon.length // ≈ 363 000 … 406 000 km
    /// ```
    public static func geocentricPositionKm(jdTDB: Double) -> Vector3 {
        state(jdTDB: jdTDB, withVelocity: false).positionKm
    }

    /// Geocentric velocity of the Moon, ecliptic J2000, km/day.
    ///
    /// The analytic time derivative of the series (every term differentiated, E's drift included),
    /// not a finite difference: it costs one extra multiply-add per term instead of two more
    /// evaluations, and has no step size to trade truncation against rounding. The one thing
    /// outside the series, the turning of the ecliptic of date, is carried by removing the rate of
    /// general precession in longitude (≈50″/yr, 0.26 km/day at the Moon) from dλ/dt; the
    /// ecliptic's tilting rate (0.47″/yr, < 0.003 km/day) is left out.
    public static func geocentricVelocityKmPerDay(jdTDB: Double) -> Vector3 {
        state(jdTDB: jdTDB, withVelocity: true).velocityKmPerDay
    }

    /// Position (km) and velocity (km/day) together, ecliptic J2000, for the price of one evaluation.
    public static func geocentricState(jdTDB: Double) -> (positionKm: Vector3, velocityKmPerDay: Vector3) {
        state(jdTDB: jdTDB, withVelocity: true)
    }

    /// Mean ecliptic coordinates of date, as Meeus prints them: λ and β in degrees (λ in [0, 360)),
    /// Δ in km, plus their rates per day.
    struct EclipticOfDate {
        var longitudeDeg: Double
        var latitudeDeg: Double
        var distanceKm: Double
        var longitudeRateDegPerDay: Double
        var latitudeRateDegPerDay: Double
        var distanceRateKmPerDay: Double
    }

    // MARK: - The series

    /// Meeus eq. 47.1–47.6 polynomial coefficients (degrees, T in Julian centuries of TT from J2000).
    private enum Arguments {
        static let lPrime: (Double, Double, Double, Double, Double) = (218.316_447_7, 481_267.881_234_21, -0.001_578_6, 1 / 538_841.0, -1 / 65_194_000.0)
        static let d: (Double, Double, Double, Double, Double) = (297.850_192_1, 445_267.111_403_4, -0.001_881_9, 1 / 545_868.0, -1 / 113_065_000.0)
        static let m: (Double, Double, Double, Double, Double) = (357.529_109_2, 35_999.050_290_9, -0.000_153_6, 1 / 24_490_000.0, 0)
        static let mPrime: (Double, Double, Double, Double, Double) = (134.963_396_4, 477_198.867_505_5, 0.008_741_4, 1 / 69_699.0, -1 / 14_712_000.0)
        static let f: (Double, Double, Double, Double, Double) = (93.272_095_0, 483_202.017_523_3, -0.003_653_9, -1 / 3_526_000.0, 1 / 863_310_000.0)
    }

    /// Value (radians, reduced) and rate (radians per day) of a quartic in T given in degrees.
    @inline(__always)
    private static func argument(_ c: (Double, Double, Double, Double, Double), _ T: Double) -> (angle: Double, rate: Double) {
        let deg = c.0 + T * (c.1 + T * (c.2 + T * (c.3 + T * c.4)))
        let ratePerCentury = c.1 + T * (2 * c.2 + T * (3 * c.3 + T * 4 * c.4))
        return (Angle.normalizedDegrees(deg) * Angle.radiansPerDegree,
                ratePerCentury * Angle.radiansPerDegree / Constants.daysPerJulianCentury)
    }

    /// Meeus 47.A/47.B summed, in the ecliptic and equinox of date. `jd` is JDE (TT); TDB differs
    /// from it by under 2 ms, far below the theory's resolution.
    static func eclipticOfDate(jdTDB jd: Double) -> EclipticOfDate {
        let T = (jd - Constants.jdJ2000) / Constants.daysPerJulianCentury
        let perCentury = Angle.radiansPerDegree / Constants.daysPerJulianCentury // deg/cy → rad/day

        let lp = argument(Arguments.lPrime, T)
        let d = argument(Arguments.d, T)
        let m = argument(Arguments.m, T)
        let mp = argument(Arguments.mPrime, T)
        let f = argument(Arguments.f, T)
        // Additive terms (Meeus ch. 47): A1 Venus, A2 Jupiter, A3 the flattening of the Earth.
        let a1 = (Angle.normalizedDegrees(119.75 + 131.849 * T) * Angle.radiansPerDegree, 131.849 * perCentury)
        let a2 = (Angle.normalizedDegrees(53.09 + 479_264.290 * T) * Angle.radiansPerDegree, 479_264.290 * perCentury)
        let a3 = (Angle.normalizedDegrees(313.45 + 481_266.484 * T) * Angle.radiansPerDegree, 481_266.484 * perCentury)
        // Eccentricity of the Earth's orbit (eq. 47.6) and its rate per day.
        let E = 1 + T * (-0.002_516 - 0.000_007_4 * T)
        let Edot = (-0.002_516 - 2 * 0.000_007_4 * T) / Constants.daysPerJulianCentury

        // cos/sin of k·D, k·M, k·M′, k·F for k = −4…4 by the angle-addition recurrence, so each
        // of the 120 terms costs three complex products instead of a sin and a cos.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 72) { buf in
            let base = buf.baseAddress!
            let cosines = base, sines = base + 36
            @inline(__always) func fillMultiples(slot: Int, angle: Double) {
                let c1 = cos(angle), s1 = sin(angle)
                let row = slot * 9 + 4 // index of k = 0
                var c = 1.0, s = 0.0
                cosines[row] = 1; sines[row] = 0
                for k in 1...4 {
                    (c, s) = (c * c1 - s * s1, s * c1 + c * s1)
                    cosines[row + k] = c; sines[row + k] = s
                    cosines[row - k] = c; sines[row - k] = -s
                }
            }
            fillMultiples(slot: 0, angle: d.angle)
            fillMultiples(slot: 1, angle: m.angle)
            fillMultiples(slot: 2, angle: mp.angle)
            fillMultiples(slot: 3, angle: f.angle)
            let rates = (d.rate, m.rate, mp.rate, f.rate)

            @inline(__always) func phase(_ t: Term) -> (cos: Double, sin: Double, rate: Double) {
                let iD = 4 + Int(t.d), iM = 13 + Int(t.m), iMp = 22 + Int(t.mPrime), iF = 31 + Int(t.f)
                let c1 = cosines[iD], s1 = sines[iD], c2 = cosines[iM], s2 = sines[iM]
                let c12 = c1 * c2 - s1 * s2, s12 = s1 * c2 + c1 * s2
                let c3 = cosines[iMp], s3 = sines[iMp], c4 = cosines[iF], s4 = sines[iF]
                let c34 = c3 * c4 - s3 * s4, s34 = s3 * c4 + c3 * s4
                let rate = Double(t.d) * rates.0 + Double(t.m) * rates.1 + Double(t.mPrime) * rates.2 + Double(t.f) * rates.3
                return (c12 * c34 - s12 * s34, s12 * c34 + c12 * s34, rate)
            }
            // Terms in M are multiplied by E (|M| = 1) or E² (|M| = 2), Meeus ch. 47.
            @inline(__always) func eFactor(_ t: Term) -> (value: Double, rate: Double) {
                switch abs(t.m) {
                case 0: return (1, 0)
                case 1: return (E, Edot)
                default: return (E * E, 2 * E * Edot)
                }
            }

            var sumL = 0.0, sumR = 0.0, sumB = 0.0
            var rateL = 0.0, rateR = 0.0, rateB = 0.0
            for t in longitudeDistanceTerms {
                let p = phase(t), e = eFactor(t)
                sumL += t.sine * e.value * p.sin
                sumR += t.cosine * e.value * p.cos
                rateL += t.sine * (e.value * p.cos * p.rate + e.rate * p.sin)
                rateR += t.cosine * (e.rate * p.cos - e.value * p.sin * p.rate)
            }
            for t in latitudeTerms {
                let p = phase(t), e = eFactor(t)
                sumB += t.sine * e.value * p.sin
                rateB += t.sine * (e.value * p.cos * p.rate + e.rate * p.sin)
            }

            let sL = sin(lp.angle), cL = cos(lp.angle)
            let sA1 = sin(a1.0), cA1 = cos(a1.0)
            let sF = sines[31 + 1], cF = cosines[31 + 1]
            let sMp = sines[22 + 1], cMp = cosines[22 + 1]
            // Σl += 3958 sin A1 + 1962 sin(L′ − F) + 318 sin A2
            let sLmF = sL * cF - cL * sF, cLmF = cL * cF + sL * sF
            sumL += 3958 * sA1 + 1962 * sLmF + 318 * sin(a2.0)
            rateL += 3958 * cA1 * a1.1 + 1962 * cLmF * (lp.rate - f.rate) + 318 * cos(a2.0) * a2.1
            // Σb += −2235 sin L′ + 382 sin A3 + 175 sin(A1 − F) + 175 sin(A1 + F)
            //       + 127 sin(L′ − M′) − 115 sin(L′ + M′)
            let sA1mF = sA1 * cF - cA1 * sF, cA1mF = cA1 * cF + sA1 * sF
            let sA1pF = sA1 * cF + cA1 * sF, cA1pF = cA1 * cF - sA1 * sF
            let sLmMp = sL * cMp - cL * sMp, cLmMp = cL * cMp + sL * sMp
            let sLpMp = sL * cMp + cL * sMp, cLpMp = cL * cMp - sL * sMp
            sumB += -2235 * sL + 382 * sin(a3.0) + 175 * sA1mF + 175 * sA1pF + 127 * sLmMp - 115 * sLpMp
            rateB += -2235 * cL * lp.rate + 382 * cos(a3.0) * a3.1
                + 175 * cA1mF * (a1.1 - f.rate) + 175 * cA1pF * (a1.1 + f.rate)
                + 127 * cLmMp * (lp.rate - mp.rate) - 115 * cLpMp * (lp.rate + mp.rate)

            // The sums are in 10⁻⁶° (Σl, Σb) and 10⁻³ km (Σr); their rates, coefficient × radians
            // per day, are in the same units per day.
            return EclipticOfDate(
                longitudeDeg: Angle.normalizedDegrees(lp.angle * Angle.degreesPerRadian + sumL * 1e-6),
                latitudeDeg: sumB * 1e-6,
                distanceKm: 385_000.56 + sumR * 1e-3,
                longitudeRateDegPerDay: lp.rate * Angle.degreesPerRadian + rateL * 1e-6,
                latitudeRateDegPerDay: rateB * 1e-6,
                distanceRateKmPerDay: rateR * 1e-3
            )
        }
    }

    /// Rate of the general precession in longitude p_A (Lieske et al. 1977, as in Meeus eq. 21.5
    /// with T = 0), radians per day: how fast the equinox of date slides along the ecliptic.
    @inline(__always)
    static func generalPrecessionRate(jd: Double) -> Double {
        let T = (jd - Constants.jdJ2000) / Constants.daysPerJulianCentury
        let arcsecPerCentury = 5029.0966 + 2 * 1.11113 * T - 3 * 0.000006 * T * T
        return arcsecPerCentury * Angle.radiansPerArcsecond / Constants.daysPerJulianCentury
    }

    private static func state(jdTDB: Double, withVelocity: Bool) -> (positionKm: Vector3, velocityKmPerDay: Vector3) {
        let s = eclipticOfDate(jdTDB: jdTDB)
        let lambda = s.longitudeDeg * Angle.radiansPerDegree
        let beta = s.latitudeDeg * Angle.radiansPerDegree
        let cl = cos(lambda), sl = sin(lambda), cb = cos(beta), sb = sin(beta)
        let unit = Vector3(cb * cl, cb * sl, sb)
        let toJ2000 = Precession.eclipticOfDateToJ2000(jdTT: jdTDB)
        let position = toJ2000 * (unit * s.distanceKm)
        guard withVelocity else { return (position, .zero) }

        // d/dt of Δ·(cos β cos λ, cos β sin λ, sin β), with λ's rate measured against inertial
        // space (the equinox of date itself moves by p_A).
        let lambdaDot = s.longitudeRateDegPerDay * Angle.radiansPerDegree - generalPrecessionRate(jd: jdTDB)
        let betaDot = s.latitudeRateDegPerDay * Angle.radiansPerDegree
        let east = Vector3(-sl, cl, 0)
        let north = Vector3(-sb * cl, -sb * sl, cb)
        let velocityOfDate = unit * s.distanceRateKmPerDay + (east * (cb * lambdaDot) + north * betaDot) * s.distanceKm
        return (position, toJ2000 * velocityOfDate)
    }
}
