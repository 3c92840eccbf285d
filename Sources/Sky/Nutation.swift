import Glibc
import Ephemeris

/// Nutation in longitude and obliquity, IAU 2000B (McCarthy & Luzum 2003): the 77 largest
/// luni-solar terms of IAU 2000A plus fixed offsets standing in for the planetary terms. Within
/// 1 mas of IAU 2000A over 1995–2050 (a few mas over 1900–2100), far below the 1″ this serves.
public enum Nutation {
    /// One luni-solar term: the multipliers of the Delaunay arguments and its coefficients,
    /// 0.1 µas (see ``terms``).
    struct Term: Sendable {
        let l: Double, lp: Double, f: Double, d: Double, om: Double
        let a: Double, at: Double, ac: Double
        let b: Double, bt: Double, bs: Double
        init(_ l: Int, _ lp: Int, _ f: Int, _ d: Int, _ om: Int,
             _ a: Double, _ at: Double, _ ac: Double, _ b: Double, _ bt: Double, _ bs: Double) {
            self.l = Double(l); self.lp = Double(lp); self.f = Double(f); self.d = Double(d); self.om = Double(om)
            self.a = a; self.at = at; self.ac = ac; self.b = b; self.bt = bt; self.bs = bs
        }
    }

    /// IAU 2000B's offsets for the omitted planetary terms, arcseconds (McCarthy & Luzum 2003).
    static let planetaryOffsetPsiArcseconds = -0.000_135
    static let planetaryOffsetEpsilonArcseconds = 0.000_388

    /// The Delaunay arguments l, l′, F, D, Ω in radians at `t` Julian centuries of TT since J2000
    /// (IERS Conventions 2010, eqs. 5.43; Simon et al. 1994).
    static func delaunayArguments(_ t: Double) -> (l: Double, lp: Double, f: Double, d: Double, om: Double) {
        func arc(_ c0: Double, _ c1: Double, _ c2: Double, _ c3: Double, _ c4: Double) -> Double {
            let s = c0 + t * (c1 + t * (c2 + t * (c3 + t * c4)))
            return (s.truncatingRemainder(dividingBy: 1_296_000)) * Angle.radiansPerArcsecond
        }
        return (arc(485_868.249036, 1_717_915_923.2178, 31.8792, 0.051635, -0.00024470),
                arc(1_287_104.79305, 129_596_581.0481, -0.5532, 0.000136, -0.00001149),
                arc(335_779.526232, 1_739_527_262.8478, -12.7512, -0.001037, 0.00000417),
                arc(1_072_260.70369, 1_602_961_601.2090, -6.3706, 0.006593, -0.00003169),
                arc(450_160.398036, -6_962_890.5431, 7.4722, 0.007702, -0.00005939))
    }

    /// (Δψ, Δε) in radians at `t` Julian centuries of TT since J2000.
    public static func angles(julianCenturiesTT t: Double) -> (psi: Double, epsilon: Double) {
        let a = delaunayArguments(t)
        var psi = 0.0, eps = 0.0
        for k in terms {
            let arg = k.l * a.l + k.lp * a.lp + k.f * a.f + k.d * a.d + k.om * a.om
            let s = sin(arg), c = cos(arg)
            psi += (k.a + k.at * t) * s + k.ac * c
            eps += (k.b + k.bt * t) * c + k.bs * s
        }
        let unit = 1e-7 * Angle.radiansPerArcsecond
        return (psi * unit + planetaryOffsetPsiArcseconds * Angle.radiansPerArcsecond,
                eps * unit + planetaryOffsetEpsilonArcseconds * Angle.radiansPerArcsecond)
    }
}
