import Glibc
import Ephemeris

/// IAU 1980 nutation (Wahr 1981; Seidelmann 1982), the model SGP4's TEME is defined with, in the
/// 63-term form of Meeus, *Astronomical Algorithms* (2nd ed.), table 22.A: every term of the
/// 106-term series whose amplitude reaches 0.0003″ (the omitted terms are each smaller; 1 mas is
/// 3 cm at the ISS and 20 cm at geostationary distance).
public enum Nutation1980 {
    public struct Angles: Sendable {
        /// Nutation in longitude Δψ, radians.
        public var longitudeRadians: Double
        /// Nutation in obliquity Δε, radians.
        public var obliquityRadians: Double
        /// Mean obliquity of the ecliptic ε₀ (IAU 1980, Lieske et al. 1977), radians.
        public var meanObliquityRadians: Double

        /// The rotation from mean equator and equinox of date to true equator and equinox of date:
        /// N = R1(−ε − Δε) R3(−Δψ) R1(ε) as frame rotations.
        public var meanToTrue: Matrix3 {
            Matrix3.rotationX(meanObliquityRadians + obliquityRadians) * Matrix3.rotationZ(longitudeRadians)
                * Matrix3.rotationX(-meanObliquityRadians)
        }
    }

    /// One row of table 22.A: multiples of D, M, M′, F, Ω; Δψ and Δε in 0.0001″ with their rates per century.
    struct Term {
        let d: Double, m: Double, mp: Double, f: Double, om: Double
        let psi: Double, psiT: Double, eps: Double, epsT: Double
        init(_ d: Double, _ m: Double, _ mp: Double, _ f: Double, _ om: Double,
             _ psi: Double, _ psiT: Double, _ eps: Double, _ epsT: Double) {
            self.d = d; self.m = m; self.mp = mp; self.f = f; self.om = om
            self.psi = psi; self.psiT = psiT; self.eps = eps; self.epsT = epsT
        }
    }

    static let terms: [Term] = [
        Term(0, 0, 0, 0, 1, -171_996, -174.2, 92_025, 8.9),
        Term(-2, 0, 0, 2, 2, -13_187, -1.6, 5736, -3.1),
        Term(0, 0, 0, 2, 2, -2274, -0.2, 977, -0.5),
        Term(0, 0, 0, 0, 2, 2062, 0.2, -895, 0.5),
        Term(0, 1, 0, 0, 0, 1426, -3.4, 54, -0.1),
        Term(0, 0, 1, 0, 0, 712, 0.1, -7, 0),
        Term(-2, 1, 0, 2, 2, -517, 1.2, 224, -0.6),
        Term(0, 0, 0, 2, 1, -386, -0.4, 200, 0),
        Term(0, 0, 1, 2, 2, -301, 0, 129, -0.1),
        Term(-2, -1, 0, 2, 2, 217, -0.5, -95, 0.3),
        Term(-2, 0, 1, 0, 0, -158, 0, 0, 0),
        Term(-2, 0, 0, 2, 1, 129, 0.1, -70, 0),
        Term(0, 0, -1, 2, 2, 123, 0, -53, 0),
        Term(2, 0, 0, 0, 0, 63, 0, 0, 0),
        Term(0, 0, 1, 0, 1, 63, 0.1, -33, 0),
        Term(2, 0, -1, 2, 2, -59, 0, 26, 0),
        Term(0, 0, -1, 0, 1, -58, -0.1, 32, 0),
        Term(0, 0, 1, 2, 1, -51, 0, 27, 0),
        Term(-2, 0, 2, 0, 0, 48, 0, 0, 0),
        Term(0, 0, -2, 2, 1, 46, 0, -24, 0),
        Term(2, 0, 0, 2, 2, -38, 0, 16, 0),
        Term(0, 0, 2, 2, 2, -31, 0, 13, 0),
        Term(0, 0, 2, 0, 0, 29, 0, 0, 0),
        Term(-2, 0, 1, 2, 2, 29, 0, -12, 0),
        Term(0, 0, 0, 2, 0, 26, 0, 0, 0),
        Term(-2, 0, 0, 2, 0, -22, 0, 0, 0),
        Term(0, 0, -1, 2, 1, 21, 0, -10, 0),
        Term(0, 2, 0, 0, 0, 17, -0.1, 0, 0),
        Term(2, 0, -1, 0, 1, 16, 0, -8, 0),
        Term(-2, 2, 0, 2, 2, -16, 0.1, 7, 0),
        Term(0, 1, 0, 0, 1, -15, 0, 9, 0),
        Term(-2, 0, 1, 0, 1, -13, 0, 7, 0),
        Term(0, -1, 0, 0, 1, -12, 0, 6, 0),
        Term(0, 0, 2, -2, 0, 11, 0, 0, 0),
        Term(2, 0, -1, 2, 1, -10, 0, 5, 0),
        Term(2, 0, 1, 2, 2, -8, 0, 3, 0),
        Term(0, 1, 0, 2, 2, 7, 0, -3, 0),
        Term(-2, 1, 1, 0, 0, -7, 0, 0, 0),
        Term(0, -1, 0, 2, 2, -7, 0, 3, 0),
        Term(2, 0, 0, 2, 1, -7, 0, 3, 0),
        Term(2, 0, 1, 0, 0, 6, 0, 0, 0),
        Term(-2, 0, 2, 2, 2, 6, 0, -3, 0),
        Term(-2, 0, 1, 2, 1, 6, 0, -3, 0),
        Term(2, 0, -2, 0, 1, -6, 0, 3, 0),
        Term(2, 0, 0, 0, 1, -6, 0, 3, 0),
        Term(0, -1, 1, 0, 0, 5, 0, 0, 0),
        Term(-2, -1, 0, 2, 1, -5, 0, 3, 0),
        Term(-2, 0, 0, 0, 1, -5, 0, 3, 0),
        Term(0, 0, 2, 2, 1, -5, 0, 3, 0),
        Term(-2, 0, 2, 0, 1, 4, 0, 0, 0),
        Term(-2, 1, 0, 2, 1, 4, 0, 0, 0),
        Term(0, 0, 1, -2, 0, 4, 0, 0, 0),
        Term(-1, 0, 1, 0, 0, -4, 0, 0, 0),
        Term(-2, 1, 0, 0, 0, -4, 0, 0, 0),
        Term(1, 0, 0, 0, 0, -4, 0, 0, 0),
        Term(0, 0, 1, 2, 0, 3, 0, 0, 0),
        Term(0, 0, -2, 2, 2, -3, 0, 0, 0),
        Term(-1, -1, 1, 0, 0, -3, 0, 0, 0),
        Term(0, 1, 1, 0, 0, -3, 0, 0, 0),
        Term(0, -1, 1, 2, 2, -3, 0, 0, 0),
        Term(2, -1, -1, 2, 2, -3, 0, 0, 0),
        Term(0, 0, 3, 2, 2, -3, 0, 0, 0),
        Term(2, -1, 0, 2, 2, -3, 0, 0, 0),
    ]

    /// Δψ, Δε and ε₀ at `t` Julian centuries of TT from J2000.
    public static func angles(julianCenturiesTT t: Double) -> Angles {
        let deg = Double.pi / 180
        let t2 = t * t, t3 = t2 * t
        // Fundamental arguments (Meeus eqs. 22.x, from the IAU 1980 theory), degrees.
        let d = (297.85036 + 445_267.111480 * t - 0.0019142 * t2 + t3 / 189_474) * deg
        let m = (357.52772 + 35_999.050340 * t - 0.0001603 * t2 - t3 / 300_000) * deg
        let mp = (134.96298 + 477_198.867398 * t + 0.0086972 * t2 + t3 / 56_250) * deg
        let f = (93.27191 + 483_202.017538 * t - 0.0036825 * t2 + t3 / 327_270) * deg
        let om = (125.04452 - 1934.136261 * t + 0.0020708 * t2 + t3 / 450_000) * deg
        var psi = 0.0, eps = 0.0
        for term in terms {
            let arg = term.d * d + term.m * m + term.mp * mp + term.f * f + term.om * om
            psi += (term.psi + term.psiT * t) * sin(arg)
            eps += (term.eps + term.epsT * t) * cos(arg)
        }
        let unit = 1e-4 * Angle.radiansPerArcsecond
        let eps0 = (84_381.448 - 46.8150 * t - 0.00059 * t2 + 0.001813 * t3) * Angle.radiansPerArcsecond
        return Angles(longitudeRadians: psi * unit, obliquityRadians: eps * unit, meanObliquityRadians: eps0)
    }
}
